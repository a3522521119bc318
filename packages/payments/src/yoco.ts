import { PaymentProviderError, type CheckoutRequest, type CreatedCheckout, type PaymentProvider, type RefundRequest, type RefundResult } from './provider.ts'
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

/** The answer's JSON body, or undefined when it has none or it is not JSON. */
async function jsonBody(response: Response): Promise<unknown> {
  const text = await response.text()
  try {
    return text === '' ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
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
      const body = await jsonBody(response)
      if (!response.ok) {
        throw new PaymentProviderError(`The payment provider answered ${response.status}: ${problemMessage(body) ?? response.statusText}`)
      }
      const checkout = body as { id?: unknown; redirectUrl?: unknown } | undefined
      if (typeof checkout?.id !== 'string' || typeof checkout.redirectUrl !== 'string') {
        throw new PaymentProviderError('The payment provider answered without a checkout id and redirect URL.')
      }
      return { id: checkout.id, redirectUrl: checkout.redirectUrl }
    },
    async refund(request: RefundRequest): Promise<RefundResult> {
      let response: Response
      try {
        response = await fetchImpl(`${apiBase}/api/checkouts/${encodeURIComponent(request.checkoutId)}/refund`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${options.secretKey}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': request.idempotencyKey,
          },
          body: JSON.stringify({ amount: request.amountCents, metadata: request.metadata }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        })
      } catch (error) {
        throw new PaymentProviderError(`The payment provider could not be reached (${(error as Error).message}).`)
      }
      const body = await jsonBody(response)
      // A 4xx is Yoco's answer about this refund (not paid, more than is left, …); a 5xx, a request still in progress
      // under the same key (409) or a rate limit (429) says nothing about it yet, so the same key is tried again later.
      if (response.status >= 400 && response.status < 500 && response.status !== 409 && response.status !== 429) {
        return { outcome: 'refused', message: `The payment provider refused the refund (${response.status}): ${problemMessage(body) ?? response.statusText}` }
      }
      if (!response.ok) throw new PaymentProviderError(`The payment provider answered ${response.status}: ${problemMessage(body) ?? response.statusText}`)
      const refund = (body ?? {}) as { refundId?: unknown; id?: unknown; message?: unknown; status?: unknown }
      const refundId = typeof refund.refundId === 'string' ? refund.refundId : typeof refund.id === 'string' ? refund.id : undefined
      if (refundId === undefined) throw new PaymentProviderError('The payment provider answered a refund without its id.')
      if (refund.status !== undefined && refund.status !== 'succeeded') {
        return { outcome: 'refused', message: `The payment provider answered the refund with status ${String(refund.status)}.` }
      }
      return { outcome: 'succeeded', refundId, message: typeof refund.message === 'string' ? refund.message : 'Refund successfully processed' }
    },
  }
}
