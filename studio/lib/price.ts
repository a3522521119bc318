import { formatRand, quote, randsToCents, type OptionKey } from '@events/pricing'

/** "R 8 490.00 excl. VAT · R 9 763.50 incl. VAT" for one delegate (or the flat table price) at the given VAT rate. */
export function priceSummary(key: OptionKey, amountInRands: number, vatRate: number): string {
  const { subtotalCents, totalCents } = quote({ key, amountCents: randsToCents(amountInRands) }, 1, vatRate)
  return `${formatRand(subtotalCents)} excl. VAT · ${formatRand(totalCents)} incl. VAT`
}
