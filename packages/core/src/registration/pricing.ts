import { randsToCents, type Attendance, type AttendancePart, type AttendanceQuote } from '@events/pricing'
import type { RegistrationPriceOption } from '../catalog.ts'
import type { DiscountCodeRow } from '../db/tables/discount-codes.ts'
import { priceWithDiscount } from '../discounts/codes.ts'

/**
 * Prices a booking's delegates of each kind of attendance at their option, at the VAT rate, less the discount code's
 * discount when one is used: the one rule registrations and quotations share.
 */
export function priceRegistration(
  options: Partial<Record<Attendance, RegistrationPriceOption>>,
  delegates: Record<Attendance, number>,
  vatRate: number,
  code?: DiscountCodeRow,
): AttendanceQuote {
  const parts: Partial<Record<Attendance, AttendancePart>> = {}
  for (const attendance of ['venue', 'online'] as const) {
    const option = options[attendance]
    if (option && delegates[attendance] > 0)
      parts[attendance] = { option: { key: option.key, amountCents: randsToCents(option.amount) }, delegates: delegates[attendance] }
  }
  return priceWithDiscount(parts, vatRate, code)
}
