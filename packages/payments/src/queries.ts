import { findRegistrationById } from '@events/core'
import type { PaymentContext, SandboxCheckout } from './context.ts'

/** A sandbox checkout with what its page and its return links need; undefined unless the provider is the sandbox. */
export async function sandboxCheckoutRow(context: PaymentContext, checkoutId: string) {
  const { db, provider } = context
  if (provider.name !== 'sandbox') return undefined
  const checkout = await db.kysely
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
