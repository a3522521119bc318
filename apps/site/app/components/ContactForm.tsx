import type { ContactEnquiry } from '@events/core'
import { useEffect, useRef, useState } from 'react'
import { useSubmissionToasts } from '../lib/submission-toasts'
import { Link, useFetcher } from 'react-router'
import { fieldError, NETWORK_FAILURE, SERVER_FAULT, type FormOutcome } from '../lib/form-outcome'
import { ErrorSummary, HoneypotField, SuccessMessage } from './FormMessages'
import { interestOptions } from '../lib/contact-interests'

/** The form's fields as typed: the contact schema's. */
export type ContactValues = Record<keyof ContactEnquiry, string>
export type ContactOutcome = FormOutcome<ContactValues>

/** How long the button says 'Submitted' before it offers 'Submit' again. */
const SUBMITTED_LABEL_MS = 30_000

const summaryFields = [
  { name: 'fullName', id: 'contact-fullName', label: 'Full name' },
  { name: 'companyName', id: 'contact-companyName', label: 'Company name' },
  { name: 'email', id: 'contact-email', label: 'Email' },
  { name: 'phone', id: 'contact-phone', label: 'Phone' },
  { name: 'interest', id: 'contact-interest', label: 'I am interested in' },
  { name: 'message', id: 'contact-message', label: 'Message' },
]

/**
 * The words shown when an enquiry is not taken: the specification's failure wording when the network or the server
 * failed, the refusal's own words (e.g. the required-fields sentence) when the visitor can put it right.
 */
export function contactFailureText(outcome: ContactOutcome): string {
  if (outcome.status !== 'error') return ''
  if (outcome.code === NETWORK_FAILURE) return 'Network error. Please try again.'
  if (outcome.code === SERVER_FAULT) return `Failed to send message: ${outcome.message}`
  return outcome.message
}

/**
 * The enquiry form of the home page and the contact sub-routes; `context` names the event or sponsorship it is about.
 * Without JavaScript it posts to the page's action and `outcome` (the action's answer) is shown in the page; with
 * JavaScript it posts in the background with toasts and the button's Submitting... / Submitted states.
 */
export function ContactForm({
  action,
  interest,
  context,
  outcome: pageOutcome,
}: {
  action: string
  interest?: string
  context?: string
  outcome?: ContactOutcome | undefined
}) {
  const fetcher = useFetcher<ContactOutcome>({ key: `contact:${action}` })
  const formRef = useRef<HTMLFormElement>(null)
  const [formKey, setFormKey] = useState(0)
  // The successful answer whose 'Submitted' has had its time: the button offers 'Submit' again.
  const [expiredAnswer, setExpiredAnswer] = useState<ContactOutcome>()

  const busy = useSubmissionToasts(fetcher, {
    loading: 'Sending email...',
    success: 'Message sent!',
    failure: contactFailureText,
    onSuccess() {
      formRef.current?.reset()
      setFormKey((key) => key + 1)
    },
  })

  // Read from the answer in the same render that ends 'Submitting...' (not set by an effect a render later), so the
  // button never shows 'Submit' between the two.
  const answer = busy ? undefined : fetcher.data
  const submitted = answer?.status === 'success' && answer !== expiredAnswer
  useEffect(() => {
    if (!submitted) return
    const timer = setTimeout(() => setExpiredAnswer(answer), SUBMITTED_LABEL_MS)
    return () => clearTimeout(timer)
  }, [submitted, answer])

  // The latest answer wins: the background post's, or the page action's when the form was posted without JavaScript.
  const outcome = fetcher.data ?? pageOutcome
  const failure = outcome?.status === 'error' && outcome.code !== NETWORK_FAILURE ? outcome : undefined
  const values: Partial<ContactValues> = failure?.values ?? {}
  const errorFor = (name: string) => (failure ? fieldError(failure, name) : undefined)
  const describedBy = (name: string) => (errorFor(name) ? `contact-${name}-error` : undefined)
  const errorText = (name: string) =>
    errorFor(name) ? (
      <p className="form__error" id={`contact-${name}-error`}>
        {errorFor(name)}
      </p>
    ) : null
  const label = busy ? 'Submitting...' : submitted ? 'Submitted' : 'Submit'

  return (
    <fetcher.Form method="post" action={action} className="form" noValidate ref={formRef} key={`${formKey}:${failure ? 'failed' : 'fresh'}`}>
      {!fetcher.data && pageOutcome?.status === 'success' && <SuccessMessage>Message sent! We will be in touch soon.</SuccessMessage>}
      {failure && <ErrorSummary title={contactFailureText(failure)} fields={summaryFields} messages={failure.fields} />}
      <HoneypotField idPrefix="contact" />
      <div className="form__field">
        <label htmlFor="contact-fullName">Full name</label>
        <input
          id="contact-fullName"
          name="fullName"
          autoComplete="name"
          required
          defaultValue={values.fullName}
          aria-invalid={errorFor('fullName') ? true : undefined}
          aria-describedby={describedBy('fullName')}
        />
        {errorText('fullName')}
      </div>
      <div className="form__field">
        <label htmlFor="contact-companyName">Company name (optional)</label>
        <input
          id="contact-companyName"
          name="companyName"
          autoComplete="organization"
          defaultValue={values.companyName}
          aria-invalid={errorFor('companyName') ? true : undefined}
          aria-describedby={describedBy('companyName')}
        />
        {errorText('companyName')}
      </div>
      <div className="form__field">
        <label htmlFor="contact-email">Email</label>
        <input
          id="contact-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={values.email}
          aria-invalid={errorFor('email') ? true : undefined}
          aria-describedby={describedBy('email')}
        />
        {errorText('email')}
      </div>
      <div className="form__field">
        <label htmlFor="contact-phone">Phone</label>
        <input
          id="contact-phone"
          name="phone"
          type="tel"
          autoComplete="tel"
          required
          defaultValue={values.phone}
          aria-invalid={errorFor('phone') ? true : undefined}
          aria-describedby={describedBy('phone')}
        />
        {errorText('phone')}
      </div>
      <div className="form__field">
        <label htmlFor="contact-interest">I am interested in</label>
        <select
          id="contact-interest"
          name="interest"
          required
          defaultValue={values.interest || interest || ''}
          aria-invalid={errorFor('interest') ? true : undefined}
          aria-describedby={describedBy('interest')}
        >
          <option value="" disabled>
            Choose one
          </option>
          {interestOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        {errorText('interest')}
      </div>
      <div className="form__field">
        <label htmlFor="contact-message">Message</label>
        <textarea
          id="contact-message"
          name="message"
          rows={5}
          required
          defaultValue={failure ? values.message : context ? `About: ${context}\n` : undefined}
          aria-invalid={errorFor('message') ? true : undefined}
          aria-describedby={describedBy('message')}
        />
        {errorText('message')}
      </div>
      <p className="form__notice">
        We collect your name, company, e-mail address, phone number and message only to answer your enquiry, and keep them no longer than needed for that. See
        our <Link to="/privacy">privacy notice</Link> for your rights.
      </p>
      <button type="submit" className="button" disabled={busy}>
        {label}
      </button>
    </fetcher.Form>
  )
}
