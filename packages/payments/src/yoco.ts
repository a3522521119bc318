import { PaymentProviderError, type CheckoutRequest, type CreatedCheckout, type PaymentProvider } from './provider.ts'
import { assertWebhookSecret } from './webhook.ts'

/** Yoco's API origin unless YOCO_API_BASE says otherwise. */
export const DEFAULT_YOCO_API_BASE = 'https://payments.yoco.com'
const REQUEST_TIMEOUT_MS = 20_000

/** The origin of Yoco's hosted checkout page, where a checkout's redirectUrl leads. */
export const YOCO_CHECKOUT_ORIGIN = 'https://c.yoco.com'

/**
 * The origins a visitor may be sent to for a Yoco checkout: Yoco's checkout page, and with another YOCO_API_BASE (a
 * stand-in such as the test double) that origin too, which serves its own checkout page.
 */
export function yocoCheckoutOrigins(apiBase: string = DEFAULT_YOCO_API_BASE): string[] {
  const apiOrigin = new URL(apiBase).origin
  return apiOrigin === new URL(DEFAULT_YOCO_API_BASE).origin ? [YOCO_CHECKOUT_ORIGIN] : [YOCO_CHECKOUT_ORIGIN, apiOrigin]
}

export interface YocoProviderOptions {
  secretKey: string
  webhookSecret: string
  apiBase?: string | undefined
  fetch?: typeof fetch
}

function problemMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const fields = body as Record<string, unknown>
  // Yoco's APIs answer errors as problem details (detail, title) or with description/message.
  for (const key of ['detail', 'description', 'message', 'displayMessage', 'title']) {
    const value = fields[key]
    if (typeof value === 'string' && value.trim() !== '') return value
  }
  return undefined
}

/** Yoco Checkout: POST {apiBase}/api/checkouts with the secret key; the visitor pays on Yoco's page. */
export function createYocoProvider(options: YocoProviderOptions): PaymentProvider {
  assertWebhookSecret(options.webhookSecret, 'YOCO_WEBHOOK_SECRET')
  const apiBase = (options.apiBase ?? DEFAULT_YOCO_API_BASE).replace(/\/+$/, '')
  const fetchImpl = options.fetch ?? fetch
  return {
    name: 'yoco',
    webhookSecret: options.webhookSecret,
    async createCheckout(request: CheckoutRequest): Promise<CreatedCheckout> {
      let response: Response
      try {
        response = await fetchImpl(`${apiBase}/api/checkouts`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${options.secretKey}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': request.idempotencyKey,
          },
          body: JSON.stringify({
            amount: request.amountCents,
            currency: request.currency,
            successUrl: request.successUrl,
            cancelUrl: request.cancelUrl,
            failureUrl: request.failureUrl,
            metadata: request.metadata,
            subtotalAmount: request.subtotalCents,
            totalTaxAmount: request.taxCents,
          }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        })
      } catch (error) {
        throw new PaymentProviderError(`The payment provider could not be reached (${(error as Error).message}).`)
      }
      const text = await response.text()
      let body: unknown
      try {
        body = text === '' ? undefined : JSON.parse(text)
      } catch {
        body = undefined
      }
      if (!response.ok) {
        throw new PaymentProviderError(`The payment provider answered ${response.status}: ${problemMessage(body) ?? response.statusText}`)
      }
      const checkout = body as { id?: unknown; redirectUrl?: unknown } | undefined
      if (typeof checkout?.id !== 'string' || typeof checkout.redirectUrl !== 'string') {
        throw new PaymentProviderError('The payment provider answered without a checkout id and redirect URL.')
      }
      return { id: checkout.id, redirectUrl: checkout.redirectUrl }
    },
  }
}
