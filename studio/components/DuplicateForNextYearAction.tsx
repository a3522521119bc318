import { CopyIcon } from '@sanity/icons'
import { useToast } from '@sanity/ui'
import { useState, type FormEvent } from 'react'
import { useClient, type DocumentActionComponent } from 'sanity'
import { useRouter } from 'sanity/router'
import { SANITY_API_VERSION } from '../lib/apiVersion.ts'
import { duplicateForNextYear, type NextYearChoices, type NextYearDates } from '../lib/nextYear.ts'
import { checkPreviousYearMentions, placeInWords, type ContentDocument } from '../lib/rules.ts'

/** The choices of the copy: how its dates move on, and a price change in percent (empty for none). */
function NextYearForm({ onDuplicate }: { onDuplicate: (choices: NextYearChoices) => void }) {
  const [dates, setDates] = useState<NextYearDates>('same-weekday')
  const [percent, setPercent] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const priceChangePercent = Number(percent.replace(',', '.'))
    onDuplicate({ dates, ...(percent.trim() && Number.isFinite(priceChangePercent) ? { priceChangePercent } : {}) })
  }
  return (
    <form onSubmit={submit} style={{ display: 'grid', gap: '1em', padding: '1em' }}>
      <fieldset style={{ border: 0, padding: 0, display: 'grid', gap: '0.5em' }}>
        <legend>Dates</legend>
        <label>
          <input type="radio" name="dates" checked={dates === 'same-weekday'} onChange={() => setDates('same-weekday')} /> The same weekday a year on (52 weeks
          later)
        </label>
        <label>
          <input type="radio" name="dates" checked={dates === 'same-date'} onChange={() => setDates('same-date')} /> The same calendar date
        </label>
      </fieldset>
      <label style={{ display: 'grid', gap: '0.25em' }}>
        Change every price by (%), rounded to the rand; leave empty to keep them
        <input type="number" step="0.1" inputMode="decimal" value={percent} onChange={(event) => setPercent(event.target.value)} />
      </label>
      <button type="submit">Duplicate</button>
    </form>
  )
}

/**
 * "Duplicate for next year" on events: asks how the dates move on and whether the prices change, creates next
 * year's event as a draft, its price options and agenda a year on (see duplicateForNextYear), and opens its form.
 */
export const DuplicateForNextYearAction: DocumentActionComponent = (props) => {
  const client = useClient({ apiVersion: SANITY_API_VERSION })
  const router = useRouter()
  const toast = useToast()
  const [isAsking, setIsAsking] = useState(false)
  const [isCopying, setIsCopying] = useState(false)
  const event = (props.draft ?? props.published) as ContentDocument | null

  const duplicate = async (choices: NextYearChoices) => {
    if (event === null) return
    setIsAsking(false)
    setIsCopying(true)
    try {
      const copy = duplicateForNextYear(event, () => crypto.randomUUID(), choices)
      await client.create(copy)
      // Straight to the new event's form (Events › the event › Event), rather than to the list of its parts.
      router.navigate({ panes: [[{ id: 'events' }], [{ id: copy._id.replace(/^drafts\./, '') }], [{ id: 'event' }]] })
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
  }

  return {
    label: isCopying ? 'Duplicating…' : 'Duplicate for next year',
    icon: CopyIcon,
    disabled: event === null || isCopying,
    title: event === null ? 'Save the event first' : 'A new draft event a year later, with its own price options and agenda',
    onHandle: () => setIsAsking(true),
    dialog: isAsking
      ? {
          type: 'dialog',
          header: 'Duplicate for next year',
          onClose: () => {
            setIsAsking(false)
            props.onComplete()
          },
          content: <NextYearForm onDuplicate={(choices) => void duplicate(choices)} />,
        }
      : null,
  }
}
