import { Link, useFetcher } from 'react-router'
import { fieldError, NETWORK_FAILURE, SERVER_FAULT, type FormOutcome } from '../lib/form-outcome'
import { ErrorSummary, HoneypotField, SuccessMessage } from './FormMessages'

/** The waiting-list form's fields as typed (the core's waitingListSchema, the event named by the route). */
export interface WaitingListValues extends Record<string, string> {
  name: string
  companyName: string
  email: string
  tel: string
  seats: string
  attendance: string
}
export type WaitingListOutcome = FormOutcome<WaitingListValues>

const textFields = [
  { name: 'name', label: 'Name', type: 'text', autoComplete: 'name' },
  { name: 'companyName', label: 'Company name', type: 'text', autoComplete: 'organization' },
  { name: 'email', label: 'E-mail', type: 'email', autoComplete: 'email' },
  { name: 'tel', label: 'Telephone', type: 'tel', autoComplete: 'tel' },
] as const

const attendanceLabels = { venue: 'At the venue', online: 'Online' } as const

const summaryFields = [
  ...textFields.map((field) => ({ name: field.name, id: `waiting-${field.name}`, label: field.label })),
  { name: 'seats', id: 'waiting-seats', label: 'Seats wanted' },
  { name: 'attendance', id: 'waiting-attendance', label: 'Attendance' },
]

function failureText(outcome: WaitingListOutcome): string {
  if (outcome.status !== 'error') return ''
  if (outcome.code === NETWORK_FAILURE) return 'Network error. Please try again.'
  if (outcome.code === SERVER_FAULT) return `Your request could not be sent: ${outcome.message}`
  return outcome.message
}

/**
 * Joining a sold-out event's waiting list: name, company, e-mail, telephone, seats wanted (1-10) and venue or online.
 * It posts to the event's waiting-list page (`action`): without JavaScript that page answers with the form again
 * (errors and what was typed) or the thank-you; with it, in the background, and the answer shows here.
 */
export function WaitingListForm({
  action,
  attendances,
  outcome: pageOutcome,
}: {
  action: string
  /** The ways of attending the event offers, each sold out. */
  attendances: ReadonlyArray<'venue' | 'online'>
  outcome?: WaitingListOutcome | undefined
}) {
  const fetcher = useFetcher<WaitingListOutcome>({ key: `waiting-list:${action}` })
  const busy = fetcher.state !== 'idle'
  const outcome = busy ? undefined : (fetcher.data ?? pageOutcome)
  if (outcome?.status === 'success') return <SuccessMessage>{outcome.message}</SuccessMessage>
  const failure = outcome?.status === 'error' ? outcome : undefined
  const values: Partial<WaitingListValues> = failure?.values ?? {}
  const errorFor = (name: string) => fieldError(failure, name)
  const invalid = (name: string) => (errorFor(name) ? { 'aria-invalid': true as const, 'aria-describedby': `waiting-${name}-error` } : {})
  const errorText = (name: string) =>
    errorFor(name) ? (
      <p className="form__error" id={`waiting-${name}-error`}>
        {errorFor(name)}
      </p>
    ) : null
  const chosen = values.attendance || (attendances.length === 1 ? attendances[0] : '')

  return (
    <fetcher.Form method="post" action={action} className="form waiting-list-form" noValidate key={failure ? JSON.stringify(values) : 'blank'}>
      {failure && <ErrorSummary title={failureText(failure)} fields={summaryFields} messages={failure.fields} />}
      <HoneypotField idPrefix="waiting" />
      {textFields.map((field) => (
        <div className="form__field" key={field.name}>
          <label htmlFor={`waiting-${field.name}`}>{field.label}</label>
          <input
            id={`waiting-${field.name}`}
            name={field.name}
            type={field.type}
            autoComplete={field.autoComplete}
            required
            defaultValue={values[field.name]}
            {...invalid(field.name)}
          />
          {errorText(field.name)}
        </div>
      ))}
      <div className="form__field">
        <label htmlFor="waiting-seats">Seats wanted (1 to 10)</label>
        <input
          id="waiting-seats"
          name="seats"
          type="number"
          inputMode="numeric"
          min={1}
          max={10}
          required
          defaultValue={values.seats ?? '1'}
          {...invalid('seats')}
        />
        {errorText('seats')}
      </div>
      <fieldset className="form__group" aria-describedby={errorFor('attendance') ? 'waiting-attendance-error' : undefined}>
        <legend id="waiting-attendance" tabIndex={-1}>
          Attendance
        </legend>
        {attendances.map((attendance) => (
          <div className="form__choice" key={attendance}>
            <input type="radio" id={`waiting-attendance-${attendance}`} name="attendance" value={attendance} defaultChecked={chosen === attendance} />
            <label htmlFor={`waiting-attendance-${attendance}`}>{attendanceLabels[attendance]}</label>
          </div>
        ))}
        {errorText('attendance')}
      </fieldset>
      <p className="form__notice">
        We keep your name, company and contact details only to offer you seats of this event, and keep them no longer than needed for that. See our{' '}
        <Link to="/privacy">privacy notice</Link> for your rights.
      </p>
      <button type="submit" className="button" disabled={busy}>
        {busy ? 'Submitting...' : 'Join the waiting list'}
      </button>
    </fetcher.Form>
  )
}
