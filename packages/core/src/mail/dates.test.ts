import { describe, expect, it } from 'vitest'
import { formatDate, formatEventDates, formatEventDays } from './dates.ts'

describe('South African dates', () => {
  it('prints an event on one day or over several in SAST', () => {
    expect(formatEventDates('2025-07-03T06:30:00Z', '2025-07-03T14:00:00Z')).toBe('3 July 2025, 08:30 – 16:00 (SAST)')
    expect(formatEventDates('2025-07-03T06:30:00Z', '2025-07-04T14:00:00Z')).toBe('3–4 July 2025, 08:30 – 16:00 (SAST)')
  })

  it("prints a date in Johannesburg, whatever the server's time zone", () => {
    expect(formatDate(new Date('2025-02-28T23:30:00Z'))).toBe('1 March 2025')
  })

  it.each([
    ['one day', '2025-07-03T08:30:00+02:00', '2025-07-03T16:00:00+02:00', '3 July 2025'],
    ['two days of one month', '2025-07-23T07:30:00+02:00', '2025-07-24T16:00:00+02:00', '23–24 July 2025'],
    ['days across a month', '2025-07-31T08:00:00+02:00', '2025-08-01T16:00:00+02:00', '31 July – 1 August 2025'],
    ['days across a year', '2025-12-31T08:00:00+02:00', '2026-01-01T16:00:00+02:00', '31 December 2025 – 1 January 2026'],
    ['a day that starts before midnight UTC', '2025-07-22T23:30:00Z', '2025-07-23T14:00:00Z', '23 July 2025'],
  ])('prints the days of an event on %s', (_case, start, end, expected) => {
    expect(formatEventDays(start, end)).toBe(expected)
  })
})
