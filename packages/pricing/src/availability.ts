import type { OptionKey } from './options.ts'

/** The time zone in which the company's dates (early-bird deadlines, event days) are meant. */
export const TIME_ZONE = 'Africa/Johannesburg'

// South African Standard Time has been UTC+02:00 all year round since 1944 (no daylight saving), so a fixed
// offset names Johannesburg wall-clock time exactly and every calendar day there lasts 24 hours.
// availability.test.ts checks this against the time-zone database.
const JOHANNESBURG_OFFSET = '+02:00'
const DAY_MS = 24 * 60 * 60 * 1000

/** When an event starts and, if it differs, when its registration closes (ISO datetimes). */
export interface EventSchedule {
  start: string
  registrationClosesAt?: string | null
}

/** An option with its early-bird deadline, a YYYY-MM-DD date in Africa/Johannesburg. */
export interface OptionWindow {
  key: OptionKey
  earlyBirdUntil?: string | null
}

/** Whether an option can be chosen now, and if not, why. */
export type Availability = { available: true } | { available: false; reason: 'registration-closed' | 'early-bird-ended' }

/** Whether registration is still open: it closes at registrationClosesAt when set, otherwise when the event starts. */
export function isRegistrationOpen(event: EventSchedule, now: Date): boolean {
  const closesAt = parseInstant(event.registrationClosesAt ?? event.start)
  return instantOf(now) < closesAt
}

/** Whether an option can be chosen now; early-bird stays available to the end of its date in Johannesburg. */
export function optionAvailability(option: OptionWindow, event: EventSchedule, now: Date): Availability {
  if (!isRegistrationOpen(event, now)) return { available: false, reason: 'registration-closed' }
  if (option.key === 'early-bird' && option.earlyBirdUntil != null) {
    const earlyBirdEnds = startOfJohannesburgDay(option.earlyBirdUntil) + DAY_MS
    if (instantOf(now) >= earlyBirdEnds) return { available: false, reason: 'early-bird-ended' }
  }
  return { available: true }
}

/**
 * The instant an option stops being offered at its price: the end of its early-bird date in Johannesburg, or when
 * registration closes, whichever comes first (optionAvailability's rule, as a deadline: a quote's validity).
 */
export function optionOfferedUntil(option: OptionWindow, event: EventSchedule): Date {
  const closesAt = parseInstant(event.registrationClosesAt ?? event.start)
  if (option.key === 'early-bird' && option.earlyBirdUntil != null) {
    return new Date(Math.min(closesAt, startOfJohannesburgDay(option.earlyBirdUntil) + DAY_MS))
  }
  return new Date(closesAt)
}

/** An event's schedule with the deadlines of its options, as far as availability depends on them. */
export interface EventWindows extends EventSchedule {
  options?: readonly { earlyBirdUntil?: string | null }[] | null
}

/**
 * The first instant after `now` at which any event's availability changes: an early-bird window ends, registration
 * closes, or an event starts (and leaves the upcoming lists). Undefined when nothing changes any more. Whatever was
 * decided from availability before that instant stays true until it.
 */
export function nextAvailabilityChange(events: readonly EventWindows[], now: Date): Date | undefined {
  const current = instantOf(now)
  let next = Number.POSITIVE_INFINITY
  const consider = (instant: number) => {
    if (instant > current && instant < next) next = instant
  }
  for (const event of events) {
    consider(parseInstant(event.start))
    if (event.registrationClosesAt) consider(parseInstant(event.registrationClosesAt))
    for (const option of event.options ?? []) {
      if (option.earlyBirdUntil) consider(startOfJohannesburgDay(option.earlyBirdUntil) + DAY_MS)
    }
  }
  return Number.isFinite(next) ? new Date(next) : undefined
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(Z|[+-]\d{2}:\d{2})?$/

// A datetime with an offset (Sanity stores UTC with "Z") is that instant. Without an offset, or as a bare
// date, it is read as Johannesburg wall-clock time, never as the server's own zone.
function parseInstant(value: string): number {
  const match = ISO_DATE_TIME.exec(value)
  if (!match) throw new RangeError(`Expected an ISO datetime, got ${JSON.stringify(value)}`)
  const [, date = '', time = 'T00:00', offset = JOHANNESBURG_OFFSET] = match
  assertCalendarDate(date)
  const instant = Date.parse(`${date}${time}${offset}`)
  if (Number.isNaN(instant)) throw new RangeError(`Expected an ISO datetime, got ${JSON.stringify(value)}`)
  return instant
}

function startOfJohannesburgDay(date: string): number {
  assertCalendarDate(date)
  return Date.parse(`${date}T00:00:00.000${JOHANNESBURG_OFFSET}`)
}

// Date.parse rolls impossible days over (2025-02-31 becomes 3 March), so the date must survive a round trip.
function assertCalendarDate(date: string): void {
  const midday = ISO_DATE.test(date) ? new Date(`${date}T12:00:00Z`) : undefined
  const isRealDay = midday !== undefined && !Number.isNaN(midday.getTime()) && midday.toISOString().slice(0, 10) === date
  if (!isRealDay) throw new RangeError(`Expected a YYYY-MM-DD calendar date, got ${JSON.stringify(date)}`)
}

function instantOf(now: Date): number {
  const instant = now.getTime()
  if (Number.isNaN(instant)) throw new RangeError('The current time is an invalid Date')
  return instant
}
