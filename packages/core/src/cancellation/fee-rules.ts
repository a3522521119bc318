import { TIME_ZONE } from '@events/pricing'
import { createRequire } from 'node:module'
import type Holidays from 'date-holidays'
import { DateTime } from 'luxon'

/** The terms' fee for a cancellation, in whole percent of what is cancelled. */
type CancellationFeePercent = 0 | 50 | 100

/** The fee the terms propose for a cancellation on a given day, and how it was worked out. */
export interface ProposedCancellationFee {
  feePercent: CancellationFeePercent
  /** The cancellation day, YYYY-MM-DD in Johannesburg. */
  cancelledOn: string
  /** The event's first day, YYYY-MM-DD in Johannesburg. */
  eventDay: string
  /**
   * Working days before the event, counted back from it as the terms count: the last working day before the event
   * is 1 working day before it. 0 once the event day has come.
   */
  workingDaysBefore: number
  /** Calendar days from the cancellation day to the event day. */
  calendarDaysBefore: number
  /** The first day the 50% fee applies: the 14th working day before the event. */
  halfFeeFrom: string
  /** The first day the 100% fee applies: 7 calendar days before the event. */
  fullFeeFrom: string
  /** Public holidays on weekdays between the cancellation day and the event day, not counted as working days. */
  holidaysSkipped: Array<{ date: string; name: string }>
}

export const HALF_FEE_WORKING_DAYS = 14
// The terms say "7 days or less, a 100% fee" without "working", unlike the 14 working days of the 50% fee:
// these are calendar days.
export const FULL_FEE_CALENDAR_DAYS = 7

// Public holidays only (not observances), with the Public Holidays Act's rule that a holiday falling on a Sunday is
// also kept on the Monday after; date-holidays lists that Monday as its own "Public Holiday".
// Loaded at the first use, not with the site: the package holds every country's rules (about 8 MB of V8's heap) and
// only the back office's cancellations count working days.
let southAfrica: Holidays | undefined
function southAfricanHolidays(): Holidays {
  if (!southAfrica) {
    const HolidaysOfCountry = createRequire(import.meta.url)('date-holidays') as typeof Holidays
    southAfrica = new HolidaysOfCountry('ZA', { types: ['public'] })
  }
  return southAfrica
}

/** The name of the South African public holiday on a day (YYYY-MM-DD), if it is one. */
export function publicHolidayOn(day: string): string | undefined {
  const holidays = southAfricanHolidays().isHoliday(DateTime.fromISO(day, { zone: TIME_ZONE }).set({ hour: 12 }).toJSDate())
  return holidays ? holidays[0]?.name : undefined
}

/** True on Monday to Friday unless that day is a South African public holiday. */
export function isWorkingDay(day: string): boolean {
  const weekday = DateTime.fromISO(day, { zone: TIME_ZONE }).weekday
  return weekday <= 5 && publicHolidayOn(day) === undefined
}

/** The Johannesburg calendar day of an instant, YYYY-MM-DD. */
export function johannesburgDay(instant: Date | string): string {
  const dateTime = typeof instant === 'string' ? DateTime.fromISO(instant, { zone: TIME_ZONE }) : DateTime.fromJSDate(instant, { zone: TIME_ZONE })
  if (!dateTime.isValid) throw new RangeError(`Expected a date, got ${String(instant)}`)
  return dateTime.setZone(TIME_ZONE).toISODate()!
}

function addDays(day: string, days: number): string {
  return DateTime.fromISO(day, { zone: TIME_ZONE }).plus({ days }).toISODate()!
}

/** The day that is the given number of working days before another: the 1st working day before Monday is the Friday. */
function workingDaysEarlier(day: string, workingDays: number): string {
  let current = day
  let counted = 0
  while (counted < workingDays) {
    current = addDays(current, -1)
    if (isWorkingDay(current)) counted++
  }
  return current
}

/**
 * The fee the terms propose for cancelling on `cancelledAt` a place at an event starting `eventStart`, counted in
 * Johannesburg days: free before the 14th working day before the event (weekends and public holidays are not working
 * days), 50% from that day, 100% from 7 calendar days before the event and once it has begun.
 */
export function proposedCancellationFee(eventStart: string, cancelledAt: Date): ProposedCancellationFee {
  const eventDay = johannesburgDay(eventStart)
  const cancelledOn = johannesburgDay(cancelledAt)
  const halfFeeFrom = workingDaysEarlier(eventDay, HALF_FEE_WORKING_DAYS)
  const fullFeeFrom = addDays(eventDay, -FULL_FEE_CALENDAR_DAYS)
  let workingDaysBetween = 0
  const holidaysSkipped: Array<{ date: string; name: string }> = []
  for (let day = addDays(cancelledOn, 1); day < eventDay; day = addDays(day, 1)) {
    if (isWorkingDay(day)) workingDaysBetween++
    const holiday = publicHolidayOn(day)
    if (holiday && DateTime.fromISO(day, { zone: TIME_ZONE }).weekday <= 5) holidaysSkipped.push({ date: day, name: holiday })
  }
  const calendarDaysBefore = Math.round(DateTime.fromISO(eventDay, { zone: TIME_ZONE }).diff(DateTime.fromISO(cancelledOn, { zone: TIME_ZONE }), 'days').days)
  const feePercent: CancellationFeePercent = cancelledOn >= fullFeeFrom ? 100 : cancelledOn >= halfFeeFrom ? 50 : 0
  const workingDaysBefore = cancelledOn < eventDay ? workingDaysBetween + 1 : 0
  return { feePercent, cancelledOn, eventDay, workingDaysBefore, calendarDaysBefore, halfFeeFrom, fullFeeFrom, holidaysSkipped }
}
