import { describe, expect, it } from 'vitest'
import { applyDiscount, assertDiscount, discountAppliesTo, discountedQuote, discountOnLine, type Discount } from './discount.ts'
import { formatAmount, randsToCents } from './money.ts'
import type { OptionKey } from './options.ts'
import { quote } from './quote.ts'

/** Prices a registration with a discount the way registrations do: the option's quote, then the discount taken off. */
function discounted(key: OptionKey, rands: number, delegates: number, discount: Discount, vatRate = 0.15) {
  const option = { key, amountCents: randsToCents(rands) }
  return applyDiscount(quote(option, delegates, vatRate), discountOnLine(option, delegates, discount))
}

// Each sponsor tier's participant discount on the Resilience prices (excl. VAT). The figures were worked out
// independently with decimal arithmetic: the discount per delegate half-up to the cent, VAT 15% on the rest, half-up.
const tierPrices: [tier: string, percent: number, key: OptionKey, rands: number, delegates: number, discount: string, subtotal: string, total: string][] = [
  ['Platinum', 50, 'venue', 8490, 1, '4245.00', '4245.00', '4881.75'],
  ['Platinum', 50, 'venue', 8490, 3, '12735.00', '12735.00', '14645.25'],
  ['Platinum', 50, 'early-bird', 7490, 1, '3745.00', '3745.00', '4306.75'],
  ['Platinum', 50, 'early-bird', 7490, 3, '11235.00', '11235.00', '12920.25'],
  ['Platinum', 50, 'online', 5490, 1, '2745.00', '2745.00', '3156.75'],
  ['Platinum', 50, 'online', 5490, 3, '8235.00', '8235.00', '9470.25'],
  ['Gold', 30, 'venue', 8490, 1, '2547.00', '5943.00', '6834.45'],
  ['Gold', 30, 'venue', 8490, 3, '7641.00', '17829.00', '20503.35'],
  ['Gold', 30, 'early-bird', 7490, 1, '2247.00', '5243.00', '6029.45'],
  ['Gold', 30, 'early-bird', 7490, 3, '6741.00', '15729.00', '18088.35'],
  ['Gold', 30, 'online', 5490, 1, '1647.00', '3843.00', '4419.45'],
  ['Gold', 30, 'online', 5490, 3, '4941.00', '11529.00', '13258.35'],
  ['Silver', 20, 'venue', 8490, 1, '1698.00', '6792.00', '7810.80'],
  ['Silver', 20, 'venue', 8490, 3, '5094.00', '20376.00', '23432.40'],
  ['Silver', 20, 'early-bird', 7490, 1, '1498.00', '5992.00', '6890.80'],
  ['Silver', 20, 'early-bird', 7490, 3, '4494.00', '17976.00', '20672.40'],
  ['Silver', 20, 'online', 5490, 1, '1098.00', '4392.00', '5050.80'],
  ['Silver', 20, 'online', 5490, 3, '3294.00', '13176.00', '15152.40'],
]

describe('discounts: the sponsor tiers', () => {
  it.each(tierPrices)(
    '%s %d%% on %s at R%d for %d delegate(s): %s off, %s excl., %s incl. VAT',
    (_tier, percent, key, rands, delegates, discount, subtotal, total) => {
      const result = discounted(key, rands, delegates, { kind: 'percent', percent })
      expect(formatAmount(result.fullSubtotalCents)).toBe(formatAmount(randsToCents(rands) * delegates))
      expect(formatAmount(result.discountCents)).toBe(discount)
      expect(formatAmount(result.subtotalCents)).toBe(subtotal)
      expect(formatAmount(result.totalCents)).toBe(total)
      expect(result.vatCents).toBe(result.totalCents - result.subtotalCents)
    },
  )
})

describe('discounts: rounding to the cent', () => {
  it.each([
    // [price, percent, discount per delegate (half-up), VAT on the rest (half-up), total]
    [999.99, 50, '500.00', '75.00', '574.99'],
    [33.33, 30, '10.00', '3.50', '26.83'],
    [0.03, 50, '0.02', '0.00', '0.01'],
  ])('R%s less %d%%: %s off, VAT %s, total %s', (rands, percent, discount, vat, total) => {
    const result = discounted('venue', rands, 1, { kind: 'percent', percent })
    expect(formatAmount(result.discountCents)).toBe(discount)
    expect(formatAmount(result.vatCents)).toBe(vat)
    expect(formatAmount(result.totalCents)).toBe(total)
  })

  it('rounds each delegate’s discount before multiplying, so every delegate pays the same whole cents', () => {
    // 30% of R33.33 is R9.999 a delegate: R10.00 each, R70.00 for seven (not R69.99 from rounding R69.993).
    expect(discounted('online', 33.33, 7, { kind: 'percent', percent: 30 }).discountCents).toBe(7_000)
  })

  it('charges VAT on the discounted amount at the rate given', () => {
    const result = discounted('venue', 8490, 1, { kind: 'percent', percent: 50 }, 0.14)
    expect(result).toEqual({ fullSubtotalCents: 849_000, discountCents: 424_500, subtotalCents: 424_500, vatCents: 59_430, totalCents: 483_930, vatRate: 0.14 })
  })
})

describe('discounts: amounts off and complimentary seats', () => {
  it('takes a rand amount off each delegate', () => {
    const result = discounted('venue', 8490, 2, { kind: 'amount', amountCents: 100_000 })
    expect(result).toMatchObject({ discountCents: 200_000, subtotalCents: 1_498_000, vatCents: 224_700, totalCents: 1_722_700 })
  })

  it('never takes off more than a delegate’s price', () => {
    const result = discounted('online', 5490, 2, { kind: 'amount', amountCents: 999_900 })
    expect(result).toMatchObject({ discountCents: 1_098_000, subtotalCents: 0, vatCents: 0, totalCents: 0 })
  })

  it.each([
    ['venue', 8490],
    ['early-bird', 7490],
    ['online', 5490],
  ] as const)('makes a complimentary %s seat cost R 0 with no VAT', (key, rands) => {
    expect(discounted(key, rands, 1, { kind: 'complimentary' })).toEqual({
      fullSubtotalCents: randsToCents(rands),
      discountCents: randsToCents(rands),
      subtotalCents: 0,
      vatCents: 0,
      totalCents: 0,
      vatRate: 0.15,
    })
  })

  it.each([
    ['a percentage', { kind: 'percent', percent: 30 }, 1_797_000],
    ['an amount per delegate seated', { kind: 'amount', amountCents: 100_000 }, 300_000],
    ['an amount no more than the table', { kind: 'amount', amountCents: 5_000_000 }, 5_990_000],
    ['everything', { kind: 'complimentary' }, 5_990_000],
  ] as const)('takes %s off a table’s flat price', (_what, discount, discountCents) => {
    expect(discounted('table-10', 59_900, 3, discount).discountCents).toBe(discountCents)
  })
})

describe('discounts: which options they apply to', () => {
  it.each([
    [{}, 'venue', true],
    [{}, 'early-bird', true],
    [{}, 'online', true],
    [{}, 'table-5', false],
    [{}, 'table-10', false],
    [{ includesTables: true }, 'table-10', true],
    [{ optionKeys: ['online'] }, 'online', true],
    [{ optionKeys: ['online'] }, 'venue', false],
    [{ optionKeys: ['online'] }, 'early-bird', false],
    [{ optionKeys: [] }, 'venue', true],
    [{ optionKeys: ['table-5'] }, 'table-5', false],
    [{ optionKeys: ['table-5'], includesTables: true }, 'table-5', true],
    [{ optionKeys: ['table-5'], includesTables: true }, 'table-10', false],
  ] as const)('scope %j applies to %s: %s', (scope, key, applies) => {
    expect(discountAppliesTo(scope, key)).toBe(applies)
  })
})

describe('discounts: composed with the option’s price', () => {
  it('prices a per-delegate option less the discount, and leaves an option outside its scope at full price', () => {
    const venue = { key: 'venue', amountCents: 849_000 } as const
    expect(discountedQuote(venue, 2, 0.15, { kind: 'percent', percent: 30 })).toMatchObject({ discountCents: 509_400, totalCents: 1_366_890 })
    expect(discountedQuote(venue, 2, 0.15, { kind: 'percent', percent: 30 }, { optionKeys: ['online'] })).toMatchObject({
      discountCents: 0,
      totalCents: 1_952_700,
    })
    expect(discountedQuote({ key: 'table-5', amountCents: 3_495_000 }, 5, 0.15, { kind: 'percent', percent: 30 })).toMatchObject({ discountCents: 0 })
    expect(discountedQuote(venue, 1, 0.15)).toEqual({
      fullSubtotalCents: 849_000,
      discountCents: 0,
      subtotalCents: 849_000,
      vatCents: 127_350,
      totalCents: 976_350,
      vatRate: 0.15,
    })
  })
})

describe('discounts: invalid input', () => {
  it.each([
    { kind: 'percent', percent: 0 },
    { kind: 'percent', percent: 101 },
    { kind: 'percent', percent: 12.5 },
    { kind: 'percent', percent: Number.NaN },
    { kind: 'amount', amountCents: 0 },
    { kind: 'amount', amountCents: -100 },
    { kind: 'amount', amountCents: 10.5 },
    { kind: 'voucher' },
  ])('refuses %j', (discount) => {
    expect(() => assertDiscount(discount as Discount)).toThrow(RangeError)
    expect(() => discountOnLine({ key: 'venue', amountCents: 100 }, 1, discount as Discount)).toThrow(RangeError)
  })

  it('refuses to take off more than the subtotal, or a negative discount', () => {
    const full = quote({ key: 'venue', amountCents: 100 }, 1)
    expect(() => applyDiscount(full, 101)).toThrow(RangeError)
    expect(() => applyDiscount(full, -1)).toThrow(RangeError)
    expect(() => applyDiscount(full, 0.5)).toThrow(RangeError)
  })
})
