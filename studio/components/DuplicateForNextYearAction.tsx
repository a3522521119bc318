import { CopyIcon } from '@sanity/icons'
import { useState } from 'react'
import { useClient, type DocumentActionComponent } from 'sanity'
import { useRouter } from 'sanity/router'
import { SANITY_API_VERSION } from '../lib/apiVersion.ts'
import { duplicateForNextYear } from '../lib/nextYear.ts'
import type { ContentDocument } from '../lib/rules.ts'
import { referencedIds } from '../lib/schemaRules.ts'

/**
 * "Duplicate for next year" on events: creates next year's event as a draft with its own price options and
 * agenda sessions (see duplicateForNextYear) and opens it.
 */
export const DuplicateForNextYearAction: DocumentActionComponent = (props) => {
  const client = useClient({ apiVersion: SANITY_API_VERSION })
  const router = useRouter()
  const [isCopying, setIsCopying] = useState(false)
  const event = (props.draft ?? props.published) as ContentDocument | null
  return {
    label: isCopying ? 'Duplicating…' : 'Duplicate for next year',
    icon: CopyIcon,
    disabled: event === null || isCopying,
    title: event === null ? 'Save the event first' : 'A new draft event a year later, with its own price options and agenda',
    onHandle: async () => {
      if (event === null) return
      setIsCopying(true)
      try {
        const ids = [...new Set(referencedIds(event))]
        const referenced = await client.fetch<ContentDocument[]>('*[_id in $ids]', { ids })
        const byId = new Map(referenced.map((document) => [document._id, document]))
        const copy = duplicateForNextYear(event, (id) => byId.get(id), () => crypto.randomUUID())
        const transaction = client.transaction()
        for (const document of [...copy.priceOptions, ...copy.sessions, copy.event]) transaction.create(document)
        await transaction.commit()
        router.navigateIntent('edit', { id: copy.event._id.replace(/^drafts\./, ''), type: 'event' })
      } finally {
        setIsCopying(false)
        props.onComplete()
      }
    },
  }
}
