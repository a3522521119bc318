// The events' time zone, as @events/pricing's TIME_ZONE (event-dates.test.ts checks they agree): imported from there it
// would bring that package's module into every public page's first load, which has no room for it.
export const EVENT_TIME_ZONE = 'Africa/Johannesburg'

const parts = new Intl.DateTimeFormat('en-GB', { timeZone: EVENT_TIME_ZONE, day: '2-digit', month: 'long', year: 'numeric' })

function dayMonthYear(isoDateTime: string): { day: string; month: string; year: string } {
  const byType = Object.fromEntries(parts.formatToParts(new Date(isoDateTime)).map((part) => [part.type, part.value]))
  return { day: byType.day ?? '', month: byType.month ?? '', year: byType.year ?? '' }
}

/**
 * The dates of an event as its card shows them, in Africa/Johannesburg, made from its start and end so they cannot
 * disagree: "06 June 2025", "03 - 04 July 2025", "30 June - 01 July 2025", "31 December 2025 - 02 January 2026".
 */
export function eventDateLabel(start: string, end: string): string {
  const first = dayMonthYear(start)
  const last = dayMonthYear(end)
  if (first.year !== last.year) return `${first.day} ${first.month} ${first.year} - ${last.day} ${last.month} ${last.year}`
  if (first.month !== last.month) return `${first.day} ${first.month} - ${last.day} ${last.month} ${last.year}`
  if (first.day !== last.day) return `${first.day} - ${last.day} ${last.month} ${last.year}`
  return `${last.day} ${last.month} ${last.year}`
}
