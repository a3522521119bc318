import { assertWholeCents } from './money.ts'
import { assertDelegateCount, assertOptionKey, isTableOption, type OptionKey } from './options.ts'
import { quote, vatOn, type PricedOption, type Quote } from './quote.ts'

/**
 * What a discount code takes off: a whole percentage, a rand amount per delegate, or everything (a complimentary
 * seat). It is applied to the price in force when registering, early-bird included, after the option is chosen.
 */
export type Discount = { kind: 'percent'; percent: number } | { kind: 'amount'; amountCents: number } | { kind: 'complimentary' }

/** Which options a discount applies to: per-delegate options by default, tables only when it says so. */
export interface DiscountScope {
  /** Only these options, when given and not empty. */
  optionKeys?: readonly OptionKey[] | null
  /** Whether the discount applies to table options too. */
  includesTables?: boolean
}

/** A quote after a discount: the full price, what was taken off it, and the VAT on what remains. */
export interface DiscountedQuote extends Quote {
  /** The price before the discount, excl. VAT. */
  fullSubtotalCents: number
  /** What the discount takes off, excl. VAT; subtotalCents is the full price less this. */
  discountCents: number
}

/** Throws a RangeError unless the discount is a whole percentage from 1 to 100 or a positive whole amount in cents. */
export function assertDiscount(discount: Discount): void {
  if (discount.kind === 'percent') {
    if (!Number.isInteger(discount.percent) || discount.percent < 1 || discount.percent > 100) {
      throw new RangeError(`Discount must be a whole percentage from 1 to 100, got ${discount.percent}`)
    }
  } else if (discount.kind === 'amount') {
    assertWholeCents(discount.amountCents, 'Discount amount')
    if (discount.amountCents <= 0) throw new RangeError(`Discount amount must be positive, got ${discount.amountCents}`)
  } else if (discount.kind !== 'complimentary') {
    throw new RangeError(`Unknown discount kind: ${String((discount as { kind: unknown }).kind)}`)
  }
}

/** Whether a discount with this scope applies to an option. */
export function discountAppliesTo(scope: DiscountScope, optionKey: OptionKey): boolean {
  assertOptionKey(optionKey)
  if (isTableOption(optionKey) && scope.includesTables !== true) return false
  const keys = scope.optionKeys ?? []
  return keys.length === 0 || keys.includes(optionKey)
}

/**
 * What a discount takes off one option's line, excl. VAT. Per delegate, the discount is worked out on the delegate's
 * price (a percentage rounded half-up to the cent, an amount never more than the price) and multiplied by the
 * delegates, so every delegate's discounted price is whole cents. A table's flat price takes the percentage, or the
 * amount once per delegate seated, never more than the table costs.
 */
export function discountOnLine(option: PricedOption, delegateCount: number, discount: Discount): number {
  assertOptionKey(option.key)
  assertDelegateCount(delegateCount)
  assertWholeCents(option.amountCents, 'Option price')
  assertDiscount(discount)
  const price = option.amountCents
  if (isTableOption(option.key)) {
    if (discount.kind === 'amount') return Math.min(price, discount.amountCents * delegateCount)
    return discount.kind === 'percent' ? percentOf(price, discount.percent) : price
  }
  const perDelegate =
    discount.kind === 'percent' ? percentOf(price, discount.percent) : discount.kind === 'amount' ? Math.min(price, discount.amountCents) : price
  return perDelegate * delegateCount
}

/** Takes a discount off a quote: VAT is charged on the discounted amount, rounded half-up to the cent. */
export function applyDiscount(full: Quote, discountCents: number): DiscountedQuote {
  assertWholeCents(discountCents, 'Discount')
  if (discountCents < 0 || discountCents > full.subtotalCents) {
    throw new RangeError(`Discount must be between 0 and ${full.subtotalCents} cents, got ${discountCents}`)
  }
  const subtotalCents = full.subtotalCents - discountCents
  const vatCents = vatOn(subtotalCents, full.vatRate)
  return { fullSubtotalCents: full.subtotalCents, discountCents, subtotalCents, vatCents, totalCents: subtotalCents + vatCents, vatRate: full.vatRate }
}

/**
 * Prices an option for some delegates, then takes the discount off its line when there is one (and it applies to the
 * option under `scope`): the one composition registrations, quotations and the Register tab's total share.
 */
export function discountedQuote(option: PricedOption, delegateCount: number, vatRate: number, discount?: Discount, scope: DiscountScope = {}): DiscountedQuote {
  const full = quote(option, delegateCount, vatRate)
  const applies = discount !== undefined && discountAppliesTo(scope, option.key)
  return applyDiscount(full, applies ? discountOnLine(option, delegateCount, discount) : 0)
}

/** How a discount is named on documents: "50%", "R 500.00 per delegate", "complimentary". */
export function discountWording(discount: Discount, formatCents: (cents: number) => string): string {
  if (discount.kind === 'percent') return `${discount.percent}%`
  if (discount.kind === 'amount') return `${formatCents(discount.amountCents)} off per delegate`
  return 'complimentary'
}

function percentOf(cents: number, percent: number): number {
  return Number((BigInt(cents) * BigInt(percent) + 50n) / 100n)
}
