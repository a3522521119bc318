import type { CheckInCounts, DoorDelegate, DoorListEntry } from '@events/core'
import { normalisePassCode } from '@events/core/pass-codes'
import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { Form, useNavigate } from 'react-router'
import { formatAdminClock } from '../../lib/admin-format'
import type { DoorAnswer } from '../../lib/check-in.server'
import { CameraScanner } from './CameraScanner'
import { FieldRow, SubmitButton } from './FormControls'
import { judgeOffline, markDoorListEntry, storedDoorList, storeDoorList } from './check-in-list'
import { forgetQueuedScan, newScanId, queuedScans, queueScan, type QueuedScan } from './check-in-queue'

// How often a desk asks for the day's counts, so each device sees the check-ins made on the others.
const COUNTS_EVERY_MS = 3_000
// How long a scan waits for the server's answer before it is queued on the device instead: a stalled connection at the
// venue must not hang the door. A late answer is harmless: the queued resend carries the same scan id.
const ANSWER_WITHIN_MS = 5_000
// How often the event's check-in list kept on the device is refreshed while online.
const LIST_EVERY_MS = 30_000
// How long an answer fills the screen before it shrinks to its place above the pass code (typing shrinks it at once).
const FULL_SCREEN_MS = 2_500

/** An offline scan judged by the list kept on the device: admitted at the door, confirmed when the connection returns. */
interface ProvisionalAnswer {
  provisional: true
  message: string
  unpaid: boolean
}

type DeskAnswer = DoorAnswer | ProvisionalAnswer

function vibrate(pattern: number | number[]): void {
  if (typeof navigator.vibrate === 'function') navigator.vibrate(pattern)
}

/** A scan's answer: green (in, with the name and what to note) or red (why), filling the screen while fresh. */
function AnswerPanel({ answer, full }: { answer: DeskAnswer; full: boolean }) {
  const size = full ? ' check-in-result--full' : ''
  if ('provisional' in answer)
    return (
      <div className={`check-in-result check-in-result--provisional check-in-answer${size}`} role="status">
        <strong>{answer.message}</strong>
        {answer.unpaid && <strong className="check-in-unpaid">Not paid in full: send them to the registration desk.</strong>}
      </div>
    )
  if (answer.ok)
    return (
      <div className={`check-in-result check-in-result--green check-in-answer${size}`} role="status">
        <strong>{answer.message}</strong>
        <DelegateFacts delegate={answer.delegate} />
      </div>
    )
  return (
    <div className={`check-in-result check-in-result--red${size}`} role="alert">
      {answer.message}
    </div>
  )
}

interface DeskProps {
  eventId: string
  day: string
  /** The event's days: a new server day among them is followed, when the desk is on today. */
  days: string[]
  /** Whether the desk records today (not a past day a manager is completing): it then follows the server's day. */
  followsToday: boolean
  counts: CheckInCounts
  delegates: DoorDelegate[]
  /** The page action's answer, after a post without JavaScript. */
  answer: DoorAnswer | undefined
  /** The desk's JSON route: counts (GET) and check-ins (POST). */
  liveUrl: string
  /** The search form, shown between the scan and the list. */
  children: ReactNode
}

/** What the door needs to know about a delegate: company, attendance, payment, and whether they are in already. */
function DelegateFacts({ delegate }: { delegate: DoorDelegate }) {
  return (
    <>
      <span>
        {delegate.company} · {delegate.reference} · {delegate.online ? 'Online' : 'At the venue'}
      </span>
      {delegate.joinedOnlineAt && <span>Joined online at {formatAdminClock(delegate.joinedOnlineAt)}</span>}
      {delegate.unpaid && <strong className="check-in-unpaid">Not paid in full: send them to the registration desk.</strong>}
    </>
  )
}

function checkedInText(delegate: DoorDelegate): string | undefined {
  return delegate.checkedIn && `Checked in at ${formatAdminClock(delegate.checkedIn.at)} by ${delegate.checkedIn.byName}`
}

/**
 * The check-in desk of an event day. Without JavaScript its forms post to the page. With it, check-ins go to the
 * desk's JSON route and only the delegate's row and the counts change (the list is not loaded again); the answer
 * fills the screen, green or red, and the pass code field is ready for the next scan. The event's list is kept on the
 * device, so a scan made while the connection is down is judged at once (unknown, cancelled, already in, unpaid); an
 * admitted one waits on the device (localStorage) as provisional and is sent when the connection returns, its outcome
 * shown then; the counts are polled so a second device sees them move.
 */
export function CheckInDesk({ eventId, day, days, followsToday, counts: initialCounts, delegates, answer: postedAnswer, liveUrl, children }: DeskProps) {
  const [counts, setCounts] = useState(initialCounts)
  const [rows, setRows] = useState(delegates)
  const [answer, setShownAnswer] = useState<DeskAnswer | undefined>(postedAnswer)
  const [fullScreen, setFullScreen] = useState(false)
  const [waiting, setWaiting] = useState(0)
  const [lateRefusals, setLateRefusals] = useState<string[]>([])
  const [hydrated, setHydrated] = useState(false)
  const codeInput = useRef<HTMLInputElement>(null)
  const sending = useRef(false)
  const navigate = useNavigate()
  const reasonInput = useRef<HTMLInputElement>(null)

  // The server decides the day: when its answer or the counts' poll names another day of the event, the desk moves
  // to it (a client-side navigation, no reload), keeping the answer on screen so staff read why.
  const followServerDay = useCallback(
    (today: string | undefined, shown?: DoorAnswer) => {
      if (!followsToday || !today || today === day || !days.includes(today)) return
      void navigate(`?day=${today}`, { replace: true, state: shown ? { answer: shown } : undefined })
    },
    [day, days, followsToday, navigate],
  )

  useEffect(() => setCounts(initialCounts), [initialCounts])
  useEffect(() => setRows(delegates), [delegates])
  useEffect(() => setShownAnswer(postedAnswer), [postedAnswer])

  /** Shows an answer: full screen for a moment, with a vibration where the browser allows. */
  const setAnswer = useCallback((next: DeskAnswer | undefined | ((shown: DeskAnswer | undefined) => DeskAnswer | undefined)) => {
    setShownAnswer(next)
    if (typeof next === 'function') return
    if (next) {
      vibrate('provisional' in next || next.ok ? 120 : [200, 100, 200])
      setFullScreen(true)
    }
  }, [])

  useEffect(() => {
    if (!fullScreen) return
    const timer = setTimeout(() => setFullScreen(false), FULL_SCREEN_MS)
    return () => clearTimeout(timer)
  }, [fullScreen, answer])

  /** The delegate's row and the kept list as the server now has them, after a check-in or an undo. */
  const showDelegate = useCallback(
    (delegate: DoorDelegate) => {
      setRows((shown) => shown.map((row) => (row.delegateId === delegate.delegateId ? delegate : row)))
      const code = normalisePassCode(delegate.passCode)
      if (code) markDoorListEntry(eventId, day, code, delegate.checkedIn !== undefined)
    },
    [day, eventId],
  )

  const refreshList = useCallback(async () => {
    const response = await fetch(`${liveUrl}?${new URLSearchParams({ day, list: '1' })}`, { headers: { Accept: 'application/json' } }).catch(() => undefined)
    if (!response?.ok || !response.headers.get('content-type')?.includes('application/json')) return
    const { entries } = (await response.json()) as { entries: DoorListEntry[] }
    const waitingCodes = queuedScans(eventId, day).flatMap((scan) => normalisePassCode(scan.code) ?? [])
    storeDoorList(eventId, day, entries, waitingCodes)
  }, [day, eventId, liveUrl])

  const post = useCallback(
    async (fields: Record<string, string>): Promise<DoorAnswer> => {
      const body = new FormData()
      for (const [name, value] of Object.entries({ day, reason: reasonInput.current?.value ?? '', ...fields })) body.set(name, value)
      const response = await fetch(liveUrl, { method: 'POST', body, headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) })
      if (!response.headers.get('content-type')?.includes('application/json')) {
        // The sign-in page answered instead (the session ended): kept as 401 so a scan waits rather than being dropped.
        return { ok: false, status: 401, message: 'You are signed out of the back office. Sign in again in a new tab; the scans wait on this device.' }
      }
      return (await response.json()) as DoorAnswer
    },
    [day, liveUrl],
  )

  const flushQueue = useCallback(async () => {
    const queued = queuedScans(eventId, day)
    if (sending.current || !navigator.onLine || queued.length === 0) return
    sending.current = true
    try {
      for (const scan of queued) {
        const sent = await post({ code: scan.code, scannedAt: scan.scannedAt, scanId: scan.scanId ?? '' }).catch(() => undefined)
        if (!sent || (!sent.ok && sent.status === 401)) break
        forgetQueuedScan(eventId, day, scan)
        if (sent.ok) {
          // The one answer this scan gets on screen: a resend of a scan recorded before its answer was lost says so too.
          setAnswer(sent)
          setCounts(sent.counts)
          showDelegate(sent.delegate)
        } else setLateRefusals((refusals) => [...refusals, `${scan.code} (scanned ${formatAdminClock(scan.scannedAt)}): ${sent.message}`])
      }
    } finally {
      sending.current = false
      const left = queuedScans(eventId, day).length
      setWaiting(left)
      // Every queued scan has its answer now: the "No connection" notice of the last scan no longer holds.
      if (left === 0) setAnswer((shown) => (shown && !('provisional' in shown) && !shown.ok && shown.status === 503 ? undefined : shown))
    }
  }, [day, eventId, post, setAnswer, showDelegate])

  useEffect(() => {
    setHydrated(true)
    setWaiting(queuedScans(eventId, day).length)
    const refresh = async () => {
      await flushQueue()
      const response = await fetch(`${liveUrl}?day=${day}`, { headers: { Accept: 'application/json' } }).catch(() => undefined)
      if (response?.ok && response.headers.get('content-type')?.includes('application/json')) {
        const polled = (await response.json()) as CheckInCounts & { today?: string }
        setCounts({ checkedIn: polled.checkedIn, expected: polled.expected })
        followServerDay(polled.today)
      }
    }
    const timer = setInterval(() => void refresh(), COUNTS_EVERY_MS)
    void refreshList()
    const listTimer = setInterval(() => void refreshList(), LIST_EVERY_MS)
    const onOnline = () => void flushQueue()
    window.addEventListener('online', onOnline)
    return () => {
      clearInterval(timer)
      clearInterval(listTimer)
      window.removeEventListener('online', onOnline)
    }
  }, [day, eventId, flushQueue, followServerDay, liveUrl, refreshList])

  const checkIn = useCallback(
    async (fields: { code: string; delegateId?: string }) => {
      const scan: QueuedScan = { code: fields.code, scannedAt: new Date().toISOString(), scanId: newScanId() }
      const keep = () => {
        queueScan(eventId, day, scan)
        setWaiting(queuedScans(eventId, day).length)
      }
      // No answer from the server: the scan is judged by the list kept on the device and, when admitted, waits there.
      const judgeHere = () => {
        const code = normalisePassCode(fields.code)
        const judgement = judgeOffline(storedDoorList(eventId, day), code)
        switch (judgement.kind) {
          case 'no-list':
            keep()
            setAnswer({ ok: false, status: 503, message: `No connection: ${fields.code} waits on this device and is sent when the connection returns.` })
            return
          case 'unknown':
            setAnswer({
              ok: false,
              status: 404,
              message: `${fields.code} is not a pass of this event (no connection: judged by the list on this device). Nothing recorded.`,
            })
            return
          case 'cancelled':
            setAnswer({ ok: false, status: 409, message: `The pass of ${judgement.entry.name} is cancelled. Nothing recorded.` })
            return
          case 'already-in':
            setAnswer({
              ok: false,
              status: 409,
              message: `${judgement.entry.name}: already checked in today (no connection: judged by the list on this device).`,
            })
            return
          case 'admit':
            keep()
            markDoorListEntry(eventId, day, judgement.entry.code, true)
            setAnswer({
              provisional: true,
              message: `${judgement.entry.name}: in, provisional (no connection). It is confirmed when the connection returns.`,
              unpaid: judgement.entry.unpaid,
            })
        }
      }
      if (!navigator.onLine) return judgeHere()
      // A stalled or dropped request (no answer within ANSWER_WITHIN_MS) is judged here and queued with its id, so its
      // resend counts once.
      const sent = await post({ code: fields.delegateId ? '' : fields.code, delegateId: fields.delegateId ?? '', scanId: scan.scanId! }).catch(() => undefined)
      if (!sent) return judgeHere()
      if (!sent.ok && sent.status === 401) keep()
      setAnswer(sent)
      if (sent.ok) {
        setCounts(sent.counts)
        showDelegate(sent.delegate)
      }
      followServerDay(sent.today, sent)
    },
    [day, eventId, followServerDay, post, setAnswer, showDelegate],
  )

  const onCodeSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const input = codeInput.current!
    const code = input.value.trim()
    if (code === '') {
      setAnswer({ ok: false, status: 422, message: 'Type or scan a pass code first.' })
      return
    }
    input.value = ''
    // The field stays focused: a scanner (or the next person's code) goes straight in, without a tap.
    input.focus()
    void checkIn({ code })
  }

  const onDelegateSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const delegateId = String(form.get('delegateId'))
    // The submit button pressed names the intent: undo, or a departure before the day ends.
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null
    const intent = submitter?.name === 'intent' ? submitter.value : String(form.get('intent'))
    if (intent === 'undo' || intent === 'leave') {
      void post({ intent, delegateId })
        .then((sent) => {
          setAnswer(sent)
          if (sent.ok) {
            setCounts(sent.counts)
            showDelegate(sent.delegate)
          }
        })
        .catch(() => setAnswer({ ok: false, status: 503, message: 'No connection: nothing was recorded. Try again when the connection returns.' }))
    } else {
      // The row's pass code goes with it: without an answer in time, the check-in is judged and queued as a scan of that
      // code, and its resend (same scan id) counts once whether or not the first request was recorded.
      const code = rows.find((row) => row.delegateId === delegateId)?.passCode ?? ''
      void checkIn({ code, delegateId })
    }
  }

  return (
    <>
      <p className="check-in-counts" aria-live="polite">
        <strong>{counts.checkedIn}</strong> checked in of <strong>{counts.expected}</strong> expected at the venue
      </p>
      <div aria-live="polite">{answer && <AnswerPanel answer={answer} full={fullScreen} />}</div>
      {waiting > 0 && (
        <p className="admin-error" role="status">
          {waiting} {waiting === 1 ? 'scan waits' : 'scans wait'} on this device for the connection; {waiting === 1 ? 'it is' : 'they are'} sent when it
          returns.
        </p>
      )}
      {lateRefusals.length > 0 && (
        <div className="admin-error" role="alert">
          <p>Scans sent after the connection returned and refused:</p>
          <ul>
            {lateRefusals.map((refusal) => (
              <li key={refusal}>{refusal}</li>
            ))}
          </ul>
        </div>
      )}
      <Form method="post" className="form check-in-scan" onSubmit={hydrated ? onCodeSubmit : undefined}>
        <input type="hidden" name="intent" value="check-in" />
        <input type="hidden" name="day" value={day} />
        {!followsToday && (
          <FieldRow id="check-in-reason" label="Why this past day is recorded afterwards (managers only)">
            <input ref={reasonInput} id="check-in-reason" name="reason" autoComplete="off" />
          </FieldRow>
        )}
        <FieldRow id="check-in-code" label="Pass code">
          <input
            ref={codeInput}
            id="check-in-code"
            name="code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            enterKeyHint="go"
            // Ready for the first scan, and again after a post without JavaScript.
            autoFocus
            onInput={() => setFullScreen(false)}
          />
        </FieldRow>
        <SubmitButton>Check in</SubmitButton>
      </Form>
      {hydrated && <CameraScanner onCode={(code) => void checkIn({ code })} />}
      {children}
      <ul className="check-in-list">
        {rows.map((delegate) => (
          <li key={delegate.delegateId}>
            <strong>{delegate.name}</strong>
            <DelegateFacts delegate={delegate} />
            <Form method="post" onSubmit={hydrated ? onDelegateSubmit : undefined}>
              <input type="hidden" name="day" value={day} />
              <input type="hidden" name="delegateId" value={delegate.delegateId} />
              {delegate.checkedIn ? (
                <>
                  <span>{checkedInText(delegate)}</span>
                  {delegate.left && (
                    <span>
                      Left at {formatAdminClock(delegate.left.at)} (recorded by {delegate.left.byName})
                    </span>
                  )}
                  <SubmitButton secondary name="intent" value="undo" aria-label={`Undo the check-in of ${delegate.name}`}>
                    Undo
                  </SubmitButton>
                  {!delegate.left && (
                    <SubmitButton secondary name="intent" value="leave" aria-label={`${delegate.name} left early`}>
                      Left early
                    </SubmitButton>
                  )}
                </>
              ) : (
                <>
                  <input type="hidden" name="intent" value="check-in" />
                  <SubmitButton aria-label={`Check in ${delegate.name}`}>Check in</SubmitButton>
                </>
              )}
            </Form>
          </li>
        ))}
      </ul>
      {rows.length === 0 && <p>No delegate matches.</p>}
    </>
  )
}
