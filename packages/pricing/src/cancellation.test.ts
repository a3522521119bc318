import { describe, expect, it } from 'vitest'
import { cancellationCredit, quote, vatOn } from './quote.ts'

describe('cancellation credit', () => {
  // 3 delegates at R 7 990.00: R 23 970.00 + R 3 595.50 VAT = R 27 565.50.
  const charged = { subtotalCents: 2_397_000, vatCents: 359_550, vatRate: 0.15 }

  it.each([
    // cancelled excl. VAT, fee %, fee excl. VAT, credited excl. VAT, VAT, incl. VAT
    [2_397_000, 0, 0, 2_397_000, 359_550, 2_756_550],
    [2_397_000, 50, 1_198_500, 1_198_500, 179_775, 1_378_275],
    [2_397_000, 100, 2_397_000, 0, 0, 0],
    [799_000, 50, 399_500, 399_500, 59_925, 459_425],
    [799_000, 0, 0, 799_000, 119_850, 918_850],
    // 15% of R 5 353.30 would be R 802.995, but the credit is R 3 595.50 less the R 2 792.51 VAT on the R 18 616.70 left.
    [799_000, 33, 263_670, 535_330, 80_299, 615_629],
  ])('cancelling %i cents at %i%%: fee %i, credit %i + %i = %i', (cancelled, percent, fee, subtotal, vat, total) => {
    expect(cancellationCredit(charged, cancelled, percent)).toEqual({
      feeSubtotalCents: fee,
      creditedSubtotalCents: subtotal,
      creditedVatCents: vat,
      creditedTotalCents: total,
    })
  })

  it('leaves what is still owed priced as a quote: a subtotal plus its own rounded VAT', () => {
    // Odd cents make the half-up rounding show: R 3.33 carries R 0.50 VAT, R 2.78 carries R 0.42.
    const odd = { subtotalCents: 333, vatCents: vatOn(333), vatRate: 0.15 }
    const credit = cancellationCredit(odd, 111, 50)
    const remaining = odd.subtotalCents - credit.creditedSubtotalCents
    expect(odd.vatCents - credit.creditedVatCents).toBe(vatOn(remaining))
    expect(vatOn(remaining)).toBe(quote({ key: 'table-5', amountCents: remaining }, 1).vatCents)
  })

  it('refuses more than is charged, a fee outside 0 to 100% and fractions of a cent', () => {
    expect(() => cancellationCredit(charged, 2_397_001, 0)).toThrow(RangeError)
    expect(() => cancellationCredit(charged, 100, 101)).toThrow(RangeError)
    expect(() => cancellationCredit(charged, 100, 12.5)).toThrow(RangeError)
    expect(() => cancellationCredit(charged, 100.5, 0)).toThrow(RangeError)
  })
})
