/** What the site asks a payment provider for: a hosted checkout for an amount it computed itself. */
export interface CheckoutRequest {
  /** The stored registration's total, in cents, VAT included. */
  amountCents: number
  /** Shown on the provider's page only; already included in amountCents. */
  subtotalCents: number
  taxCents: number
  currency: string
  successUrl: string
  cancelUrl: string
  failureUrl: string
  metadata: Record<string, string>
  /** The same key for a retried request, so the provider creates one checkout. */
  idempotencyKey: string
}

/** The provider's checkout: its id (matched by webhooks) and the page the visitor is sent to. */
export interface CreatedCheckout {
  id: string
  redirectUrl: string
}

export type ProviderName = 'yoco' | 'sandbox'

/** A refund of (part of) a completed checkout. */
export interface RefundRequest {
  checkoutId: string
  amountCents: number
  metadata: Record<string, string>
  /** The same key for a retried request, so the provider refunds once. */
  idempotencyKey: string
}

/** The provider's answer to a refund: made, or refused with its reason. */
export type RefundResult = { outcome: 'succeeded'; refundId: string; message: string } | { outcome: 'refused'; message: string }

/** A card payment provider: Yoco Checkout, or the local sandbox that charges nothing. */
export interface PaymentProvider {
  name: ProviderName
  /** The whsec_ secret its webhooks are signed with (Standard Webhooks). */
  webhookSecret: string
  createCheckout(request: CheckoutRequest): Promise<CreatedCheckout>
  /** Refunds a completed checkout; throws PaymentProviderError when the provider cannot be reached or fails. */
  refund(request: RefundRequest): Promise<RefundResult>
}

/** The provider refused or could not be reached; the message is safe to show the visitor. */
export class PaymentProviderError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PaymentProviderError'
  }
}
