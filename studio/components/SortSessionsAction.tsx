import { SortIcon } from '@sanity/icons'
import { useToast } from '@sanity/ui'
import { useDocumentOperation, type DocumentActionComponent } from 'sanity'
import { sortSessionsPatches } from '../lib/sessionOrder.ts'

type EventFields = { agendaDays?: { _key?: string; sessions?: { _key?: string; start?: string }[] }[] }

/** "Sort sessions by start time" on events: puts each agenda day's sessions in start-time order after retiming. */
export const SortSessionsAction: DocumentActionComponent = (props) => {
  const { patch } = useDocumentOperation(props.id, props.type)
  const toast = useToast()
  const event = (props.draft ?? props.published) as EventFields | null
  return {
    label: 'Sort sessions by start time',
    icon: SortIcon,
    disabled: event === null || (event.agendaDays ?? []).length === 0,
    title: 'Each agenda day in start-time order; no session moves to another day',
    onHandle: () => {
      const patches = sortSessionsPatches(event?.agendaDays ?? [])
      if (patches.length === 0) toast.push({ status: 'info', title: 'Every agenda day is already in start-time order' })
      else patch.execute(patches)
      props.onComplete()
    },
  }
}
