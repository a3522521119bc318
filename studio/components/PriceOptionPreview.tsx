import type { PreviewProps } from 'sanity'
import { PriceSummary } from './PriceSummary.tsx'

/** The values the price option's `preview.prepare` hands over besides the title. */
export type PriceOptionPreviewValue = { optionKey?: unknown; amount?: unknown }

/** A price option in lists: its title, and its price at the site settings' VAT rate. */
export function PriceOptionPreview(props: PreviewProps & PriceOptionPreviewValue) {
  const { optionKey, amount } = props
  const subtitle = typeof amount === 'number' ? <PriceSummary optionKey={optionKey} amount={amount} /> : 'No amount yet'
  return props.renderDefault({ ...props, subtitle })
}
