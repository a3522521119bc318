import { describe, expect, it } from 'vitest'
import { attendanceQuote, isAttendance } from './attendance.ts'
import type { Discount, DiscountScope } from './discount.ts'
import { formatAmount, randsToCents } from './money.ts'
import type { OptionKey } from './options.ts'
import { quote } from './quote.ts'

const rands = (key: OptionKey, amount: number) => ({ key, amountCents: randsToCents(amount) })

// Mixed bookings on the Resilience prices (venue R8490, early-bird R7490, online R5490 excl. VAT) and two made-up prices
// with odd cents. Worked out independently with decimal arithmetic: each delegate at their own price, the discount per
// delegate half-up to the cent, then VAT 15% once on the total, half-up to the cent.
const mixed: [
  name: string,
  venue: [OptionKey, number],
  venueDelegates: number,
  online: number,
  onlineDelegates: number,
  subtotal: string,
  vat: string,
  total: string,
][] = [
  ['2 at the venue and 1 online', ['venue', 8490], 2, 5490, 1, '22470.00', '3370.50', '25840.50'],
  ['2 early-bird and 1 online', ['early-bird', 7490], 2, 5490, 1, '20470.00', '3070.50', '23540.50'],
  ['1 at the venue and 3 online', ['venue', 8490], 1, 5490, 3, '24960.00', '3744.00', '28704.00'],
  ['only online', ['venue', 8490], 0, 5490, 2, '10980.00', '1647.00', '12627.00'],
  ['only at the venue', ['venue', 8490], 3, 5490, 0, '25470.00', '3820.50', '29290.50'],
  ['VAT on the total rounds half-up once', ['venue', 100.03], 1, 50.01, 1, '150.04', '22.51', '172.55'],
  ['a table, flat, nobody online', ['table-10', 50000], 7, 5490, 0, '50000.00', '7500.00', '57500.00'],
]

describe('attendanceQuote: venue and online delegates in one booking', () => {
  it.each(mixed)('%s', (_name, [venueKey, venuePrice], venueDelegates, onlinePrice, onlineDelegates, subtotal, vat, total) => {
    const result = attendanceQuote(
      {
        venue: { option: rands(venueKey, venuePrice), delegates: venueDelegates },
        online: { option: rands('online', onlinePrice), delegates: onlineDelegates },
      },
      0.15,
    )
    expect([formatAmount(result.subtotalCents), formatAmount(result.vatCents), formatAmount(result.totalCents)]).toEqual([subtotal, vat, total])
    expect(result.lines.map((line) => [line.attendance, line.delegates])).toEqual(
      [
        ['venue', venueDelegates],
        ['online', onlineDelegates],
      ].filter(([, delegates]) => delegates !== 0),
    )
  })

  it('prices one kind of attendance exactly as the single-option quote does', () => {
    for (const delegates of [1, 3, 7]) {
      const single = quote(rands('online', 5490), delegates)
      const result = attendanceQuote({ online: { option: rands('online', 5490), delegates } }, 0.15)
      expect([result.subtotalCents, result.vatCents, result.totalCents]).toEqual([single.subtotalCents, single.vatCents, single.totalCents])
    }
  })

  it('refuses a table online: tables are only at the venue', () => {
    expect(() => attendanceQuote({ online: { option: rands('table-5', 30000), delegates: 1 } }, 0.15)).toThrow(RangeError)
  })

  it('refuses a negative or fractional number of delegates', () => {
    expect(() => attendanceQuote({ venue: { option: rands('venue', 8490), delegates: -1 } }, 0.15)).toThrow(RangeError)
    expect(() => attendanceQuote({ online: { option: rands('online', 5490), delegates: 1.5 } }, 0.15)).toThrow(RangeError)
  })

  it('knows only venue and online', () => {
    expect(['venue', 'online', 'early-bird', 'Venue', '', undefined, 1].map(isAttendance)).toEqual([true, true, false, false, false, false, false])
  })
})

// Discounts on a booking of 2 at the venue (R8490) and 1 online (R5490): each delegate's discount on their own price.
const discounted: [name: string, discount: Discount, scope: DiscountScope, discountCents: string, unitPrices: [string, string], total: string][] = [
  ['30% on everyone', { kind: 'percent', percent: 30 }, {}, '6741.00', ['5943.00', '3843.00'], '18088.35'],
  ['30% limited to online', { kind: 'percent', percent: 30 }, { optionKeys: ['online'] }, '1647.00', ['8490.00', '3843.00'], '23946.45'],
  [
    'R1000 off per delegate, limited to the venue',
    { kind: 'amount', amountCents: 100_000 },
    { optionKeys: ['venue'] },
    '2000.00',
    ['7490.00', '5490.00'],
    '23540.50',
  ],
  ['R6000 off per delegate: never more than the online price', { kind: 'amount', amountCents: 600_000 }, {}, '17490.00', ['2490.00', '0.00'], '5727.00'],
  ['complimentary', { kind: 'complimentary' }, {}, '22470.00', ['0.00', '0.00'], '0.00'],
]

describe('attendanceQuote: discount codes per delegate', () => {
  it.each(discounted)('%s', (_name, discount, scope, discountCents, [venueUnit, onlineUnit], total) => {
    const result = attendanceQuote(
      { venue: { option: rands('venue', 8490), delegates: 2 }, online: { option: rands('online', 5490), delegates: 1 } },
      0.15,
      discount,
      scope,
    )
    expect(formatAmount(result.discountCents)).toBe(discountCents)
    expect(formatAmount(result.fullSubtotalCents)).toBe('22470.00')
    expect(result.lines.map((line) => formatAmount(line.unitAmountCents))).toEqual([venueUnit, onlineUnit])
    expect(formatAmount(result.totalCents)).toBe(total)
  })
})
