import { CopyIcon } from '@sanity/icons'
import { useState } from 'react'
import { useClient, type DocumentActionComponent } from 'sanity'
import { useRouter } from 'sanity/router'
import { SANITY_API_VERSION } from '../lib/apiVersion.ts'
import { duplicateForNextYear } from '../lib/nextYear.ts'
import type { ContentDocument } from '../lib/rules.ts'

/**
 * "Duplicate for next year" on events: creates next year's event as a draft, its price options and agenda a year on
 * (see duplicateForNextYear), and opens it.
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
        const copy = duplicateForNextYear(event, () => crypto.randomUUID())
        await client.create(copy)
        router.navigateIntent('edit', { id: copy._id.replace(/^drafts\./, ''), type: 'event' })
      } finally {
        setIsCopying(false)
        props.onComplete()
      }
    },
  }
}
