import { CopyIcon } from '@sanity/icons'
import { useToast } from '@sanity/ui'
import { useState } from 'react'
import { useClient, type DocumentActionComponent } from 'sanity'
import { useRouter } from 'sanity/router'
import { SANITY_API_VERSION } from '../lib/apiVersion.ts'
import { duplicateForNextYear } from '../lib/nextYear.ts'
import { checkPreviousYearMentions, placeInWords, type ContentDocument } from '../lib/rules.ts'

/**
 * "Duplicate for next year" on events: creates next year's event as a draft, its price options and agenda a year on
 * (see duplicateForNextYear), and opens it.
 */
export const DuplicateForNextYearAction: DocumentActionComponent = (props) => {
  const client = useClient({ apiVersion: SANITY_API_VERSION })
  const router = useRouter()
  const toast = useToast()
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
        // The checklist: what still names last year, in the editor's words, also listed among the new event's
        // warnings until it is edited; it stays until closed, since it is worked through one item at a time.
        const previousYear = String(Number(String(copy.start ?? '').slice(0, 4)) - 1)
        const stale = checkPreviousYearMentions(copy).map(
          (finding) => `${typeof finding === 'string' ? 'Title' : placeInWords(copy, finding.path)}: still mentions ${previousYear}`,
        )
        if (stale.length > 0) {
          toast.push({
            status: 'warning',
            duration: Infinity,
            closable: true,
            title: `${stale.length} field${stale.length === 1 ? '' : 's'} still mention last year`,
            description: stale.join('; '),
          })
        }
      } finally {
        setIsCopying(false)
        props.onComplete()
      }
    },
  }
}
