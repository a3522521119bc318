import { describe, expect, it } from 'vitest'
import { dateInEventTimeZone } from './dates.ts'
import { checkEnd, checkPriceOptions, checkRegistrationClose, checkTablesOnWorkshop } from './eventRules.ts'
import { priceSummary } from './price.ts'
import { checkCap, checkEarlyBirdDate } from './priceOptionRules.ts'

describe('priceSummary', () => {
  it.each([
    ['venue', 8490, 'R 8 490.00 excl. VAT · R 9 763.50 incl. VAT'],
    ['table-5', 34950, 'R 34 950.00 excl. VAT · R 40 192.50 incl. VAT'],
    ['online', 0, 'R 0.00 excl. VAT · R 0.00 incl. VAT'],
  ] as const)('%s at R%d', (key, amount, expected) => {
    expect(priceSummary(key, amount)).toBe(expected)
  })
})

describe('dateInEventTimeZone', () => {
  it('uses the Johannesburg calendar day', () => {
    expect(dateInEventTimeZone('2025-07-22T23:30:00Z')).toBe('2025-07-23')
    expect(dateInEventTimeZone('2025-07-23T07:30:00+02:00')).toBe('2025-07-23')
  })
})

describe('event rules', () => {
  const start = '2025-07-23T07:30:00+02:00'

  it('wants the end after the start', () => {
    expect(checkEnd(start, '2025-07-24T16:00:00+02:00')).toBe(true)
    expect(checkEnd(start, start)).toMatch(/end after it starts/)
  })

  it('closes registration no later than the end', () => {
    expect(checkRegistrationClose('2025-07-24T16:00:00+02:00', '2025-07-24T16:00:00+02:00')).toBe(true)
    expect(checkRegistrationClose('2025-07-24T16:01:00+02:00', '2025-07-24T16:00:00+02:00')).toMatch(/on or before/)
  })

  it('wants early-bird dates before the first day and one option per key', () => {
    expect(checkPriceOptions([{ _id: 'a', key: 'early-bird', earlyBirdUntil: '2025-07-22' }], start)).toBe(true)
    expect(checkPriceOptions([{ _id: 'a', key: 'early-bird', earlyBirdUntil: '2025-07-23' }], start)).toMatch(/before the event starts/)
    expect(checkPriceOptions([{ _id: 'a', key: 'venue' }, { _id: 'b', key: 'venue' }], start)).toMatch(/more than one "venue"/)
  })

  it('warns about tables on workshops only', () => {
    const tables = [{ _id: 't', key: 'table-5' }]
    expect(checkTablesOnWorkshop('workshop', tables)).toMatch(/conferences only/)
    expect(checkTablesOnWorkshop('conference', tables)).toBe(true)
  })
})

describe('price option rules', () => {
  it.each([
    [{ key: 'early-bird', earlyBirdUntil: '2025-06-13' }, true],
    [{ key: 'early-bird' }, 'Early-bird options need the last day to register and pay'],
    [{ key: 'venue', earlyBirdUntil: '2025-06-13' }, 'Only early-bird options have an early-bird date; remove it'],
    [{ key: 'venue' }, true],
  ])('early-bird date of %o', (option, expected) => {
    expect(checkEarlyBirdDate(option)).toBe(expected)
  })

  it.each([
    [{ key: 'table-5', cap: 5 }, true],
    [{ key: 'table-10', cap: 10 }, true],
    [{ key: 'table-10' }, 'A table-10 option admits exactly 10 delegates'],
    [{ key: 'table-5', cap: 10 }, 'A table-5 option admits exactly 5 delegates'],
    [{ key: 'online', cap: 5 }, 'Only table options have a delegate cap; remove it'],
    [{ key: 'online' }, true],
  ])('cap of %o', (option, expected) => {
    expect(checkCap(option)).toBe(expected)
  })
})
