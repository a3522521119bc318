import { assertWholeCents } from './money.ts'
import { assertDelegateCount, assertOptionKey, isTableOption, type OptionKey } from './options.ts'

/** South African VAT; the site setting overrides it. */
export const DEFAULT_VAT_RATE = 0.15

const BASIS_POINTS_PER_UNIT = 10_000n

/** An option with its price excluding VAT: per delegate, or flat for a table. */
export interface PricedOption {
  key: OptionKey
  amountCents: number
}

/** What a registration costs, in cents; the total is what the visitor pays. */
export interface Quote {
  subtotalCents: number
  vatCents: number
  totalCents: number
  vatRate: number
}

/** Prices a registration: per-delegate options times the delegates, tables flat, VAT rounded half-up to the cent. */
export function quote(option: PricedOption | undefined, delegateCount: number, vatRate: number = DEFAULT_VAT_RATE): Quote {
  assertDelegateCount(delegateCount)
  const vatBasisPoints = toBasisPoints(vatRate)
  if (option === undefined) return { subtotalCents: 0, vatCents: 0, totalCents: 0, vatRate }

  assertOptionKey(option.key)
  assertWholeCents(option.amountCents, 'Option price')
  if (option.amountCents < 0) throw new RangeError(`Option price must not be negative, got ${option.amountCents}`)

  const subtotalCents = isTableOption(option.key) ? option.amountCents : option.amountCents * delegateCount
  assertWholeCents(subtotalCents, 'Subtotal')
  const vatCents = percentageHalfUp(subtotalCents, vatBasisPoints)
  const totalCents = subtotalCents + vatCents
  assertWholeCents(totalCents, 'Total')
  return { subtotalCents, vatCents, totalCents, vatRate }
}

// The rate becomes whole basis points (0.15 -> 1500) so that the VAT itself is computed in exact integers;
// the product is taken in BigInt because cents times basis points can pass Number.MAX_SAFE_INTEGER.
function toBasisPoints(vatRate: number): bigint {
  const basisPoints = Number((vatRate * 10_000).toPrecision(12))
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0) {
    throw new RangeError(`VAT rate must be a non-negative number with at most four decimals, got ${vatRate}`)
  }
  return BigInt(basisPoints)
}

function percentageHalfUp(nonNegativeCents: number, basisPoints: bigint): number {
  const halfCent = BASIS_POINTS_PER_UNIT / 2n
  return Number((BigInt(nonNegativeCents) * basisPoints + halfCent) / BASIS_POINTS_PER_UNIT)
}

/** VAT on an amount excluding VAT, rounded half-up to the cent as on every quote. */
export function vatOn(subtotalCents: number, vatRate: number = DEFAULT_VAT_RATE): number {
  assertWholeCents(subtotalCents, 'Subtotal')
  if (subtotalCents < 0) throw new RangeError(`Subtotal must not be negative, got ${subtotalCents}`)
  return percentageHalfUp(subtotalCents, toBasisPoints(vatRate))
}

/** What is still charged on a tax invoice after earlier credits, excl. VAT and VAT. */
export interface ChargedAmounts {
  subtotalCents: number
  vatCents: number
  vatRate: number
}

/** A cancellation's fee and what its credit note takes off the invoice, in cents. */
export interface CancellationCredit {
  feeSubtotalCents: number
  creditedSubtotalCents: number
  creditedVatCents: number
  creditedTotalCents: number
}

/**
 * Prices cancelling part (or all) of what an invoice still charges: the fee is `feePercent` of the cancelled amount
 * excl. VAT, rounded half-up; the rest is credited. The VAT credited is the VAT on what was charged less the VAT on
 * what remains, so what the registrant still owes is always a subtotal plus its own rounded VAT.
 */
export function cancellationCredit(charged: ChargedAmounts, cancelledSubtotalCents: number, feePercent: number): CancellationCredit {
  assertWholeCents(cancelledSubtotalCents, 'Cancelled amount')
  if (cancelledSubtotalCents < 0 || cancelledSubtotalCents > charged.subtotalCents) {
    throw new RangeError(`Cancelled amount must be between 0 and ${charged.subtotalCents} cents, got ${cancelledSubtotalCents}`)
  }
  if (!Number.isInteger(feePercent) || feePercent < 0 || feePercent > 100)
    throw new RangeError(`Fee must be a whole percentage from 0 to 100, got ${feePercent}`)
  const feeSubtotalCents = Number((BigInt(cancelledSubtotalCents) * BigInt(feePercent) + 50n) / 100n)
  const creditedSubtotalCents = cancelledSubtotalCents - feeSubtotalCents
  const remainingSubtotalCents = charged.subtotalCents - creditedSubtotalCents
  const creditedVatCents = charged.vatCents - vatOn(remainingSubtotalCents, charged.vatRate)
  return { feeSubtotalCents, creditedSubtotalCents, creditedVatCents, creditedTotalCents: creditedSubtotalCents + creditedVatCents }
}
