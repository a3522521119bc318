import type { TrainingKind, TrainingRequest } from '@events/core'
import { useSubmissionToasts } from '../lib/submission-toasts'
import { Link, useFetcher } from 'react-router'
import { fieldError, NETWORK_FAILURE, SERVER_FAULT, type FormOutcome } from '../lib/form-outcome'
import { ErrorSummary, HoneypotField, SuccessMessage } from './FormMessages'

/** The form's fields as typed: the training-request schema's, but the kind, which the route sets. */
export type TrainingValues = Record<Exclude<keyof TrainingRequest, 'kind'>, string>
export type TrainingOutcome = FormOutcome<TrainingValues>

const fields = [
  { name: 'name', label: 'Name', type: 'text', autoComplete: 'name' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'phone', label: 'Business number', type: 'tel', autoComplete: 'tel' },
  { name: 'organization', label: 'Organization', type: 'text', autoComplete: 'organization' },
] as const

/** The specification's words for each outcome of a training request. */
export const trainingMessages = {
  sending: 'Sending request',
  success: 'Your request was submitted successfully.',
  rejected: 'Failed to submit request. Please try again.',
  failed: 'There was an error. Please try again later.',
} as const

/**
 * The toast / summary text for a request not taken: the specification's failure wording when the network or the
 * server failed, the refusal's own words (e.g. the required-fields sentence) when the visitor can put it right.
 */
export function trainingFailureText(outcome: TrainingOutcome): string {
  if (outcome.status !== 'error') return ''
  if (outcome.code === NETWORK_FAILURE) return trainingMessages.failed
  if (outcome.code === SERVER_FAULT) return trainingMessages.rejected
  return outcome.message
}

/**
 * The in-house / online training request form; it posts to the request page's action. Without JavaScript the page
 * shows `outcome`; with it the post goes in the background with toasts and Submitting... / Submitted! on the button.
 */
export function TrainingRequestForm({ kind, action, outcome: pageOutcome }: { kind: TrainingKind; action: string; outcome?: TrainingOutcome | undefined }) {
  const idPrefix = `training-${kind}`
  const fetcher = useFetcher<TrainingOutcome>({ key: `training:${kind}` })
  const busy = useSubmissionToasts(fetcher, {
    loading: trainingMessages.sending,
    success: trainingMessages.success,
    failure: trainingFailureText,
  })
  // Read from the answer in the same render that ends 'Submitting...', so 'Submit Request' never shows between.
  const submitted = !busy && fetcher.data?.status === 'success'

  const outcome = fetcher.data ?? pageOutcome
  const failure = outcome?.status === 'error' && outcome.code !== NETWORK_FAILURE ? outcome : undefined
  const succeeded = submitted || (!fetcher.data && pageOutcome?.status === 'success')
  const errorFor = (name: string) => fieldError(failure, name)
  const label = busy ? 'Submitting...' : succeeded ? 'Submitted!' : 'Submit Request'

  return (
    <fetcher.Form method="post" action={action} className="form" noValidate>
      {succeeded && <SuccessMessage>{trainingMessages.success}</SuccessMessage>}
      {failure && (
        <ErrorSummary
          title={trainingFailureText(failure)}
          fields={[...fields, { name: 'message', label: 'Training topic or area of interest' }].map((field) => ({
            name: field.name,
            id: `${idPrefix}-${field.name}`,
            label: field.label,
          }))}
          messages={failure.fields}
        />
      )}
      <input type="hidden" name="kind" value={kind} />
      <HoneypotField idPrefix={idPrefix} />
      {fields.map((field) => {
        const error = errorFor(field.name)
        return (
          <div className="form__field" key={field.name}>
            <label htmlFor={`${idPrefix}-${field.name}`}>{field.label}</label>
            <input
              id={`${idPrefix}-${field.name}`}
              name={field.name}
              type={field.type}
              autoComplete={field.autoComplete}
              required
              defaultValue={failure?.values[field.name]}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${idPrefix}-${field.name}-error` : undefined}
            />
            {error && (
              <p className="form__error" id={`${idPrefix}-${field.name}-error`}>
                {error}
              </p>
            )}
          </div>
        )
      })}
      <div className="form__field">
        <label htmlFor={`${idPrefix}-message`}>Training topic or area of interest</label>
        <textarea
          id={`${idPrefix}-message`}
          name="message"
          rows={4}
          required
          defaultValue={failure?.values.message}
          aria-invalid={errorFor('message') ? true : undefined}
          aria-describedby={errorFor('message') ? `${idPrefix}-message-error` : undefined}
        />
        {errorFor('message') && (
          <p className="form__error" id={`${idPrefix}-message-error`}>
            {errorFor('message')}
          </p>
        )}
      </div>
      <p className="form__notice">
        We collect your name, e-mail address, business number, organisation and training topic only to answer your request, and keep them no longer than needed
        for that. See our <Link to="/privacy">privacy notice</Link> for your rights.
      </p>
      <button type="submit" className="button" disabled={busy || submitted}>
        {label}
      </button>
    </fetcher.Form>
  )
}
