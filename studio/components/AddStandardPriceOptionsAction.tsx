import { AddIcon } from '@sanity/icons'
import { useToast } from '@sanity/ui'
import { useState } from 'react'
import { useClient, useDocumentOperation, type DocumentActionComponent } from 'sanity'
import { SANITY_API_VERSION } from '../lib/apiVersion.ts'
import { standardPriceOptions } from '../lib/newEvent.ts'

type EventFields = { kind?: string; title?: string; priceOptions?: { _ref?: string }[] }

/** "Add standard price options" on events: creates the standard options the event lacks and adds them to it. */
export const AddStandardPriceOptionsAction: DocumentActionComponent = (props) => {
  const client = useClient({ apiVersion: SANITY_API_VERSION })
  const { patch } = useDocumentOperation(props.id, props.type)
  const toast = useToast()
  const [isAdding, setIsAdding] = useState(false)
  const event = (props.draft ?? props.published) as EventFields | null
  return {
    label: isAdding ? 'Adding price options…' : 'Add standard price options',
    icon: AddIcon,
    disabled: event === null || isAdding,
    title: event === null ? 'Edit the new event once first' : 'Venue, early-bird and online, and tables for a conference, at the usual prices',
    onHandle: async () => {
      if (event === null) return
      setIsAdding(true)
      try {
        const ids = (event.priceOptions ?? []).flatMap((reference) => (reference._ref ? [reference._ref] : []))
        const existingKeys = ids.length === 0 ? [] : await client.fetch<string[]>('*[_id in $ids].key', { ids })
        const { priceOptions, references } = standardPriceOptions(event, existingKeys, () => crypto.randomUUID())
        if (priceOptions.length === 0) {
          toast.push({ status: 'info', title: 'The event already has every standard price option' })
          return
        }
        const transaction = client.transaction()
        for (const option of priceOptions) transaction.create(option)
        await transaction.commit()
        patch.execute([{ setIfMissing: { priceOptions: [] } }, { insert: { after: 'priceOptions[-1]', items: references } }])
      } finally {
        setIsAdding(false)
        props.onComplete()
      }
    },
  }
}
