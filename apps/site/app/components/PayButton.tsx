import { Amount } from './Amount'
import { useState, type FormEvent } from 'react'

/** The specification's words when the payment request failed without an answer. */
export const PAYMENT_EXCEPTION_MESSAGE = 'An error occurred while processing your request. Please try again.'

/** The specification's words when the server could not make a checkout. */
export function paymentFailedMessage(message: string): string {
  return `Failed to generate redirect URL: ${message}`
}

interface PaymentAnswer {
  success?: boolean
  redirectUrl?: string
  message?: string
}

/**
 * The Pay button: a plain form post to the registration's payment URL (the server answers with a redirect to the
 * checkout), enhanced with JavaScript to ask for JSON and show a failure in the page. The amount is never sent:
 * the server charges the stored registration's total.
 */
export function PayButton({ paymentPath, totalCents, initialError }: { paymentPath: string; totalCents: number; initialError?: string | undefined }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState(initialError)

  async function pay(submit: FormEvent<HTMLFormElement>) {
    submit.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      const response = await fetch(paymentPath, { method: 'POST', headers: { Accept: 'application/json' } })
      const answer = (await response.json()) as PaymentAnswer
      if (answer.success && answer.redirectUrl) {
        window.location.assign(answer.redirectUrl)
        return
      }
      setError(paymentFailedMessage(answer.message ?? `the server answered ${response.status}`))
    } catch {
      setError(PAYMENT_EXCEPTION_MESSAGE)
    }
    setBusy(false)
  }

  return (
    <form method="post" action={paymentPath} onSubmit={(submit) => void pay(submit)} className="pay-form">
      {error && (
        <p className="form__summary" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button--accent" disabled={busy}>
        {busy ? (
          'Opening the payment page...'
        ) : (
          <>
            Pay <Amount cents={totalCents} />
          </>
        )}
      </button>
    </form>
  )
}
