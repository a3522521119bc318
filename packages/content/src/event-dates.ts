// The events' time zone, as @events/pricing's TIME_ZONE (event-dates.test.ts checks they agree): imported from there it
// would bring that package's module into every public page's first load, which has no room for it.
export const EVENT_TIME_ZONE = 'Africa/Johannesburg'

// The one way dates are written on the site, in e-mails, PDFs and the Studio: "3 July 2025", "23–24 July 2025".
const dateFormat = new Intl.DateTimeFormat('en-GB', { timeZone: EVENT_TIME_ZONE, day: 'numeric', month: 'long', year: 'numeric' })

function dayMonthYear(date: Date): { day: string; month: string; year: string } {
  const byType = Object.fromEntries(dateFormat.formatToParts(date).map((part) => [part.type, part.value]))
  return { day: byType.day ?? '', month: byType.month ?? '', year: byType.year ?? '' }
}

/** A day as people read it in South Africa, in Africa/Johannesburg: "3 July 2025". */
export function formatDay(date: Date): string {
  const { day, month, year } = dayMonthYear(date)
  return `${day} ${month} ${year}`
}

/**
 * The days an event runs, in Africa/Johannesburg, made from its start and end so they cannot disagree, shortest first:
 * "6 June 2025", "3–4 July 2025", "30 June – 1 July 2025", "31 December 2025 – 2 January 2026".
 */
export function eventDateLabel(start: string, end: string): string {
  const first = dayMonthYear(new Date(start))
  const last = dayMonthYear(new Date(end))
  if (first.year !== last.year) return `${first.day} ${first.month} ${first.year} – ${last.day} ${last.month} ${last.year}`
  if (first.month !== last.month) return `${first.day} ${first.month} – ${last.day} ${last.month} ${last.year}`
  if (first.day !== last.day) return `${first.day}–${last.day} ${last.month} ${last.year}`
  return `${last.day} ${last.month} ${last.year}`
}
