import type { CheckInCounts, DoorDelegate } from '@events/core'
import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { Form, useNavigate, useRevalidator } from 'react-router'
import { formatAdminClock } from '../../lib/admin-format'
import type { DoorAnswer } from '../../lib/check-in.server'
import { CameraScanner } from './CameraScanner'
import { FieldRow, SubmitButton } from './FormControls'
import { forgetQueuedScan, newScanId, queuedScans, queueScan, type QueuedScan } from './check-in-queue'

// How often a desk asks for the day's counts, so each device sees the check-ins made on the others.
const COUNTS_EVERY_MS = 3_000
// How long a scan waits for the server's answer before it is queued on the device instead: a stalled connection at the
// venue must not hang the door. A late answer is harmless: the queued resend carries the same scan id.
const ANSWER_WITHIN_MS = 5_000

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
 * desk's JSON route; a scan made while the connection is down waits on the device (localStorage) and is sent when it
 * returns, its outcome shown then; the counts are polled so a second device sees them move.
 */
export function CheckInDesk({ eventId, day, days, followsToday, counts: initialCounts, delegates, answer: postedAnswer, liveUrl, children }: DeskProps) {
  const [counts, setCounts] = useState(initialCounts)
  const [answer, setAnswer] = useState<DoorAnswer | undefined>(postedAnswer)
  const [waiting, setWaiting] = useState(0)
  const [lateRefusals, setLateRefusals] = useState<string[]>([])
  const [hydrated, setHydrated] = useState(false)
  const codeInput = useRef<HTMLInputElement>(null)
  const sending = useRef(false)
  const revalidator = useRevalidator()
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
  useEffect(() => setAnswer(postedAnswer), [postedAnswer])

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
        } else setLateRefusals((refusals) => [...refusals, `${scan.code} (scanned ${formatAdminClock(scan.scannedAt)}): ${sent.message}`])
      }
    } finally {
      sending.current = false
      const left = queuedScans(eventId, day).length
      setWaiting(left)
      // Every queued scan has its answer now: the "No connection" notice of the last scan no longer holds.
      if (left === 0) setAnswer((shown) => (shown && !shown.ok && shown.status === 503 ? undefined : shown))
    }
    await revalidator.revalidate()
  }, [day, eventId, post, revalidator])

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
    const onOnline = () => void flushQueue()
    window.addEventListener('online', onOnline)
    return () => {
      clearInterval(timer)
      window.removeEventListener('online', onOnline)
    }
  }, [day, eventId, flushQueue, followServerDay, liveUrl])

  const checkIn = useCallback(
    async (fields: { code?: string; delegateId?: string }) => {
      const scan: QueuedScan = { code: fields.code ?? '', scannedAt: new Date().toISOString(), scanId: newScanId() }
      const queue = () => {
        if (!fields.code) {
          setAnswer({
            ok: false,
            status: 503,
            message: 'No connection: this check-in was not sent. Scan or type the pass code instead; scans wait on this device until the connection returns.',
          })
          return
        }
        queueScan(eventId, day, scan)
        setWaiting(queuedScans(eventId, day).length)
        setAnswer({ ok: false, status: 503, message: `No connection: ${fields.code} waits on this device and is sent when the connection returns.` })
      }
      if (!navigator.onLine) return queue()
      // A stalled or dropped request (no answer within ANSWER_WITHIN_MS) is queued with its id, so its resend counts once.
      const sent = await post({ code: fields.code ?? '', delegateId: fields.delegateId ?? '', scanId: scan.scanId! }).catch(() => undefined)
      if (!sent) return queue()
      if (!sent.ok && sent.status === 401 && fields.code) {
        queueScan(eventId, day, scan)
        setWaiting(queuedScans(eventId, day).length)
      }
      setAnswer(sent)
      if (sent.ok) setCounts(sent.counts)
      followServerDay(sent.today, sent)
      await revalidator.revalidate()
    },
    [day, eventId, followServerDay, post, revalidator],
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
    void checkIn({ code })
  }

  const onDelegateSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const delegateId = String(form.get('delegateId'))
    if (form.get('intent') === 'undo') {
      void post({ intent: 'undo', delegateId })
        .then(async (sent) => {
          setAnswer(sent)
          if (sent.ok) setCounts(sent.counts)
          await revalidator.revalidate()
        })
        .catch(() => setAnswer({ ok: false, status: 503, message: 'No connection: the check-in was not undone. Try again when the connection returns.' }))
    } else void checkIn({ delegateId })
  }

  return (
    <>
      <p className="check-in-counts" aria-live="polite">
        <strong>{counts.checkedIn}</strong> checked in of <strong>{counts.expected}</strong> expected at the venue
      </p>
      <div aria-live="polite">
        {answer &&
          (answer.ok ? (
            <div className="admin-notice check-in-answer" role="status">
              <strong>{answer.message}</strong>
              <DelegateFacts delegate={answer.delegate} />
            </div>
          ) : (
            <p className="admin-error" role="alert">
              {answer.message}
            </p>
          ))}
      </div>
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
          <input ref={codeInput} id="check-in-code" name="code" autoComplete="off" autoCapitalize="characters" spellCheck={false} enterKeyHint="go" />
        </FieldRow>
        <SubmitButton>Check in</SubmitButton>
      </Form>
      {hydrated && <CameraScanner onCode={(code) => void checkIn({ code })} />}
      {children}
      <ul className="check-in-list">
        {delegates.map((delegate) => (
          <li key={delegate.delegateId}>
            <strong>{delegate.name}</strong>
            <DelegateFacts delegate={delegate} />
            <Form method="post" onSubmit={hydrated ? onDelegateSubmit : undefined}>
              <input type="hidden" name="day" value={day} />
              <input type="hidden" name="delegateId" value={delegate.delegateId} />
              {delegate.checkedIn ? (
                <>
                  <span>{checkedInText(delegate)}</span>
                  <input type="hidden" name="intent" value="undo" />
                  <SubmitButton secondary aria-label={`Undo the check-in of ${delegate.name}`}>
                    Undo
                  </SubmitButton>
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
      {delegates.length === 0 && <p>No delegate matches.</p>}
    </>
  )
}
