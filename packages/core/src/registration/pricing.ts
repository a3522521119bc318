import { randsToCents } from '@events/pricing'
import type { RegistrationPriceOption } from '../catalog.ts'
import type { DiscountCodeRow } from '../db/tables/discount-codes.ts'
import { priceWithDiscount, type DiscountedRegistrationPrice } from '../discounts/codes.ts'

/** What a registration of `delegateCount` delegates on an option costs: its unit price and the priced quote. */
export type PricedRegistration = DiscountedRegistrationPrice

/**
 * Prices an option for a number of delegates at the VAT rate, less the discount code's discount when one is used: the
 * one rule registrations and quotations share.
 */
export function priceRegistration(option: RegistrationPriceOption, delegateCount: number, vatRate: number, code?: DiscountCodeRow): PricedRegistration {
  return priceWithDiscount(option, randsToCents(option.amount), delegateCount, vatRate, code)
}
