import { TIME_ZONE } from '@events/pricing'
import { describe, expect, it } from 'vitest'
import { EVENT_TIME_ZONE, eventDateLabel, formatDay } from './event-dates.ts'

describe('eventDateLabel', () => {
  it('reads dates in the time zone of the pricing rules', () => {
    expect(EVENT_TIME_ZONE).toBe(TIME_ZONE)
  })

  it.each([
    ['2025-06-06T08:00:00+02:00', '2025-06-06T16:00:00+02:00', '6 June 2025'],
    ['2025-07-03T08:00:00+02:00', '2025-07-04T16:00:00+02:00', '3–4 July 2025'],
    ['2025-06-30T08:00:00+02:00', '2025-07-01T16:00:00+02:00', '30 June – 1 July 2025'],
    ['2025-12-31T08:00:00+02:00', '2026-01-02T16:00:00+02:00', '31 December 2025 – 2 January 2026'],
    // Saved in UTC: the Johannesburg day counts (22:30 UTC is 00:30 the next day there).
    ['2025-07-22T22:30:00Z', '2025-07-24T14:00:00Z', '23–24 July 2025'],
  ])('%s to %s', (start, end, expected) => {
    expect(eventDateLabel(start, end)).toBe(expected)
  })

  it("prints a day in Johannesburg, whatever the server's time zone", () => {
    expect(formatDay(new Date('2025-02-28T23:30:00Z'))).toBe('1 March 2025')
  })
})
