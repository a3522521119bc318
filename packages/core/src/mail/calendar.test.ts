import ical, { type VEvent } from 'node-ical'
import { describe, expect, it } from 'vitest'
import { LEGAL_OPINION } from '../test-support.ts'
import { eventCalendarFile } from './calendar.ts'

describe('event calendar file', () => {
  it('parses with a third-party iCalendar parser: one event, Johannesburg times, venue and URL', () => {
    const text = eventCalendarFile(LEGAL_OPINION, 'Example Events')
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/)
    expect(text).toContain('BEGIN:VTIMEZONE\r\nTZID:Africa/Johannesburg')

    const events = Object.values(ical.sync.parseICS(text)).filter((component): component is VEvent => component?.type === 'VEVENT')
    expect(events).toHaveLength(1)
    const [event] = events
    expect(event?.summary).toBe('Legal Opinion Writing 2025')
    // 08:30 to 16:00 SAST on 3-4 July 2025.
    expect(event?.start.toISOString()).toBe('2025-07-03T06:30:00.000Z')
    expect(event?.end?.toISOString()).toBe('2025-07-04T14:00:00.000Z')
    expect(event?.start.tz).toBe('Africa/Johannesburg')
    expect(event?.location).toBe('Indaba Hotel, William Nicol Drive, Fourways, Sandton, Johannesburg')
    expect(event?.url).toMatchObject({ val: 'https://events.example.com/workshop/legalOpinion' })
    expect(event?.uid).toBe('workshop-legalOpinion@events.example.com')
  })
})
