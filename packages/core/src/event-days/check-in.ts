import { TIME_ZONE } from '@events/pricing'
import { DateTime } from 'luxon'
import type { Kysely } from 'kysely'
import * as z from 'zod/mini'
import { eventDays } from '../backoffice/attendance-register-pdf.ts'
import { roleAllows, staffCommand, type CommandOutcome, type StaffActor } from '../backoffice/command.ts'
import { businessClock, wallClock, type BackOfficeContext } from '../backoffice/context.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
import { foldForSearch } from '../backoffice/search-fold.ts'
import type { Database } from '../db/database.ts'
import { newId } from '../ids.ts'
import { registrationsOfEvent } from '../registration/event-ids.ts'
import { ownFields } from '../submissions/fields.ts'
import { singleLine } from '../validation/fields.ts'
import { formatPassCode, normalisePassCode } from './pass-codes.ts'

/** Who checked a delegate in on a day, and when. */
interface CheckInRecord {
  at: string
  byName: string
}

/** A delegate as the door sees them. */
export interface DoorDelegate {
  delegateId: string
  name: string
  company: string
  reference: string
  /** The pass code as people read it. */
  passCode: string
  online: boolean
  /** True while the registration is not paid in full: the door warns, and lets them in as staff decide. */
  unpaid: boolean
  /** The day's check-in in force, if any. */
  checkedIn?: CheckInRecord | undefined
  /** When staff recorded that the delegate left before the day ended, if they did. */
  left?: CheckInRecord | undefined
  /** When the delegate first joined online that day through their personal link, if they did. */
  joinedOnlineAt?: string | undefined
}

/** How many delegates were checked in on a day, of those expected at the venue. */
export interface CheckInCounts {
  checkedIn: number
  expected: number
}

/** The check-in screen of an event day: the event, its days, the counts and the delegates matching a search. */
export interface CheckInScreen {
  event: { id: string; title: string; start: string; end: string }
  /** The event's days (YYYY-MM-DD, Johannesburg), first to last. */
  days: string[]
  day: string
  /** Today by the business clock (YYYY-MM-DD, Johannesburg): the only day the door records. */
  today: string
  counts: CheckInCounts
  /**
   * One page of those attending when the search is empty, or of those whose name, company, reference or pass code
   * match: the first load of the desk stays small however large the event.
   */
  delegates: DoorDelegate[]
  /** How many delegates match the search (all pages), the page shown (from 1) and the number of pages. */
  matching: number
  page: number
  pages: number
}

/** How many delegates one page of the check-in screen lists. */
export const CHECK_IN_PAGE_SIZE = 25

/**
 * A pass as the door's offline list keeps it on a staff device: enough to judge a scan while the connection is down
 * (whose pass, paid or not, cancelled, already in today) and nothing more.
 */
export interface DoorListEntry {
  /** The pass code as stored (upper case, no dash), to compare with a normalised scan. */
  code: string
  name: string
  unpaid: boolean
  cancelled: boolean
  checkedIn: boolean
}

/** A check-in or its undoing as the command answers it: the delegate as the door now sees them. */
export interface CheckInOutcome {
  delegate: DoorDelegate
  counts: CheckInCounts
}

/** The days of an event, as YYYY-MM-DD in Johannesburg. */
export function checkInDays(start: string, end: string): string[] {
  return eventDays(start, end).map((day) => day.toISODate()!)
}

/** The event as its newest registration has it; undefined when it has no registration. */
export async function registeredEvent(queries: Kysely<Database>, eventId: string): Promise<CheckInScreen['event'] | undefined> {
  const row = await queries
    .selectFrom('registrations')
    .select(['event_title', 'event_start', 'event_end'])
    .where(registrationsOfEvent(eventId))
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row && { id: eventId, title: row.event_title, start: row.event_start, end: row.event_end }
}

/** The day to show first: today when the event runs today by the business clock, else its first day. */
function defaultDay(days: readonly string[], today: string): string {
  return days.includes(today) ? today : days[0]!
}

function attendingDelegates(queries: Kysely<Database>, eventId: string, day: string) {
  return queries
    .selectFrom('registration_delegates')
    .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
    .innerJoin('delegate_passes', 'delegate_passes.delegate_id', 'registration_delegates.id')
    .leftJoin('check_ins', (join) =>
      join.onRef('check_ins.delegate_id', '=', 'registration_delegates.id').on('check_ins.event_day', '=', day).on('check_ins.undone_at', 'is', null),
    )
    .leftJoin('online_attendance', (join) =>
      join.onRef('online_attendance.delegate_id', '=', 'registration_delegates.id').on('online_attendance.event_day', '=', day),
    )
    .select([
      'online_attendance.joined_at',
      'registration_delegates.id as delegate_id',
      'registration_delegates.name',
      'registration_delegates.cancellation_id',
      'registrations.company_name',
      'registrations.reference',
      'registrations.status',
      'registration_delegates.attendance',
      'delegate_passes.code',
      'check_ins.checked_in_at',
      'check_ins.checked_in_by_name',
      'check_ins.left_at',
      'check_ins.left_by_name',
    ])
    .where(registrationsOfEvent(eventId))
}

type DoorRow = Awaited<ReturnType<ReturnType<typeof attendingDelegates>['execute']>>[number]

function doorDelegateOf(row: DoorRow): DoorDelegate {
  return {
    delegateId: row.delegate_id,
    name: row.name,
    company: row.company_name,
    reference: row.reference,
    passCode: formatPassCode(row.code),
    online: row.attendance === 'online',
    unpaid: row.status !== 'paid',
    checkedIn: row.checked_in_at !== null && row.checked_in_by_name !== null ? { at: row.checked_in_at, byName: row.checked_in_by_name } : undefined,
    left: row.left_at !== null && row.left_by_name !== null ? { at: row.left_at, byName: row.left_by_name } : undefined,
    joinedOnlineAt: row.joined_at ?? undefined,
  }
}

/** Checked in on the day, of the delegates still attending at the venue (those online are not expected at the door). */
export async function checkInCounts(queries: Kysely<Database>, eventId: string, day: string): Promise<CheckInCounts> {
  const row = await queries
    .selectFrom('registration_delegates')
    .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
    .leftJoin('check_ins', (join) =>
      join.onRef('check_ins.delegate_id', '=', 'registration_delegates.id').on('check_ins.event_day', '=', day).on('check_ins.undone_at', 'is', null),
    )
    .select((eb) => [
      eb.fn.count<number | string>('check_ins.id').as('checked_in'),
      eb.fn.count<number | string>('registration_delegates.id').filterWhere('registration_delegates.attendance', '=', 'venue').as('expected'),
    ])
    .where(registrationsOfEvent(eventId))
    .where('registration_delegates.cancellation_id', 'is', null)
    .executeTakeFirstOrThrow()
  return { checkedIn: Number(row.checked_in), expected: Number(row.expected) }
}

/**
 * The check-in screen of an event on one of its days (the day it runs today, or its first, when none is asked for);
 * undefined when the event has no registration or the day is not one of its days.
 */
export async function checkInScreen(
  context: BackOfficeContext,
  eventId: string,
  options: { day?: string | undefined; search?: string | undefined; page?: number | undefined } = {},
): Promise<CheckInScreen | undefined> {
  const queries = context.db.kysely
  const event = await registeredEvent(queries, eventId)
  if (!event) return undefined
  const days = checkInDays(event.start, event.end)
  const today = doorToday(context)
  const day = options.day || defaultDay(days, today)
  if (!days.includes(day)) return undefined
  const rows = await attendingDelegates(queries, eventId, day)
    .where('registration_delegates.cancellation_id', 'is', null)
    .orderBy('registration_delegates.name')
    .execute()
  const words = foldForSearch(singleLine(options.search ?? ''))
    .split(' ')
    .filter((word) => word !== '')
  const code = normalisePassCode(options.search ?? '')
  const matches = (row: DoorRow) => {
    if (code && row.code === code) return true
    const text = foldForSearch(`${row.name} ${row.company_name} ${row.reference}`)
    return words.every((word) => text.includes(word))
  }
  const matched = rows.filter(matches)
  const pages = Math.max(1, Math.ceil(matched.length / CHECK_IN_PAGE_SIZE))
  const page = Math.min(pages, Math.max(1, Math.trunc(options.page ?? 1) || 1))
  return {
    event,
    days,
    day,
    today,
    counts: await checkInCounts(queries, eventId, day),
    delegates: matched.slice((page - 1) * CHECK_IN_PAGE_SIZE, page * CHECK_IN_PAGE_SIZE).map(doorDelegateOf),
    matching: matched.length,
    page,
    pages,
  }
}

/** Every pass of the event with what the door needs to judge a scan offline on a day; cancelled passes included. */
export async function doorList(queries: Kysely<Database>, eventId: string, day: string): Promise<DoorListEntry[]> {
  const rows = await attendingDelegates(queries, eventId, day).orderBy('delegate_passes.code').execute()
  return rows.map((row) => ({
    code: row.code,
    name: row.name,
    unpaid: row.status !== 'paid',
    cancelled: row.cancellation_id !== null,
    checkedIn: row.checked_in_at !== null,
  }))
}

const doorFields = {
  eventId: z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'))),
  day: z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'))),
  /** Why a manager records (or undoes) a past day afterwards; unused on the day itself. */
  reason: z.pipe(z.transform(singleLine), z.string()),
}

/** Today as YYYY-MM-DD in Johannesburg, by the business clock: the day the door records. */
export function doorToday(context: BackOfficeContext): string {
  return DateTime.fromJSDate(businessClock(context), { zone: TIME_ZONE }).toISODate()!
}

/**
 * A check-in: the pass code scanned or typed (`code`), or the delegate chosen from a search (`delegateId`); with
 * `scannedAt` when a device queued the scan while offline, so the record keeps the moment the delegate was at the door.
 */
const checkInSchema = z.pipe(
  ownFields,
  z.object({
    ...doorFields,
    code: z.pipe(z.transform(singleLine), z.string()),
    delegateId: z.pipe(z.transform(singleLine), z.string()),
    scannedAt: z.pipe(z.transform(singleLine), z.string()),
    /** The id the device gave this scan; the same id again is a retry of it, not a second scan. */
    scanId: z.pipe(z.transform(singleLine), z.string().check(z.maxLength(64, 'too-long'))),
  }),
)

const undoCheckInSchema = z.pipe(
  ownFields,
  z.object({ ...doorFields, delegateId: z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'))) }),
)

// A queued scan is trusted for the moment it was made for this long; older (or future) moments are the arrival's.
const QUEUED_SCAN_WINDOW_MS = 12 * 60 * 60_000

function checkInMoment(scannedAt: string, now: Date): Date {
  const scanned = scannedAt === '' ? Number.NaN : Date.parse(scannedAt)
  return Number.isFinite(scanned) && scanned <= now.getTime() && scanned >= now.getTime() - QUEUED_SCAN_WINDOW_MS ? new Date(scanned) : now
}

/**
 * The server, not the screen, decides the day: a check-in (or its undoing) is for today by the business clock in
 * Johannesburg. A screen left open overnight that posts yesterday is refused with today's day, so it can follow; a
 * later day is never recorded early; before the first day and after the last nothing is recorded at the door. Only a
 * manager may record a past day of the event afterwards, and only with a reason, which the audit row keeps.
 * Answers the reason to audit when the day is a past one, undefined for today.
 */
async function requireDoorDay(
  queries: Kysely<Database>,
  input: { eventId: string; day: string; reason: string },
  today: string,
  actor: StaffActor,
): Promise<string | undefined> {
  const event = await registeredEvent(queries, input.eventId)
  if (!event) throw new BackOfficeError('not-found', { missing: 'event-registrations' })
  const days = checkInDays(event.start, event.end)
  const details = { day: input.day, today, title: event.title, firstDay: days[0]!, lastDay: days.at(-1)! }
  if (!days.includes(input.day)) throw new BackOfficeError('not-an-event-day', details, 'day')
  if (input.day === today) return undefined
  if (today < days[0]!) throw new BackOfficeError('event-not-started', details, 'day')
  if (input.day > today) throw new BackOfficeError('not-today', details, 'day')
  if (!roleAllows(actor.role, 'manager')) {
    if (today > days.at(-1)!) throw new BackOfficeError('event-over', details, 'day')
    throw new BackOfficeError('not-today', details, 'day')
  }
  if (input.reason === '') throw new BackOfficeError('past-day-reason-required', details, 'reason')
  return input.reason
}

/** The delegate of the event a pass code or delegate id names, as the door sees them on the day; refused otherwise. */
async function doorDelegate(queries: Kysely<Database>, input: { eventId: string; day: string; code: string; delegateId: string }): Promise<DoorDelegate> {
  let query = attendingDelegates(queries, input.eventId, input.day)
  if (input.delegateId !== '') query = query.where('registration_delegates.id', '=', input.delegateId)
  else {
    const code = normalisePassCode(input.code)
    if (!code) throw new BackOfficeError('unknown-pass', { code: input.code }, 'code')
    query = query.where('delegate_passes.code', '=', code)
  }
  const row = await query.executeTakeFirst()
  if (!row) {
    const elsewhere = input.delegateId === '' ? await passOfAnotherEvent(queries, normalisePassCode(input.code)!) : undefined
    if (elsewhere)
      throw new BackOfficeError(
        'pass-of-another-event',
        {
          name: elsewhere.name,
          title: elsewhere.title,
        },
        'code',
      )
    throw new BackOfficeError('unknown-pass', { code: input.code }, 'code')
  }
  if (row.cancellation_id !== null) throw new BackOfficeError('pass-cancelled', { name: row.name })
  return doorDelegateOf(row)
}

/** The scan id of the delegate's check-in in force on the day, if it had one. */
async function checkInScanId(queries: Kysely<Database>, delegateId: string, day: string): Promise<string | null | undefined> {
  const row = await queries
    .selectFrom('check_ins')
    .select('scan_id')
    .where('delegate_id', '=', delegateId)
    .where('event_day', '=', day)
    .where('undone_at', 'is', null)
    .executeTakeFirst()
  return row?.scan_id
}

/** Whose pass a code is, and for which event, when it is a pass of another event than the door's. */
async function passOfAnotherEvent(queries: Kysely<Database>, code: string): Promise<{ name: string; title: string } | undefined> {
  const row = await queries
    .selectFrom('delegate_passes')
    .innerJoin('registration_delegates', 'registration_delegates.id', 'delegate_passes.delegate_id')
    .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
    .select(['registration_delegates.name', 'registrations.event_title'])
    .where('delegate_passes.code', '=', code)
    .executeTakeFirst()
  return row && { name: row.name, title: row.event_title }
}

function alreadyCheckedIn(delegate: DoorDelegate, record: CheckInRecord): BackOfficeError {
  return new BackOfficeError('already-checked-in', {
    name: delegate.name,
    at: record.at,
    byName: record.byName,
  })
}

/**
 * Checks a delegate in for an event day, by pass code or from a search; refuses a second check-in the same day with
 * who checked them in and when. Two devices scanning the same pass at once record it once (the unique index).
 */
export const checkInDelegate = staffCommand(
  checkInSchema,
  async (context, input, actor: StaffActor) => {
    const now = wallClock(context)
    const today = doorToday(context)
    return async (transaction): Promise<CommandOutcome<CheckInOutcome>> => {
      const pastDayReason = await requireDoorDay(transaction, input, today, actor)
      // A past day recorded afterwards is not a scan at the door: no queued moment, the record says when it was made.
      const at = pastDayReason === undefined ? checkInMoment(input.scannedAt, now) : now
      const delegate = await doorDelegate(transaction, input)
      if (delegate.checkedIn) {
        // A retry of the scan that made this check-in (its answer was lost): the same answer again, nothing recorded.
        if (input.scanId !== '' && (await checkInScanId(transaction, delegate.delegateId, input.day)) === input.scanId)
          return { result: { delegate, counts: await checkInCounts(transaction, input.eventId, input.day) }, audit: [] }
        throw alreadyCheckedIn(delegate, delegate.checkedIn)
      }
      await transaction
        .insertInto('check_ins')
        .values({
          id: newId(),
          delegate_id: delegate.delegateId,
          event_day: input.day,
          checked_in_at: at.toISOString(),
          checked_in_by_id: actor.id,
          checked_in_by_name: actor.name,
          undone_at: null,
          undone_by_name: null,
          scan_id: input.scanId === '' ? null : input.scanId,
        })
        .execute()
      const checkedIn = { ...delegate, checkedIn: { at: at.toISOString(), byName: actor.name } }
      return {
        result: { delegate: checkedIn, counts: await checkInCounts(transaction, input.eventId, input.day) },
        audit: [
          {
            action: 'delegate-checked-in',
            subjectType: 'registration',
            subjectId: delegate.reference,
            after: { delegate: delegate.name, day: input.day, at: at.toISOString(), ...(pastDayReason === undefined ? {} : { reason: pastDayReason }) },
          },
        ],
      }
    }
  },
  {
    // The same pass scanned on two devices at once: the second insert breaks the unique index; say who was first.
    explainFailure: async (_error, input, context) => {
      const row = await doorDelegate(context.db.kysely, input).catch(() => undefined)
      return row?.checkedIn ? alreadyCheckedIn(row, row.checkedIn) : undefined
    },
  },
)

/** Undoes a delegate's check-in on a day (a wrong person scanned); the record keeps who undid it. */
export const undoCheckIn = staffCommand(undoCheckInSchema, async (context, input, actor: StaffActor) => {
  const at = wallClock(context)
  const today = doorToday(context)
  return async (transaction): Promise<CommandOutcome<CheckInOutcome>> => {
    const pastDayReason = await requireDoorDay(transaction, input, today, actor)
    const delegate = await doorDelegate(transaction, { ...input, code: '' })
    if (!delegate.checkedIn) throw new BackOfficeError('not-checked-in', { name: delegate.name })
    await transaction
      .updateTable('check_ins')
      .set({ undone_at: at.toISOString(), undone_by_name: actor.name })
      .where('delegate_id', '=', delegate.delegateId)
      .where('event_day', '=', input.day)
      .where('undone_at', 'is', null)
      .execute()
    return {
      result: { delegate: { ...delegate, checkedIn: undefined }, counts: await checkInCounts(transaction, input.eventId, input.day) },
      audit: [
        {
          action: 'delegate-check-in-undone',
          subjectType: 'registration',
          subjectId: delegate.reference,
          before: { delegate: delegate.name, day: input.day, at: delegate.checkedIn.at, by: delegate.checkedIn.byName },
          ...(pastDayReason === undefined ? {} : { after: { reason: pastDayReason } }),
        },
      ],
    }
  }
})

/**
 * Records that a checked-in delegate left before the day ended (at tea, say): the moment is kept on the day's check-in
 * and audited; their certificate then counts only the sessions that ended by then. Refused for a delegate not checked
 * in that day, or already recorded as leaving.
 */
export const recordDeparture = staffCommand(undoCheckInSchema, async (context, input, actor: StaffActor) => {
  // The moment decides which sessions count, so it is the business clock's (the same as the wall clock in production).
  const at = businessClock(context)
  const today = doorToday(context)
  return async (transaction): Promise<CommandOutcome<CheckInOutcome>> => {
    const pastDayReason = await requireDoorDay(transaction, input, today, actor)
    const delegate = await doorDelegate(transaction, { ...input, code: '' })
    if (!delegate.checkedIn) throw new BackOfficeError('left-without-check-in', { name: delegate.name })
    if (delegate.left) throw new BackOfficeError('already-left', { name: delegate.name, at: delegate.left.at, byName: delegate.left.byName })
    await transaction
      .updateTable('check_ins')
      .set({ left_at: at.toISOString(), left_by_name: actor.name })
      .where('delegate_id', '=', delegate.delegateId)
      .where('event_day', '=', input.day)
      .where('undone_at', 'is', null)
      .execute()
    return {
      result: {
        delegate: { ...delegate, left: { at: at.toISOString(), byName: actor.name } },
        counts: await checkInCounts(transaction, input.eventId, input.day),
      },
      audit: [
        {
          action: 'delegate-left-early',
          subjectType: 'registration',
          subjectId: delegate.reference,
          after: { delegate: delegate.name, day: input.day, at: at.toISOString(), ...(pastDayReason === undefined ? {} : { reason: pastDayReason }) },
        },
      ],
    }
  }
})
