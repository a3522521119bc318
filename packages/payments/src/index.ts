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
export { getSandboxCheckout } from './queries.ts'
export { DEFAULT_YOCO_API_BASE, YOCO_CHECKOUT_ORIGIN, createYocoProvider, yocoCheckoutOrigins, type YocoProviderOptions } from './yoco.ts'
export { WebhookRejectedError, type WebhookHeaders } from './webhook.ts'
