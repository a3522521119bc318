import { CodedError, type BackOfficeContext, type CardRefundState } from '@events/core'
import type { WebhookOutcome } from './db/payment-webhooks.ts'
import type { PaymentProvider } from './provider.ts'

/** Why a checkout could not be started or a refund made; the site maps each to its answer. */
export type PaymentErrorCode = 'not-found' | 'provider-failed'

export class PaymentError extends CodedError<PaymentErrorCode> {
  constructor(code: PaymentErrorCode, message: string) {
    super('PaymentError', code, message)
  }
}

export type StartCheckoutResult =
  | { kind: 'redirect'; redirectUrl: string; checkoutId: string; reused: boolean }
  /** Paid registrations get no new checkout; the visitor goes back to the status page. */
  | { kind: 'already-paid'; statusUrl: string }
  /**
   * Part-paid registrations get no card checkout either, nor those a cancellation credited in part: a card charge is
   * always for the whole total, so the rest is paid by transfer, as the status page says.
   */
  | { kind: 'pay-by-transfer'; statusUrl: string }

export interface WebhookResult {
  outcome: WebhookOutcome
  /** True when this webhook id had been handled before and nothing changed. */
  replayed: boolean
}

export type SandboxAction = 'pay' | 'cancel' | 'fail'

/** What the sandbox checkout page shows. */
export interface SandboxCheckout {
  id: string
  reference: string
  eventTitle: string
  amountCents: number
  currency: string
  status: string
}

/**
 * What the payment commands and queries need: core's database, catalog, site links and clocks (the wall clock keeps
 * the books, the business clock dates what e-mails say), the provider, and who is told of what happened.
 */
export interface PaymentContext extends BackOfficeContext {
  provider: PaymentProvider
  /** Called after e-mails were queued, so the outbox sends them at once. */
  onMailQueued?: () => void
  /** Told once for each card payment that marked a registration paid (not for replays or mismatches). */
  onPaymentSucceeded?: () => void
}

/** Where a card refund stands after asking the provider. */
export interface CardRefundResult {
  before: CardRefundState
  after: CardRefundState
  registrationId: string
  amountCents: number
}
