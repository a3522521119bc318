import { Webhook, WebhookVerificationError } from 'standardwebhooks'

/** A webhook that failed verification: answered with a 4xx, never acted on. */
export class WebhookRejectedError extends Error {
  readonly status: number

  constructor(message: string, status = 400) {
    super(message)
    this.name = 'WebhookRejectedError'
    this.status = status
  }
}

export type WebhookHeaders = Readonly<Record<string, string | string[] | undefined>>

/** The Standard Webhooks headers a provider signs with. */
export interface SignedWebhookHeaders {
  'webhook-id': string
  'webhook-timestamp': string
  'webhook-signature': string
}

function header(headers: WebhookHeaders, name: keyof SignedWebhookHeaders): string {
  const value = headers[name]
  const text = Array.isArray(value) ? value[0] : value
  if (typeof text !== 'string' || text === '') throw new WebhookRejectedError(`Missing ${name} header`)
  return text
}

/**
 * Verifies a webhook per Standard Webhooks over the raw body: HMAC-SHA256 of id.timestamp.body with the whsec_
 * secret, and a timestamp within 5 minutes of now. Answers the webhook id and the parsed body.
 */
export function verifyWebhook(secret: string, rawBody: string, headers: WebhookHeaders): { webhookId: string; event: unknown } {
  const signed: SignedWebhookHeaders = {
    'webhook-id': header(headers, 'webhook-id'),
    'webhook-timestamp': header(headers, 'webhook-timestamp'),
    'webhook-signature': header(headers, 'webhook-signature'),
  }
  // Built outside the try: a malformed secret is our configuration fault, not a bad webhook.
  const webhook = new Webhook(secret)
  try {
    const event = webhook.verify(rawBody, { ...signed })
    return { webhookId: signed['webhook-id'], event }
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw new WebhookRejectedError(`Webhook rejected: ${error.message}`)
    throw new WebhookRejectedError('Webhook rejected: the body is not JSON')
  }
}

/** Throws unless the secret is a usable Standard Webhooks secret (whsec_ and base64). */
export function assertWebhookSecret(secret: string, name: string): void {
  try {
    new Webhook(secret)
  } catch (error) {
    throw new Error(`${name} is not a Standard Webhooks secret (whsec_ followed by base64): ${(error as Error).message}`, { cause: error })
  }
}

/** Signs a body as a provider would, for the sandbox's own webhooks. */
export function signWebhook(secret: string, webhookId: string, rawBody: string, at: Date): SignedWebhookHeaders {
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(webhookId, at, rawBody),
  }
}
