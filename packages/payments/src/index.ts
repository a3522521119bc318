export {
  PaymentProviderError,
  type CheckoutRequest,
  type CreatedCheckout,
  type PaymentProvider,
  type ProviderName,
  type RefundRequest,
  type RefundResult,
} from './provider.ts'
export { createSandboxProvider, type SandboxProviderOptions } from './sandbox.ts'
export {
  PaymentError,
  type CardRefundResult,
  type PaymentContext,
  type PaymentErrorCode,
  type SandboxAction,
  type SandboxCheckout,
  type StartCheckoutResult,
  type WebhookResult,
} from './context.ts'
export { completeSandboxCheckout, handleWebhook, recordReturn, refundCard, startCheckout } from './commands.ts'
export { cardPaymentActivity, cardPaymentFacts, getSandboxCheckout, type CheckoutActivity, type WebhookActivity } from './queries.ts'
export { migratePaymentTables } from './db/migrate.ts'
export type { PaymentTables, PaymentsDatabase } from './db/database.ts'
export type { CheckoutStatus } from './db/payment-checkouts.ts'
export type { WebhookOutcome } from './db/payment-webhooks.ts'
export { DEFAULT_YOCO_API_BASE, YOCO_CHECKOUT_ORIGIN, createYocoProvider, yocoCheckoutOrigins, type YocoProviderOptions } from './yoco.ts'
export { WebhookRejectedError, type WebhookHeaders } from './webhook.ts'
