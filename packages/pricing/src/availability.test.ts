import { describe, expect, it } from 'vitest'
import { isRegistrationOpen, nextAvailabilityChange, optionAvailability, optionOfferedUntil, type EventSchedule, type EventWindows } from './availability.ts'

// Wall-clock time in Johannesburg according to the time-zone database, so that every UTC instant below is
// checked to be the local time it claims to be rather than trusted.
function johannesburgWallClock(instant: Date): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Africa/Johannesburg',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    fractionalSecondDigits: 3,
    hourCycle: 'h23',
  }).formatToParts(instant)
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}.${part('fractionalSecond')}`
}

describe('Johannesburg time', () => {
  it.each([2024, 2025, 2026, 2027].flatMap((year) => Array.from({ length: 12 }, (_, month) => new Date(Date.UTC(year, month, 15, 12)))))(
    'is UTC+02:00 all year round (%s)',
    (instant) => {
      const offset = new Intl.DateTimeFormat('en', { timeZone: 'Africa/Johannesburg', timeZoneName: 'longOffset' })
        .formatToParts(instant)
        .find((part) => part.type === 'timeZoneName')?.value
      expect(offset).toBe('GMT+02:00')
    },
  )
})

const conference: EventSchedule = { start: '2025-07-15T06:00:00Z' }

describe('early-bird window', () => {
  it.each([
    // [early-bird date, now as a UTC instant, the same instant in Johannesburg, available]
    ['2025-06-13', '2025-06-12T21:59:59.999Z', '2025-06-12 23:59:59.999', true],
    ['2025-06-13', '2025-06-12T22:00:00.000Z', '2025-06-13 00:00:00.000', true],
    ['2025-06-13', '2025-06-13T00:00:00.000Z', '2025-06-13 02:00:00.000', true],
    ['2025-06-13', '2025-06-13T21:59:00.000Z', '2025-06-13 23:59:00.000', true],
    ['2025-06-13', '2025-06-13T21:59:59.999Z', '2025-06-13 23:59:59.999', true],
    ['2025-06-13', '2025-06-13T22:00:00.000Z', '2025-06-14 00:00:00.000', false],
    ['2025-06-13', '2025-06-13T22:00:00.001Z', '2025-06-14 00:00:00.001', false],
    ['2025-06-13', '2025-06-13T23:30:00.000Z', '2025-06-14 01:30:00.000', false],
    ['2025-06-13', '2025-06-14T08:00:00.000Z', '2025-06-14 10:00:00.000', false],
    ['2025-03-31', '2025-03-31T21:59:59.999Z', '2025-03-31 23:59:59.999', true],
    ['2025-03-31', '2025-03-31T22:00:00.000Z', '2025-04-01 00:00:00.000', false],
    ['2025-04-25', '2025-04-25T21:59:00.000Z', '2025-04-25 23:59:00.000', true],
    ['2025-04-25', '2025-04-25T22:00:00.000Z', '2025-04-26 00:00:00.000', false],
    ['2025-03-25', '2025-03-25T21:59:59.999Z', '2025-03-25 23:59:59.999', true],
    ['2025-03-25', '2025-03-25T22:00:00.000Z', '2025-03-26 00:00:00.000', false],
    ['2024-12-31', '2024-12-31T21:59:59.999Z', '2024-12-31 23:59:59.999', true],
    ['2024-12-31', '2024-12-31T22:00:00.000Z', '2025-01-01 00:00:00.000', false],
  ] as const)('early-bird until %s, at %s (%s in Johannesburg): available %s', (until, nowUtc, wallClock, available) => {
    const now = new Date(nowUtc)
    expect(johannesburgWallClock(now)).toBe(wallClock)
    const expected = available ? { available: true } : { available: false, reason: 'early-bird-ended' }
    expect(optionAvailability({ key: 'early-bird', earlyBirdUntil: until }, conference, now)).toEqual(expected)
  })

  it.each([undefined, null])('leaves early-bird open until registration closes when it has no date (%s)', (earlyBirdUntil) => {
    const now = new Date('2025-07-15T05:59:59.999Z')
    expect(optionAvailability({ key: 'early-bird', earlyBirdUntil }, conference, now)).toEqual({ available: true })
  })

  it.each(['venue', 'online', 'table-5', 'table-10'] as const)('does not apply an early-bird date to %s', (key) => {
    const now = new Date('2025-07-01T10:00:00Z')
    expect(optionAvailability({ key, earlyBirdUntil: '2025-06-13' }, conference, now)).toEqual({ available: true })
  })
})

describe('registration closing', () => {
  it.each([
    // [schedule, now as a UTC instant, open]
    [{ start: '2025-07-15T06:00:00Z' }, '2025-07-15T05:59:59.999Z', true],
    [{ start: '2025-07-15T06:00:00Z' }, '2025-07-15T06:00:00.000Z', false],
    [{ start: '2025-07-15T06:00:00Z' }, '2025-07-16T06:00:00.000Z', false],
    [{ start: '2025-07-15T06:00:00Z', registrationClosesAt: null }, '2025-07-15T05:59:59.999Z', true],
    [{ start: '2025-07-15T06:00:00Z', registrationClosesAt: null }, '2025-07-15T06:00:00.000Z', false],
    [{ start: '2025-07-15T08:00:00+02:00' }, '2025-07-15T05:59:59.999Z', true],
    [{ start: '2025-07-15T08:00:00+02:00' }, '2025-07-15T06:00:00.000Z', false],
    [{ start: '2025-07-15T06:00:00.000Z', registrationClosesAt: '2025-07-10T15:00:00.000Z' }, '2025-07-10T14:59:59.999Z', true],
    [{ start: '2025-07-15T06:00:00.000Z', registrationClosesAt: '2025-07-10T15:00:00.000Z' }, '2025-07-10T15:00:00.000Z', false],
    [{ start: '2025-07-15T06:00:00.000Z', registrationClosesAt: '2025-07-10T15:00:00.000Z' }, '2025-07-12T09:00:00.000Z', false],
    [{ start: '2025-07-15T06:00:00Z', registrationClosesAt: '2025-07-15T12:00:00Z' }, '2025-07-15T11:59:59.999Z', true],
    [{ start: '2025-07-15T06:00:00Z', registrationClosesAt: '2025-07-15T12:00:00Z' }, '2025-07-15T12:00:00.000Z', false],
  ] satisfies [EventSchedule, string, boolean][])('%j at %s: open %s', (schedule, nowUtc, open) => {
    const now = new Date(nowUtc)
    expect(isRegistrationOpen(schedule, now)).toBe(open)
    const expected = open ? { available: true } : { available: false, reason: 'registration-closed' }
    expect(optionAvailability({ key: 'venue' }, schedule, now)).toEqual(expected)
  })

  it.each([
    // Datetimes without an offset, and bare dates, are Johannesburg wall-clock time whatever the server's zone.
    ['2025-07-15T08:00', '2025-07-15T05:59:59.999Z', true],
    ['2025-07-15T08:00', '2025-07-15T06:00:00.000Z', false],
    ['2025-07-15T08:00:30.5', '2025-07-15T06:00:30.499Z', true],
    ['2025-07-15T08:00:30.5', '2025-07-15T06:00:30.500Z', false],
    ['2025-07-15', '2025-07-14T21:59:59.999Z', true],
    ['2025-07-15', '2025-07-14T22:00:00.000Z', false],
  ])('reads a start of %s as Johannesburg time: at %s open %s', (start, nowUtc, open) => {
    expect(isRegistrationOpen({ start }, new Date(nowUtc))).toBe(open)
  })

  it('reports a closed registration before an ended early-bird', () => {
    const now = new Date('2025-07-15T06:00:00Z')
    expect(optionAvailability({ key: 'early-bird', earlyBirdUntil: '2025-06-13' }, conference, now)).toEqual({
      available: false,
      reason: 'registration-closed',
    })
  })
})

describe('invalid input', () => {
  const now = new Date('2025-06-01T10:00:00Z')

  it.each(['', 'soon', '15/07/2025', '2025-07-15 08:00', '2025-02-31T10:00:00Z', '2025-13-01T10:00:00Z', '2025-07-15T25:00Z'])(
    'rejects an event start of %j',
    (start) => {
      expect(() => isRegistrationOpen({ start }, now)).toThrow(RangeError)
      expect(() => optionAvailability({ key: 'venue' }, { start }, now)).toThrow(RangeError)
    },
  )

  it('rejects an invalid closing time', () => {
    expect(() => isRegistrationOpen({ ...conference, registrationClosesAt: 'tomorrow' }, now)).toThrow(RangeError)
  })

  it.each(['2025-06-31', '13/06/25', '2025-6-13', '2025-06-13T00:00:00Z', ''])('rejects an early-bird date of %j', (earlyBirdUntil) => {
    expect(() => optionAvailability({ key: 'early-bird', earlyBirdUntil }, conference, now)).toThrow(RangeError)
  })

  it.each(['venue', 'early-bird'] as const)('rejects an invalid current time (%s)', (key) => {
    const invalidNow = new Date(Number.NaN)
    expect(() => isRegistrationOpen(conference, invalidNow)).toThrow(RangeError)
    expect(() => optionAvailability({ key, earlyBirdUntil: '2025-06-13' }, conference, invalidNow)).toThrow(RangeError)
  })
})

describe('next availability change', () => {
  const resilience: EventWindows = { start: '2025-07-15T06:00:00Z', options: [{ earlyBirdUntil: '2025-06-13' }, { earlyBirdUntil: null }] }
  const workshop: EventWindows = { start: '2025-05-20T07:00:00Z', registrationClosesAt: '2025-05-16T17:00:00+02:00' }
  // The early-bird date 13 June is available to its end in Johannesburg: 14 June 00:00 SAST.
  const earlyBirdEnds = '2025-06-13T22:00:00.000Z'

  it.each([
    ['2025-03-01T07:00:00Z', '2025-05-16T15:00:00.000Z', 'the workshop closing comes first'],
    ['2025-05-16T15:00:00Z', '2025-05-20T07:00:00.000Z', 'at the closing moment the next is the workshop start'],
    ['2025-05-21T00:00:00Z', earlyBirdEnds, 'then the early-bird end'],
    ['2025-06-13T21:59:59.999Z', earlyBirdEnds, 'a millisecond before it'],
    [earlyBirdEnds, '2025-07-15T06:00:00.000Z', 'at the early-bird end the next is the conference start'],
  ])('from %s it is %s (%s)', (now, expected) => {
    expect(nextAvailabilityChange([resilience, workshop], new Date(now))?.toISOString()).toBe(expected)
  })

  it('is undefined once every event has started', () => {
    expect(nextAvailabilityChange([resilience, workshop], new Date('2025-08-01T00:00:00Z'))).toBeUndefined()
    expect(nextAvailabilityChange([], new Date('2025-08-01T00:00:00Z'))).toBeUndefined()
  })

  it('agrees with optionAvailability on both sides of the instant it names', () => {
    const now = new Date('2025-06-01T00:00:00Z')
    const change = nextAvailabilityChange([resilience], now)!
    const option = { key: 'early-bird' as const, earlyBirdUntil: '2025-06-13' }
    expect(optionAvailability(option, resilience, new Date(change.getTime() - 1))).toEqual({ available: true })
    expect(optionAvailability(option, resilience, change)).toEqual({ available: false, reason: 'early-bird-ended' })
  })
})

describe('optionOfferedUntil', () => {
  const event: EventSchedule = { start: '2025-07-03T06:30:00Z' }

  it('ends an early-bird price at the end of its date in Johannesburg, the others when registration closes', () => {
    expect(optionOfferedUntil({ key: 'early-bird', earlyBirdUntil: '2025-03-25' }, event).toISOString()).toBe('2025-03-25T22:00:00.000Z')
    expect(optionOfferedUntil({ key: 'venue' }, event).toISOString()).toBe('2025-07-03T06:30:00.000Z')
    expect(optionOfferedUntil({ key: 'venue' }, { ...event, registrationClosesAt: '2025-06-30T15:00:00Z' }).toISOString()).toBe('2025-06-30T15:00:00.000Z')
    // An early-bird date after registration closes ends with registration.
    expect(optionOfferedUntil({ key: 'early-bird', earlyBirdUntil: '2025-08-01' }, event).toISOString()).toBe('2025-07-03T06:30:00.000Z')
  })

  it('agrees with optionAvailability: available just before, not at the instant', () => {
    const option = { key: 'early-bird', earlyBirdUntil: '2025-03-25' } as const
    const until = optionOfferedUntil(option, event)
    expect(optionAvailability(option, event, new Date(until.getTime() - 1)).available).toBe(true)
    expect(optionAvailability(option, event, until).available).toBe(false)
  })
})
