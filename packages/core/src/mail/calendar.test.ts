import ical, { type VEvent } from 'node-ical'
import { describe, expect, it } from 'vitest'
import { LEGAL_OPINION } from '../test-support.ts'
import { eventCalendarFile } from './calendar.ts'

describe('event calendar file', () => {
  it('parses with a third-party iCalendar parser: one event a day with that day’s hours, Johannesburg times, venue and URL', () => {
    const text = eventCalendarFile(LEGAL_OPINION, 'Example Events')
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/)
    expect(text).toContain('BEGIN:VTIMEZONE\r\nTZID:Africa/Johannesburg')

    const events = Object.values(ical.sync.parseICS(text))
      .filter((component): component is VEvent => component?.type === 'VEVENT')
      .toSorted((first, second) => first.start.getTime() - second.start.getTime())
    // 08:30 to 16:00 SAST on 3 July and again on 4 July 2025: two events, not one block through the night.
    expect(events.map((event) => [event.start.toISOString(), event.end?.toISOString()])).toEqual([
      ['2025-07-03T06:30:00.000Z', '2025-07-03T14:00:00.000Z'],
      ['2025-07-04T06:30:00.000Z', '2025-07-04T14:00:00.000Z'],
    ])
    expect(events.map((event) => event.summary)).toEqual(['Legal Opinion Writing 2025 (day 1 of 2)', 'Legal Opinion Writing 2025 (day 2 of 2)'])
    expect(events.map((event) => event.uid)).toEqual(['workshop-legalOpinion-day1@events.example.com', 'workshop-legalOpinion-day2@events.example.com'])
    for (const event of events) {
      expect(event.start.tz).toBe('Africa/Johannesburg')
      expect(event.location).toBe('Indaba Hotel, William Nicol Drive, Fourways, Sandton, Johannesburg')
      expect(event.url).toMatchObject({ val: 'https://events.example.com/workshop/legalOpinion' })
    }
  })

  it('keeps a one-day event as one event with its own identity', () => {
    const text = eventCalendarFile({ ...LEGAL_OPINION, end: '2025-07-03T16:00:00+02:00' }, 'Example Events')
    const events = Object.values(ical.sync.parseICS(text)).filter((component): component is VEvent => component?.type === 'VEVENT')
    expect(events).toHaveLength(1)
    expect(events[0]?.uid).toBe('workshop-legalOpinion@events.example.com')
    expect(events[0]?.end?.toISOString()).toBe('2025-07-03T14:00:00.000Z')
  })
})
