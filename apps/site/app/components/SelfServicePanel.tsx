import type { SelfService } from '@events/core'
import { Form } from 'react-router'
import { Amount } from './Amount'
import { ErrorSummary, SuccessMessage } from './FormMessages'

/** What the private page's action answers for a change asked from it. */
export interface SelfServiceOutcome {
  intent: 'substitute' | 'ask-to-cancel'
  ok: boolean
  message: string
  fields: Record<string, string>
  values: Record<string, string>
}

const personFields = [
  { name: 'name', label: 'Name of the person attending instead', type: 'text', autoComplete: 'off' },
  { name: 'position', label: 'Their position', type: 'text', autoComplete: 'off' },
  { name: 'email', label: 'Their e-mail', type: 'email', autoComplete: 'off' },
] as const

const summaryFields = [
  { name: 'delegate', id: 'substitute-delegate', label: 'Delegate replaced' },
  ...personFields.map((field) => ({ name: field.name, id: `substitute-${field.name}`, label: field.label })),
]

const requestedAtFormat = new Intl.DateTimeFormat('en-ZA', { timeZone: 'Africa/Johannesburg', dateStyle: 'long', timeStyle: 'short' })

/**
 * The registrant's own changes on their private page, until the event starts: put a colleague in a delegate's place,
 * or ask to cancel (a manager decides, with the fee the terms give, shown before asking). Plain forms posted to the
 * page, so both work without JavaScript.
 */
export function SelfServicePanel({ selfService, outcome }: { selfService: SelfService; outcome?: SelfServiceOutcome | undefined }) {
  if (selfService.closed) return null
  const substitution = outcome?.intent === 'substitute' ? outcome : undefined
  const cancellation = outcome?.intent === 'ask-to-cancel' ? outcome : undefined
  const failed = substitution && !substitution.ok ? substitution : undefined
  const values = failed?.values ?? {}
  const errorFor = (name: string) => failed?.fields[name]
  const invalid = (name: string) => (errorFor(name) ? { 'aria-invalid': true as const, 'aria-describedby': `substitute-${name}-error` } : {})
  const errorText = (name: string) =>
    errorFor(name) ? (
      <p className="form__error" id={`substitute-${name}-error`}>
        {errorFor(name)}
      </p>
    ) : null
  const { feePercent, feeTotalCents, creditedTotalCents } = selfService.cancellation

  return (
    <section aria-labelledby="self-service-heading">
      <h2 id="self-service-heading">Change your registration</h2>
      <p>Until the event starts you can send a colleague in a delegate’s place, or ask us to cancel. We e-mail you a confirmation of either.</p>

      <h3>Send someone else</h3>
      {substitution?.ok && <SuccessMessage>{substitution.message}</SuccessMessage>}
      <Form method="post" className="form" noValidate key={failed ? JSON.stringify(values) : 'blank'}>
        {failed && <ErrorSummary title={failed.message} fields={summaryFields} messages={failed.fields} />}
        <input type="hidden" name="intent" value="substitute" />
        <div className="form__field">
          <label htmlFor="substitute-delegate">Delegate replaced</label>
          <select id="substitute-delegate" name="delegate" defaultValue={values.delegate ?? ''} required {...invalid('delegate')}>
            <option value="">Choose a delegate</option>
            {selfService.delegates.map((delegate) => (
              <option key={delegate.number} value={String(delegate.number)}>
                {delegate.name}, {delegate.position}
              </option>
            ))}
          </select>
          {errorText('delegate')}
        </div>
        {personFields.map((field) => (
          <div className="form__field" key={field.name}>
            <label htmlFor={`substitute-${field.name}`}>{field.label}</label>
            <input
              id={`substitute-${field.name}`}
              name={field.name}
              type={field.type}
              autoComplete={field.autoComplete}
              defaultValue={values[field.name] ?? ''}
              required
              {...invalid(field.name)}
            />
            {errorText(field.name)}
          </div>
        ))}
        <p>They receive a pass of their own by e-mail; the pass of the person replaced stops working. The amount stays the same.</p>
        <button type="submit" className="button">
          Send this person instead
        </button>
      </Form>

      <h3>Ask to cancel</h3>
      {cancellation && (cancellation.ok ? <SuccessMessage>{cancellation.message}</SuccessMessage> : <p className="form__error">{cancellation.message}</p>)}
      {selfService.pendingRequestAt ? (
        <p>
          You asked to cancel on {requestedAtFormat.format(new Date(selfService.pendingRequestAt))}. A manager is reviewing it; you will receive a credit note
          by e-mail once it is approved.
        </p>
      ) : (
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="ask-to-cancel" />
          <p>
            {feePercent === 0 ? (
              <>
                Asked and approved today, the terms keep no fee: <Amount cents={creditedTotalCents} /> would be credited.
              </>
            ) : (
              <>
                Asked and approved today, the terms keep a cancellation fee of {feePercent}% (<Amount cents={feeTotalCents} /> incl. VAT) and credit{' '}
                <Amount cents={creditedTotalCents} />.
              </>
            )}{' '}
            A manager reviews the request as the terms require; the fee is the one the terms give on the day it is approved.
          </p>
          <button type="submit" className="button button--secondary">
            Ask to cancel this registration
          </button>
        </Form>
      )}
    </section>
  )
}
