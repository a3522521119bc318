import { getSandboxCheckout } from '@events/payments'
import { Fragment } from 'react'
import { Amount } from '../components/Amount'
import { TermList } from '../components/TermList'
import { data } from 'react-router'
import type { Route } from './+types/sandbox-checkout'
import { servicesContext } from '../lib/services.server'
import { PageHero } from '../components/PageHero'

const privateHeaders = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' }

// The local stand-in for the card payment page, used when no Yoco key is configured. Its buttons post to the
// server (server/payments.ts), which completes the checkout through the same signed webhook handling as Yoco.
export async function loader({ context, params }: Route.LoaderArgs) {
  const { payments } = context.get(servicesContext)
  const checkout = await getSandboxCheckout(payments, params.checkoutId)
  if (!checkout) throw data('No sandbox checkout at this address', { status: 404, headers: privateHeaders })
  return data(checkout, { headers: privateHeaders })
}

export function headers() {
  return privateHeaders
}

export function meta() {
  return [{ title: 'Sandbox checkout (no card is charged)' }, { name: 'robots', content: 'noindex, nofollow' }]
}

export default function SandboxCheckout({ loaderData }: Route.ComponentProps) {
  const checkout = loaderData
  return (
    <>
      <PageHero title="Sandbox checkout">
        <p>
          <strong>This is a test payment page. No card is charged and no money moves.</strong> The site uses it because no payment provider key is configured.
        </p>
      </PageHero>
      <div className="section prose">
        <TermList
          className="registration-summary"
          terms={[
            ['Registration', checkout.reference],
            ['Event', checkout.eventTitle],
            [
              'Amount',
              <Fragment key="amount">
                <strong>
                  <Amount cents={checkout.amountCents} />
                </strong>{' '}
                ({checkout.currency})
              </Fragment>,
            ],
          ]}
        />
        <form method="post" action={`/payments/sandbox/${checkout.id}`} className="sandbox-actions">
          <button type="submit" name="action" value="pay" className="button button--accent">
            Pay <Amount cents={checkout.amountCents} />
          </button>{' '}
          <button type="submit" name="action" value="cancel" className="button button--secondary">
            Cancel
          </button>{' '}
          <button type="submit" name="action" value="fail" className="button button--secondary">
            Fail
          </button>
        </form>
      </div>
    </>
  )
}
