// `sanity migration run 2026-11-27-vat-rate-percentage` (from studio/): the site settings' VAT rate, stored as a fraction
// (0.15) before, becomes the percentage editors now enter (15). The site reads either while it runs.
import { at, defineMigration, set } from 'sanity/migrate'

/** The percentage of a rate stored as a fraction (0 < rate < 1), or undefined when it is one already. */
export function percentOf(rate: unknown): number | undefined {
  return typeof rate === 'number' && rate > 0 && rate < 1 ? Math.round(rate * 10_000) / 100 : undefined
}

export default defineMigration({
  title: 'VAT rate as a percentage (0.15 becomes 15)',
  documentTypes: ['siteSettings'],
  migrate: {
    document(settings) {
      const percent = percentOf(settings.vatRate)
      return percent === undefined ? undefined : at('vatRate', set(percent))
    },
  },
})
