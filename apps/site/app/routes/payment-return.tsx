import { getRegistrationByReferenceAndSecret } from '@events/core'
import { recordReturn } from '@events/payments'
import { data } from 'react-router'
import type { Route } from './+types/payment-return'
import { PayButton } from '../components/PayButton'
import { fromDatabase } from '../lib/database.server'
import { servicesContext } from '../lib/services.server'
import { sitePaths } from '../lib/site-links'
import { PageHero } from '../components/PageHero'

const privateHeaders = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' }
const OUTCOMES = ['success', 'cancel', 'failure'] as const
type Outcome = (typeof OUTCOMES)[number]
/** While the payment is being confirmed the page reloads itself this often (also without JavaScript). */
const REFRESH_SECONDS = 2

// Where the payment provider sends the visitor back. Only the provider's verified webhook marks a registration
// paid: the success page says so once it has arrived and until then reloads itself.
export async function loader({ context, params }: Route.LoaderArgs) {
  const { core, payments } = context.get(servicesContext)
  const outcome = OUTCOMES.find((candidate) => candidate === params.outcome)
  if (!outcome) throw data('Not found', { status: 404, headers: privateHeaders })
  const details = await fromDatabase(context, () => getRegistrationByReferenceAndSecret(core.registrations, params.reference, params.secret))
  if (!details) throw data('Registration not found', { status: 404, headers: privateHeaders })
  await fromDatabase(context, () => recordReturn(payments, params.reference, params.secret, outcome))
  const statusPath = sitePaths.registrationStatus(details)
  return data(
    {
      outcome: outcome as Outcome,
      paid: details.status === 'paid',
      reference: details.reference,
      eventTitle: details.event.title,
      totalCents: details.totalCents,
      statusPath,
      paymentPath: sitePaths.registrationPayment(details),
    },
    { headers: privateHeaders },
  )
}

export function headers() {
  return privateHeaders
}

export function meta({ loaderData }: Route.MetaArgs) {
  const waiting = loaderData && !loaderData.paid && loaderData.outcome === 'success'
  return [
    { title: loaderData?.paid ? 'Payment received' : 'Payment' },
    { name: 'robots', content: 'noindex, nofollow' },
    ...(waiting ? [{ httpEquiv: 'refresh', content: String(REFRESH_SECONDS) }] : []),
  ]
}

export default function PaymentReturn({ loaderData }: Route.ComponentProps) {
  const { outcome, paid, reference, eventTitle } = loaderData
  let heading: string
  let body: string
  if (paid) {
    heading = 'Payment received'
    body = `Thank you: registration ${reference} for ${eventTitle} is paid. A receipt is on its way by e-mail.`
  } else if (outcome === 'success') {
    heading = 'Confirming your payment'
    body =
      'We are waiting for the payment provider to confirm your payment. This page updates itself; it usually takes a few seconds. If it takes longer than a few minutes, please contact us and quote your reference.'
  } else if (outcome === 'cancel') {
    heading = 'Payment cancelled'
    body = `Your registration ${reference} is kept. You can pay now or later from your registration page.`
  } else {
    heading = 'Payment not completed'
    body = `The payment did not go through and nothing was charged. Your registration ${reference} is kept; please try again.`
  }
  return (
    <>
      <PageHero title={heading} />
      <div className="section prose">
        <p role="status">{body}</p>
        {!paid && outcome !== 'success' && <PayButton paymentPath={loaderData.paymentPath} totalCents={loaderData.totalCents} />}
        <p>
          <a href={loaderData.statusPath}>Your registration page</a>
        </p>
      </div>
    </>
  )
}
