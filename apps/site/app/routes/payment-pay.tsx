import { getRegistrationByReferenceAndSecret } from '@events/core'
import { Amount } from '../components/Amount'
import { data, redirect } from 'react-router'
import type { Route } from './+types/payment-pay'
import { PayButton, paymentFailedMessage } from '../components/PayButton'
import { fromDatabase } from '../lib/database.server'
import { servicesContext } from '../lib/services.server'
import { sitePaths } from '../lib/site-links'
import { PageHero } from '../components/PageHero'

const privateHeaders = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' }
const MAX_ERROR_LENGTH = 300

// GET of a registration's payment URL (the confirmation e-mail links here): the amount and the Pay button. The
// button posts to the same URL, which the server answers with the checkout (server/payments.ts).
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { core } = context.get(servicesContext)
  const details = await fromDatabase(context, () => getRegistrationByReferenceAndSecret(core.registrations, params.reference, params.secret))
  if (!details) throw data('Registration not found', { status: 404, headers: privateHeaders })
  const statusPath = sitePaths.registrationStatus(details)
  if (details.status === 'paid') throw redirect(statusPath, { headers: privateHeaders })
  const error = new URL(request.url).searchParams.get('error')
  return data(
    {
      reference: details.reference,
      eventTitle: details.event.title,
      totalCents: details.totalCents,
      statusPath,
      paymentPath: sitePaths.registrationPayment(details),
      error: error ? error.slice(0, MAX_ERROR_LENGTH) : undefined,
    },
    { headers: privateHeaders },
  )
}

export function headers() {
  return privateHeaders
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Pay for registration ${loaderData.reference}` : 'Payment' }, { name: 'robots', content: 'noindex, nofollow' }]
}

export default function PaymentPay({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHero title={`Pay for registration ${loaderData.reference}`} />
      <div className="section prose">
        <p>
          {loaderData.eventTitle}:{' '}
          <strong>
            <Amount cents={loaderData.totalCents} />
          </strong>{' '}
          incl. VAT.
        </p>
        <p>The button takes you to the secure card payment page (card, EFT or Google Pay).</p>
        <PayButton
          paymentPath={loaderData.paymentPath}
          totalCents={loaderData.totalCents}
          initialError={loaderData.error ? paymentFailedMessage(loaderData.error) : undefined}
        />
        <p>
          <a href={loaderData.statusPath}>Back to your registration</a>
        </p>
      </div>
    </>
  )
}
