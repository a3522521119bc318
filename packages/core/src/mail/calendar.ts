import { venueLabel } from '@events/content/venue'
import { getVtimezoneComponent } from '@touch4it/ical-timezones'
import { TIME_ZONE } from '@events/pricing'
import ical from 'ical-generator'
import { DateTime } from 'luxon'
import type { RegistrationEvent } from '../catalog.ts'
import type { MailAttachment } from './outgoing-mail.ts'

export interface CalendarEntry {
  uid: string
  title: string
  start: string
  end: string
  location: string
  url: string
  description: string
  organiser: { name: string; email: string }
}

const vtimezones = new Map<string, string | null>()

// Every calendar carries the same VTIMEZONE block; building it takes longer than the rest of the file.
function cachedVtimezone(timeZone: string): string | null {
  if (!vtimezones.has(timeZone)) vtimezones.set(timeZone, getVtimezoneComponent(timeZone))
  return vtimezones.get(timeZone) ?? null
}

/**
 * The days an entry spans, each with that day's hours: from the start's time to the end's time on every calendar day
 * from the start's to the end's, in Johannesburg. A one-day entry is itself.
 */
function calendarDays(start: string, end: string): Array<{ start: DateTime; end: DateTime }> {
  const first = DateTime.fromISO(start, { zone: TIME_ZONE })
  const last = DateTime.fromISO(end, { zone: TIME_ZONE })
  const dayCount = Math.max(1, Math.round(last.startOf('day').diff(first.startOf('day'), 'days').days) + 1)
  if (dayCount === 1) return [{ start: first, end: last }]
  return Array.from({ length: dayCount }, (_, index) => {
    const day = first.plus({ days: index })
    return {
      start: day,
      end: day.set({ hour: last.hour, minute: last.minute, second: last.second, millisecond: 0 }),
    }
  })
}

/**
 * An RFC 5545 calendar with one event per day of the entry, each with that day's hours (a two-day workshop is two
 * events, not one block through the night), its times in Africa/Johannesburg (with the VTIMEZONE).
 */
function calendarFile(entry: CalendarEntry, productName: string): string {
  const calendar = ical({ prodId: { company: productName, product: 'events', language: 'EN' } })
  calendar.timezone({ name: TIME_ZONE, generator: cachedVtimezone })
  const days = calendarDays(entry.start, entry.end)
  const [uidName, uidHost] = entry.uid.split('@') as [string, string | undefined]
  days.forEach((day, index) => {
    calendar.createEvent({
      // Each day its own identity, so a calendar keeps both days of a two-day event.
      id: days.length === 1 ? entry.uid : `${uidName}-day${index + 1}${uidHost ? `@${uidHost}` : ''}`,
      start: day.start,
      end: day.end,
      timezone: TIME_ZONE,
      summary: days.length === 1 ? entry.title : `${entry.title} (day ${index + 1} of ${days.length})`,
      location: entry.location,
      url: entry.url,
      description: entry.description,
      organizer: { name: entry.organiser.name, email: entry.organiser.email },
    })
  })
  return calendar.toString()
}

/** The calendar file as an e-mail attachment. */
export function calendarAttachment(entry: CalendarEntry, productName: string): MailAttachment {
  return { filename: 'event.ics', contentType: 'text/calendar; charset=utf-8', content: calendarFile(entry, productName) }
}

/** The venue as one line, written as everywhere else: name and address. */
export function venueText(event: RegistrationEvent): string {
  return venueLabel(event.venue)
}

/** The public "Add to calendar" file of an event (no registration in it), served from the event page. */
export function eventCalendarFile(event: RegistrationEvent, siteName: string): string {
  return calendarFile(
    {
      uid: `${event.kind}-${event.slug}@${new URL(event.url).hostname}`,
      title: event.title,
      start: event.start,
      end: event.end,
      location: venueText(event),
      url: event.url,
      description: event.url,
      organiser: { name: siteName, email: event.contactEmail },
    },
    siteName,
  )
}
