import { quote, randsToCents, type Quote } from '@events/pricing'
import type { RegistrationPriceOption } from '../catalog.ts'

/** What a registration of `delegateCount` delegates on an option costs: its unit price and the priced quote. */
export interface PricedRegistration {
  unitAmountCents: number
  price: Quote
}

/** Prices an option for a number of delegates at the VAT rate: the one rule registrations and quotations share. */
export function priceRegistration(option: RegistrationPriceOption, delegateCount: number, vatRate: number): PricedRegistration {
  const unitAmountCents = randsToCents(option.amount)
  return { unitAmountCents, price: quote({ key: option.key, amountCents: unitAmountCents }, delegateCount, vatRate) }
}
