import { findRegistrationById, normaliseReference, type CardPaymentFacts, type CoreDatabase } from '@events/core'
import type { PaymentContext, SandboxCheckout } from './context.ts'
import { paymentQueries } from './db/database.ts'
import type { CheckoutStatus } from './db/payment-checkouts.ts'
import type { WebhookOutcome } from './db/payment-webhooks.ts'

/** A sandbox checkout with what its page and its return links need; undefined unless the provider is the sandbox. */
export async function sandboxCheckoutRow(context: PaymentContext, checkoutId: string) {
  const { db, provider } = context
  if (provider.name !== 'sandbox') return undefined
  const checkout = await paymentQueries(db.kysely)
    .selectFrom('payment_checkouts')
    .select(['id', 'registration_id', 'amount_cents', 'currency', 'status'])
    .where('id', '=', checkoutId)
    .where('provider', '=', 'sandbox')
    .executeTakeFirst()
  const registration = checkout ? await findRegistrationById(db.kysely, checkout.registration_id) : undefined
  if (!checkout || !registration) return undefined
  return { ...checkout, reference: registration.reference, secret: registration.secret, event_title: registration.event_title }
}

/** What the sandbox checkout page shows. */
export async function getSandboxCheckout(context: PaymentContext, checkoutId: string): Promise<SandboxCheckout | undefined> {
  const row = await sandboxCheckoutRow(context, checkoutId)
  if (!row) return undefined
  return { id: row.id, reference: row.reference, eventTitle: row.event_title, amountCents: row.amount_cents, currency: row.currency, status: row.status }
}

/** What the back office asks of card payments (core's port), answered from this package's tables. */
export const cardPaymentFacts: CardPaymentFacts = {
  async paidCheckoutOf(queries, registrationId) {
    const checkout = await paymentQueries(queries)
      .selectFrom('payment_checkouts')
      .select('id')
      .where('registration_id', '=', registrationId)
      .where('status', '=', 'succeeded')
      .executeTakeFirst()
    return checkout?.id
  },
}

/** A card checkout as the registration's back-office page lists it. */
export interface CheckoutActivity {
  id: string
  provider: string
  attempt: number
  amountCents: number
  currency: string
  status: CheckoutStatus
  paymentId: string | null
  createdAt: string
  updatedAt: string
}

/** A payment notice (webhook) received about a registration. */
export interface WebhookActivity {
  webhookId: string
  eventType: string
  checkoutId: string | null
  amountCents: number | null
  currency: string | null
  outcome: WebhookOutcome
  receivedAt: string
}

/** A registration's card checkouts, by attempt, and the webhooks received about it, oldest first; by its reference. */
export async function cardPaymentActivity(db: CoreDatabase, referenceInput: string): Promise<{ checkouts: CheckoutActivity[]; webhooks: WebhookActivity[] }> {
  const queries = paymentQueries(db.kysely)
  const registration = await queries
    .selectFrom('registrations')
    .select('id')
    .where('reference', '=', normaliseReference(referenceInput) ?? '')
    .executeTakeFirst()
  if (!registration) return { checkouts: [], webhooks: [] }
  const [checkouts, webhooks] = await Promise.all([
    queries.selectFrom('payment_checkouts').selectAll().where('registration_id', '=', registration.id).orderBy('attempt').execute(),
    queries.selectFrom('payment_webhooks').selectAll().where('registration_id', '=', registration.id).orderBy('received_at').execute(),
  ])
  return {
    checkouts: checkouts.map((checkout) => ({
      id: checkout.id,
      provider: checkout.provider,
      attempt: checkout.attempt,
      amountCents: checkout.amount_cents,
      currency: checkout.currency,
      status: checkout.status,
      paymentId: checkout.payment_id,
      createdAt: checkout.created_at,
      updatedAt: checkout.updated_at,
    })),
    webhooks: webhooks.map((webhook) => ({
      webhookId: webhook.webhook_id,
      eventType: webhook.event_type,
      checkoutId: webhook.checkout_id,
      amountCents: webhook.amount_cents,
      currency: webhook.currency,
      outcome: webhook.outcome,
      receivedAt: webhook.received_at,
    })),
  }
}
