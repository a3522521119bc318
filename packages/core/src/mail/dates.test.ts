import { describe, expect, it } from 'vitest'
import { formatDate, formatEventDates } from './dates.ts'

describe('South African dates', () => {
  it('prints an event on one day or over several in SAST, each event its own', () => {
    expect(formatEventDates('2025-07-03T06:30:00Z', '2025-07-03T14:00:00Z')).toBe('Thursday 3 July 2025, 08:30 – 16:00 (SAST)')
    expect(formatEventDates('2025-07-03T06:30:00Z', '2025-07-04T14:00:00Z')).toBe('Thursday 3 July 2025, 08:30 – Friday 4 July 2025, 16:00 (SAST)')
    // Asked again, an event gets the same text, and another event with the same start does not get the first one's.
    expect(formatEventDates('2025-07-03T06:30:00Z', '2025-07-03T14:00:00Z')).toBe('Thursday 3 July 2025, 08:30 – 16:00 (SAST)')
    expect(formatEventDates('2025-07-03T06:30:00Z', '2025-07-03T13:00:00Z')).toBe('Thursday 3 July 2025, 08:30 – 15:00 (SAST)')
  })

  it("prints a date in Johannesburg, whatever the server's time zone", () => {
    expect(formatDate(new Date('2025-02-28T23:30:00Z'))).toBe('1 March 2025')
  })
})
