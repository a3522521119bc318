import { randomBytes } from 'node:crypto'
import type { SiteLinks } from '@events/core'
import type { CheckoutRequest, CreatedCheckout, PaymentProvider, RefundRequest, RefundResult } from './provider.ts'

export interface SandboxProviderOptions {
  /** The site's pages: the sandbox checkout page stands in for the provider's. */
  links: Pick<SiteLinks, 'sandboxCheckout'>
  /** Signs the sandbox's own webhooks; a fresh random secret per process unless given. */
  webhookSecret?: string | undefined
}

/** A new random Standard Webhooks secret (whsec_ and 24 random bytes in base64). */
function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`
}

/**
 * The default without a Yoco key: checkouts live on the site's own sandbox page, which charges nothing and
 * completes through the same signed-webhook handling as Yoco.
 */
export function createSandboxProvider(options: SandboxProviderOptions): PaymentProvider {
  return {
    name: 'sandbox',
    webhookSecret: options.webhookSecret ?? generateWebhookSecret(),
    async createCheckout(_request: CheckoutRequest): Promise<CreatedCheckout> {
      const id = `ch_sandbox_${randomBytes(16).toString('hex')}`
      return { id, redirectUrl: options.links.sandboxCheckout(id) }
    },
    // The sandbox charged no card, so its refunds move no money either; they succeed so the workflow can be tried.
    async refund(_request: RefundRequest): Promise<RefundResult> {
      return {
        outcome: 'succeeded',
        refundId: `rf_sandbox_${randomBytes(16).toString('hex')}`,
        message: 'Refunded in the sandbox: no card was charged or refunded.',
      }
    },
  }
}
