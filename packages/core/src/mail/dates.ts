import { TIME_ZONE } from '@events/pricing'

const dayParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: TIME_ZONE,
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
})
// Assembled from parts: ICU versions differ on the comma after the weekday.
const dayFormat = {
  format(date: Date): string {
    const parts = Object.fromEntries(dayParts.formatToParts(date).map((part) => [part.type, part.value]))
    return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year}`
  },
}
const dateFormat = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, day: 'numeric', month: 'long', year: 'numeric' })
const timeFormat = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', hour12: false })

/** An event's dates as people read them in South Africa, e.g. "Thursday 3 July 2025, 08:30 – Friday 4 July 2025, 16:00 (SAST)". */
export function formatEventDates(startIso: string, endIso: string): string {
  const start = new Date(startIso)
  const end = new Date(endIso)
  const startDay = dayFormat.format(start)
  const endDay = dayFormat.format(end)
  if (startDay === endDay) return `${startDay}, ${timeFormat.format(start)} – ${timeFormat.format(end)} (SAST)`
  return `${startDay}, ${timeFormat.format(start)} – ${endDay}, ${timeFormat.format(end)} (SAST)`
}

/** A date as people read it in South Africa, e.g. "3 July 2025". */
export function formatDate(date: Date): string {
  return dateFormat.format(date)
}

function dayMonthYear(date: Date): { day: string; month: string; year: string } {
  const parts = Object.fromEntries(dateFormat.formatToParts(date).map((part) => [part.type, part.value]))
  return { day: parts.day ?? '', month: parts.month ?? '', year: parts.year ?? '' }
}

/** The days an event runs, shortest first: "3 July 2025", "23–24 July 2025", "31 July – 1 August 2025". */
export function formatEventDays(startIso: string, endIso: string): string {
  const start = dayMonthYear(new Date(startIso))
  const end = dayMonthYear(new Date(endIso))
  if (start.year !== end.year) return `${start.day} ${start.month} ${start.year} – ${end.day} ${end.month} ${end.year}`
  if (start.month !== end.month) return `${start.day} ${start.month} – ${end.day} ${end.month} ${end.year}`
  if (start.day !== end.day) return `${start.day}–${end.day} ${end.month} ${end.year}`
  return `${end.day} ${end.month} ${end.year}`
}
