import { isOptionKey } from '@events/pricing'
import { priceSummary } from '../lib/price.ts'
import { useSiteVatRate } from './useSiteVatRate.ts'

/** "R 8 490.00 excl. VAT · R 9 763.50 incl. VAT" at the site settings' VAT rate, or nothing while it is unknown. */
export function PriceSummary({ optionKey, amount }: { optionKey: unknown; amount: unknown }) {
  const vatRate = useSiteVatRate()
  if (!isOptionKey(optionKey) || typeof amount !== 'number' || amount < 0 || vatRate === undefined) return null
  return <>{priceSummary(optionKey, amount, vatRate)}</>
}
