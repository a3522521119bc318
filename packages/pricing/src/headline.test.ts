import { describe, expect, it } from 'vitest'
import { headline, type ListedOption } from './headline.ts'

const event = { start: '2025-07-23T07:30:00+02:00' }
const options: ListedOption[] = [
  { key: 'venue', amountCents: 849_000 },
  { key: 'early-bird', amountCents: 749_000, earlyBirdUntil: '2025-06-13' },
  { key: 'online', amountCents: 549_000 },
  { key: 'table-5', amountCents: 3_495_000 },
  { key: 'table-10', amountCents: 5_990_000 },
]

describe('headline', () => {
  it.each([
    [
      'early in the year: online is the lowest and early-bird runs',
      '2025-03-01T09:00:00+02:00',
      { fromCents: 549_000, fromKey: 'online', earlyBirdUntil: '2025-06-13' },
    ],
    ['on the last early-bird day, Johannesburg time', '2025-06-13T23:59:00+02:00', { fromCents: 549_000, fromKey: 'online', earlyBirdUntil: '2025-06-13' }],
    ['after the early-bird day: no early-bird', '2025-06-14T00:00:00+02:00', { fromCents: 549_000, fromKey: 'online' }],
    ['once the event has started: nothing to announce', '2025-07-23T07:30:00+02:00', undefined],
  ])('%s', (_case, now, expected) => {
    expect(headline(options, event, new Date(now))).toEqual(expected)
  })

  it('leaves tables out even when their price per head is lower, and ignores unpriced and unknown options', () => {
    expect(
      headline(
        [
          { key: 'venue', amountCents: 799_000 },
          { key: 'table-10', amountCents: 100_000 },
          { key: 'online', amountCents: 0 },
          { key: 'gift', amountCents: 1 },
          { key: null, amountCents: 1 },
        ],
        event,
        new Date('2025-03-01T09:00:00+02:00'),
      ),
    ).toEqual({ fromCents: 799_000, fromKey: 'venue' })
  })

  it('has nothing to announce without options', () => {
    expect(headline([], event, new Date('2025-03-01T09:00:00+02:00'))).toBeUndefined()
  })
})
