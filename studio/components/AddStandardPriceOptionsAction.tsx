import { AddIcon } from '@sanity/icons'
import { useToast } from '@sanity/ui'
import { useDocumentOperation, type DocumentActionComponent } from 'sanity'
import { standardPriceOptions } from '../lib/newEvent.ts'

type EventFields = { kind?: string; priceOptions?: { key?: string }[] }

/** "Add standard price options" on events: appends the standard options the event lacks to its price options. */
export const AddStandardPriceOptionsAction: DocumentActionComponent = (props) => {
  const { patch } = useDocumentOperation(props.id, props.type)
  const toast = useToast()
  const event = (props.draft ?? props.published) as EventFields | null
  return {
    label: 'Add standard price options',
    icon: AddIcon,
    disabled: event === null,
    title: event === null ? 'Edit the new event once first' : 'Venue, early-bird and online, and tables for a conference, at the usual prices',
    onHandle: () => {
      if (event === null) return
      const items = standardPriceOptions(event, () => crypto.randomUUID())
      if (items.length === 0) toast.push({ status: 'info', title: 'The event already has every standard price option' })
      else patch.execute([{ setIfMissing: { priceOptions: [] } }, { insert: { after: 'priceOptions[-1]', items } }])
      props.onComplete()
    },
  }
}
