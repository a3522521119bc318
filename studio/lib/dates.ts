import { TIME_ZONE } from '@events/pricing'

/**
 * Options of every datetime field: editors see and enter times in Africa/Johannesburg, whatever their
 * browser's time zone, so 07:30 stays 07:30.
 */
export const EVENT_DATETIME_OPTIONS = { displayTimeZone: TIME_ZONE, allowTimeZoneSwitch: false }

const calendarDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
})

/** The calendar date (YYYY-MM-DD) of an instant in the events' time zone (Africa/Johannesburg). */
export function dateInEventTimeZone(isoDateTime: string): string {
  return calendarDate.format(new Date(isoDateTime))
}

const timeOfDay = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })

/** The time of day ("HH:mm", 24-hour) of an instant in the events' time zone (Africa/Johannesburg). */
export function timeInEventTimeZone(isoDateTime: string): string {
  return timeOfDay.format(new Date(isoDateTime))
}

/** Whether an ISO datetime is strictly later than another. */
export function isAfter(later: string, earlier: string): boolean {
  return new Date(later).getTime() > new Date(earlier).getTime()
}
