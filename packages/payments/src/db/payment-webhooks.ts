/**
 * What a verified webhook did. Only 'paid' changes a registration; 'payment-not-owed' is a card payment of the whole
 * total that arrived after transfers were recorded or a cancellation credited part of it, kept for a refund.
 */
export type WebhookOutcome = 'paid' | 'already-paid' | 'duplicate-payment' | 'payment-not-owed' | 'amount-mismatch' | 'unknown-checkout' | 'ignored'

/** Every verified webhook, by its webhook-id, with what it did; the row makes redeliveries harmless. */
export interface PaymentWebhooksTable {
  webhook_id: string
  event_type: string
  checkout_id: string | null
  registration_id: string | null
  amount_cents: number | null
  currency: string | null
  outcome: WebhookOutcome
  body: string
  received_at: string
}
