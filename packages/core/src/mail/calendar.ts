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

/** An RFC 5545 calendar with one event, its times in Africa/Johannesburg (with the VTIMEZONE). */
function calendarFile(entry: CalendarEntry, productName: string): string {
  const calendar = ical({ prodId: { company: productName, product: 'events', language: 'EN' } })
  calendar.timezone({ name: TIME_ZONE, generator: cachedVtimezone })
  calendar.createEvent({
    id: entry.uid,
    start: DateTime.fromISO(entry.start, { zone: TIME_ZONE }),
    end: DateTime.fromISO(entry.end, { zone: TIME_ZONE }),
    timezone: TIME_ZONE,
    summary: entry.title,
    location: entry.location,
    url: entry.url,
    description: entry.description,
    organizer: { name: entry.organiser.name, email: entry.organiser.email },
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
