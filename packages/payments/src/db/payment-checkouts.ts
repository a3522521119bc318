/** 'open' until paid or until the visitor came back through the cancel or failure page. */
export type CheckoutStatus = 'open' | 'abandoned' | 'succeeded'

/**
 * A card checkout created with the payment provider for a registration; `id` is the provider's checkout id.
 * `attempt` counts the checkouts of one registration and makes the provider's Idempotency-Key.
 */
export interface PaymentCheckoutsTable {
  id: string
  registration_id: string
  provider: string
  attempt: number
  amount_cents: number
  currency: string
  redirect_url: string
  status: CheckoutStatus
  payment_id: string | null
  created_at: string
  updated_at: string
}
