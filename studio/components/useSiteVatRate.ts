import { useEffect, useState } from 'react'
import { useDocumentStore } from 'sanity'
import { checkVatRate } from '../lib/rules.ts'
import { SITE_SETTINGS_ID } from '../lib/siteSettingsId.ts'

const VAT_RATE_QUERY = '*[_id == $id][0].vatRate'

/**
 * The VAT rate of the site settings, the rate the site charges, as the fraction the pricing package takes (the
 * settings hold a percentage), followed live as the settings change; undefined until it is known or while it is not
 * a valid rate.
 */
export function useSiteVatRate(): number | undefined {
  const documentStore = useDocumentStore()
  const [vatRate, setVatRate] = useState<number>()
  useEffect(() => {
    const subscription = documentStore.listenQuery(VAT_RATE_QUERY, { id: SITE_SETTINGS_ID }, {}).subscribe((rate: unknown) => {
      setVatRate(typeof rate === 'number' && checkVatRate(rate) === undefined ? rate / 100 : undefined)
    })
    return () => subscription.unsubscribe()
  }, [documentStore])
  return vatRate
}
