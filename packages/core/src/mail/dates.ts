import { eventDateLabel, formatDay } from '@events/content/event-dates'
import { TIME_ZONE } from '@events/pricing'

const timeFormat = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', hour12: false })

/** An event's days and hours, the days written as everywhere else: "3–4 July 2025, 08:30 – 16:00 (SAST)". */
export function formatEventDates(startIso: string, endIso: string): string {
  return `${eventDateLabel(startIso, endIso)}, ${timeFormat.format(new Date(startIso))} – ${timeFormat.format(new Date(endIso))} (SAST)`
}

/** A date as people read it in South Africa, e.g. "3 July 2025". */
export const formatDate = formatDay

/** The days an event runs, as the site writes them: "3 July 2025", "23–24 July 2025", "31 July – 1 August 2025". */
export const formatEventDays = eventDateLabel
