import { describe, expect, it } from 'vitest'
import { formatAmount, formatRand, randsToCents } from './money.ts'
import type { OptionKey } from './options.ts'
import { quote } from './quote.ts'

// Every per-delegate price of the specification (excl. VAT), for one and several delegates. The totals were
// worked out independently with decimal arithmetic: subtotal x 1.15, half-up to the cent.
const perDelegatePrices: [event: string, key: OptionKey, rands: number, delegates: number, subtotal: string, total: string][] = [
  ['PFAS and Office Professionals', 'venue', 7990, 1, '7990.00', '9188.50'],
  ['PFAS and Office Professionals', 'venue', 7990, 3, '23970.00', '27565.50'],
  ['PFAS and Office Professionals', 'venue', 7990, 7, '55930.00', '64319.50'],
  ['PFAS and Office Professionals', 'early-bird', 6990, 1, '6990.00', '8038.50'],
  ['PFAS and Office Professionals', 'early-bird', 6990, 3, '20970.00', '24115.50'],
  ['PFAS and Office Professionals', 'early-bird', 6990, 7, '48930.00', '56269.50'],
  ['PFAS and Office Professionals', 'online', 5490, 1, '5490.00', '6313.50'],
  ['PFAS and Office Professionals', 'online', 5490, 3, '16470.00', '18940.50'],
  ['PFAS and Office Professionals', 'online', 5490, 7, '38430.00', '44194.50'],
  ['Legal Opinion', 'venue', 8990, 1, '8990.00', '10338.50'],
  ['Legal Opinion', 'venue', 8990, 3, '26970.00', '31015.50'],
  ['Legal Opinion', 'venue', 8990, 7, '62930.00', '72369.50'],
  ['Legal Opinion', 'early-bird', 7990, 1, '7990.00', '9188.50'],
  ['Legal Opinion', 'early-bird', 7990, 3, '23970.00', '27565.50'],
  ['Legal Opinion', 'early-bird', 7990, 7, '55930.00', '64319.50'],
  ['Legal Opinion', 'online', 5990, 1, '5990.00', '6888.50'],
  ['Legal Opinion', 'online', 5990, 3, '17970.00', '20665.50'],
  ['Legal Opinion', 'online', 5990, 7, '41930.00', '48219.50'],
  ['Board Management', 'venue', 4990, 1, '4990.00', '5738.50'],
  ['Board Management', 'venue', 4990, 3, '14970.00', '17215.50'],
  ['Board Management', 'venue', 4990, 7, '34930.00', '40169.50'],
  ['Board Management', 'early-bird', 4490, 1, '4490.00', '5163.50'],
  ['Board Management', 'early-bird', 4490, 3, '13470.00', '15490.50'],
  ['Board Management', 'early-bird', 4490, 7, '31430.00', '36144.50'],
  ['Board Management', 'online', 3490, 1, '3490.00', '4013.50'],
  ['Board Management', 'online', 3490, 3, '10470.00', '12040.50'],
  ['Board Management', 'online', 3490, 7, '24430.00', '28094.50'],
  ['Legal Secretary', 'venue', 8990, 1, '8990.00', '10338.50'],
  ['Legal Secretary', 'venue', 8990, 3, '26970.00', '31015.50'],
  ['Legal Secretary', 'venue', 8990, 7, '62930.00', '72369.50'],
  ['Legal Secretary', 'early-bird', 7990, 1, '7990.00', '9188.50'],
  ['Legal Secretary', 'early-bird', 7990, 3, '23970.00', '27565.50'],
  ['Legal Secretary', 'early-bird', 7990, 7, '55930.00', '64319.50'],
  ['Legal Secretary', 'online', 7490, 1, '7490.00', '8613.50'],
  ['Legal Secretary', 'online', 7490, 3, '22470.00', '25840.50'],
  ['Legal Secretary', 'online', 7490, 7, '52430.00', '60294.50'],
  ['Resilience', 'venue', 8490, 1, '8490.00', '9763.50'],
  ['Resilience', 'venue', 8490, 3, '25470.00', '29290.50'],
  ['Resilience', 'venue', 8490, 7, '59430.00', '68344.50'],
  ['Resilience', 'early-bird', 7490, 1, '7490.00', '8613.50'],
  ['Resilience', 'early-bird', 7490, 3, '22470.00', '25840.50'],
  ['Resilience', 'early-bird', 7490, 7, '52430.00', '60294.50'],
  ['Resilience', 'online', 5490, 1, '5490.00', '6313.50'],
  ['Resilience', 'online', 5490, 3, '16470.00', '18940.50'],
  ['Resilience', 'online', 5490, 7, '38430.00', '44194.50'],
]

describe('quote: the specification price table', () => {
  it.each(perDelegatePrices)('%s, %s at R%d for %d delegate(s): %s excl., %s incl. VAT', (_event, key, rands, delegates, subtotal, total) => {
    const result = quote({ key, amountCents: randsToCents(rands) }, delegates)
    expect(formatAmount(result.subtotalCents)).toBe(subtotal)
    expect(formatAmount(result.totalCents)).toBe(total)
    expect(result.vatCents).toBe(result.totalCents - result.subtotalCents)
    expect(result.vatRate).toBe(0.15)
  })

  it('shows Resilience at the venue for one delegate as R 9 763.50 incl. VAT', () => {
    const result = quote({ key: 'venue', amountCents: 849_000 }, 1)
    expect(result).toEqual({ subtotalCents: 849_000, vatCents: 127_350, totalCents: 976_350, vatRate: 0.15 })
    expect(formatRand(result.totalCents)).toBe('R 9 763.50')
  })

  it('charges three delegates at R7 990 R 27 565.50', () => {
    const result = quote({ key: 'venue', amountCents: 799_000 }, 3)
    expect(result).toEqual({ subtotalCents: 2_397_000, vatCents: 359_550, totalCents: 2_756_550, vatRate: 0.15 })
    expect(formatRand(result.totalCents)).toBe('R 27 565.50')
  })
})

describe('quote: table options are flat', () => {
  it.each([
    ['table-5', 34_950, 1, 'R 34 950.00', 'R 40 192.50'],
    ['table-5', 34_950, 3, 'R 34 950.00', 'R 40 192.50'],
    ['table-5', 34_950, 5, 'R 34 950.00', 'R 40 192.50'],
    ['table-10', 59_900, 1, 'R 59 900.00', 'R 68 885.00'],
    ['table-10', 59_900, 6, 'R 59 900.00', 'R 68 885.00'],
    ['table-10', 59_900, 10, 'R 59 900.00', 'R 68 885.00'],
  ] as const)('%s at R%d with %d delegate(s): %s excl., %s incl. VAT', (key, rands, delegates, subtotal, total) => {
    const result = quote({ key, amountCents: randsToCents(rands) }, delegates)
    expect(formatRand(result.subtotalCents)).toBe(subtotal)
    expect(formatRand(result.totalCents)).toBe(total)
  })
})

describe('quote: no option chosen', () => {
  it.each([0, 1, 4])('costs nothing with %d delegate(s)', (delegates) => {
    expect(quote(undefined, delegates)).toEqual({ subtotalCents: 0, vatCents: 0, totalCents: 0, vatRate: 0.15 })
  })

  it('reports the VAT rate it was given', () => {
    expect(quote(undefined, 1, 0.14).vatRate).toBe(0.14)
  })
})

describe('quote: VAT rounding', () => {
  it('defaults to 15% VAT', () => {
    expect(quote({ key: 'online', amountCents: 100 }, 1).vatCents).toBe(15)
  })

  it.each([
    // [subtotal cents, rate, exact VAT in cents, VAT rounded half-up]
    [0, 0.15, '0', 0],
    [1, 0.15, '0.15', 0],
    [3, 0.15, '0.45', 0],
    [4, 0.15, '0.6', 1],
    [10, 0.15, '1.5', 2],
    [30, 0.15, '4.5', 5],
    [33, 0.15, '4.95', 5],
    [70, 0.15, '10.5', 11],
    [99, 0.15, '14.85', 15],
    [1, 0.14, '0.14', 0],
    [4, 0.14, '0.56', 1],
    [25, 0.14, '3.5', 4],
    [75, 0.14, '10.5', 11],
    [849_000, 0.14, '118860', 118_860],
    [100, 0.155, '15.5', 16],
    [100, 0.07, '7', 7],
    [849_000, 0, '0', 0],
  ])('%d cents at %s: VAT %s cents rounds to %d', (cents, rate, _exact, vatCents) => {
    const result = quote({ key: 'venue', amountCents: cents }, 1, rate)
    expect(result).toEqual({ subtotalCents: cents, vatCents, totalCents: cents + vatCents, vatRate: rate })
  })

  it('stays exact where cents times basis points pass the safe-integer range', () => {
    const subtotalCents = 9_000_000_000_000
    expect(quote({ key: 'table-10', amountCents: subtotalCents }, 1).vatCents).toBe(1_350_000_000_000)
  })
})

describe('quote: invalid input', () => {
  const venue = { key: 'venue', amountCents: 849_000 } as const

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects a delegate count of %s', (delegates) => {
    expect(() => quote(venue, delegates)).toThrow(RangeError)
    expect(() => quote(undefined, delegates)).toThrow(RangeError)
  })

  it.each([849_000.5, 0.1, -100, Number.NaN, Number.POSITIVE_INFINITY])('rejects a price of %s cents', (amountCents) => {
    expect(() => quote({ key: 'venue', amountCents }, 1)).toThrow(RangeError)
  })

  it.each([-0.15, 0.12345, Number.NaN, Number.POSITIVE_INFINITY])('rejects a VAT rate of %s', (rate) => {
    expect(() => quote(venue, 1, rate)).toThrow(RangeError)
  })

  it('rejects an unknown option key', () => {
    expect(() => quote({ key: 'vip' as OptionKey, amountCents: 100 }, 1)).toThrow(RangeError)
  })

  it('rejects a subtotal beyond exact integers', () => {
    expect(() => quote({ key: 'venue', amountCents: Number.MAX_SAFE_INTEGER }, 2)).toThrow(RangeError)
  })
})
