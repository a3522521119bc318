import { eventCalendarFile, getCreditNotePdf, getInvoicePdf, type Core, type EventCatalog, type SiteLinks } from '@events/core'
import {
  PaymentError,
  WebhookRejectedError,
  completeSandboxCheckout,
  createSandboxProvider,
  createYocoProvider,
  handleWebhook,
  startCheckout,
  yocoCheckoutOrigins,
  type PaymentContext,
  type SandboxAction,
} from '@events/payments'
import express from 'express'
import { ConfigError, type Config } from '@events/config'
import { MAX_BODY_BYTES } from './http-guards'

export interface SitePayments {
  /** What the payment functions of `@events/payments` take: the provider, core's database and the site's clocks. */
  context: PaymentContext
  /** The webhook, the pay endpoint, the sandbox's buttons, invoice and calendar downloads. */
  router: express.Router
  /** Origins besides the site's own that a Pay form's redirect may lead to (the provider's checkout page). */
  checkoutOrigins: string[]
}

const privateHeaders = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' }
const SANDBOX_ACTIONS: readonly SandboxAction[] = ['pay', 'cancel', 'fail']

/** A registrant's tax invoice or credit note as a download, never cached or indexed; 404 with `missing` when there is none. */
function sendPrivatePdf(res: express.Response, document: { filename: string; pdf: Buffer } | undefined, missing: string): void {
  res.set(privateHeaders)
  if (!document) {
    res.status(404).type('text/plain').send(missing)
    return
  }
  res.type('application/pdf').set('Content-Disposition', `attachment; filename="${document.filename}"`).send(document.pdf)
}

function isLoopbackOrigin(siteUrl: string): boolean {
  const host = new URL(siteUrl).hostname
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host)
}

function isLoopbackAddress(address: string | undefined): boolean {
  return address === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(address ?? '')
}

function wantsJson(req: express.Request): boolean {
  return req.accepts(['html', 'json']) === 'json'
}

/**
 * Card payments for the site: Yoco Checkout when YOCO_SECRET_KEY is set (YOCO_WEBHOOK_SECRET is then required),
 * otherwise the local sandbox checkout.
 */
export function createSitePayments({
  config,
  core,
  catalog,
  links,
  log,
  onPaymentSucceeded,
}: {
  config: Config
  core: Core
  catalog: EventCatalog
  links: SiteLinks
  log: (line: string) => void
  /** Told once for each card payment that marks a registration paid. */
  onPaymentSucceeded?: () => void
}): SitePayments {
  if (config.yocoSecretKey && !config.yocoWebhookSecret) {
    throw new ConfigError('YOCO_WEBHOOK_SECRET must be set with YOCO_SECRET_KEY: without it Yoco webhooks cannot be verified and nothing would be marked paid')
  }
  // The sandbox marks registrations paid without charging anything: a public site that forgot its Yoco key must not
  // quietly give seats away.
  if (!config.yocoSecretKey && !config.paymentsSandboxAllowed && !isLoopbackOrigin(config.siteUrl)) {
    throw new ConfigError(
      `Card payments need YOCO_SECRET_KEY and YOCO_WEBHOOK_SECRET on ${config.siteUrl}; set PAYMENTS_SANDBOX=1 to use the sandbox checkout, which charges nothing, instead`,
    )
  }
  const provider =
    config.yocoSecretKey && config.yocoWebhookSecret
      ? createYocoProvider({ secretKey: config.yocoSecretKey, webhookSecret: config.yocoWebhookSecret, apiBase: config.yocoApiBase })
      : createSandboxProvider({ links })
  log(
    provider.name === 'yoco'
      ? `Card payments: Yoco Checkout at ${config.yocoApiBase}`
      : 'Card payments: the local sandbox checkout, which charges nothing (set YOCO_SECRET_KEY and YOCO_WEBHOOK_SECRET for Yoco)',
  )
  const context: PaymentContext = {
    db: core.db,
    catalog,
    provider,
    links,
    organiserEmail: config.core.organiserEmail,
    siteNow: config.now,
    onMailQueued: () => core.outbox.wake(),
    onPaymentSucceeded,
  }
  const router = express.Router()

  // Signatures cover the exact bytes Yoco sent, so the body is read raw, never re-serialised JSON.
  router.post('/api/payments/yoco/webhook', express.raw({ type: () => true, limit: MAX_BODY_BYTES }), (req, res, next) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : ''
    handleWebhook(context, rawBody, req.headers).then(
      (result) => res.set('Cache-Control', 'no-store').json({ received: true, ...result }),
      (error: unknown) => {
        if (error instanceof WebhookRejectedError)
          res
            .status(error.status)
            .set('Cache-Control', 'no-store')
            .json({ error: { code: 'webhook-rejected', message: error.message } })
        else next(error)
      },
    )
  })

  // The Pay button: JSON for the enhanced page ({ success, redirectUrl, message }), a 303 for a plain form post.
  router.post('/registrations/:reference/:secret/pay', async (req, res, next) => {
    const json = wantsJson(req)
    res.set(privateHeaders)
    const decision = await core.formRateLimiter.check(req.ip ?? req.socket.remoteAddress ?? 'unknown')
    if (!decision.allowed) {
      res.set('Retry-After', String(decision.retryAfterSeconds)).status(429)
      const message = 'Too many attempts from your connection. Please wait a minute and try again.'
      if (json) res.json({ success: false, message })
      else res.type('text/plain').send(message)
      return
    }
    startCheckout(context, String(req.params.reference), String(req.params.secret)).then(
      (started) => {
        const redirectUrl = started.kind === 'redirect' ? started.redirectUrl : started.statusUrl
        const message = {
          redirect: 'Redirecting to the payment page.',
          'already-paid': 'This registration is already paid.',
          'pay-by-transfer': 'Part of this registration has been paid by bank transfer or credited. Please pay the rest by bank transfer.',
        }[started.kind]
        if (json) res.json({ success: true, redirectUrl, message })
        else res.redirect(303, redirectUrl)
      },
      (error: unknown) => {
        if (!(error instanceof PaymentError)) {
          next(error)
          return
        }
        const status = error.code === 'not-found' ? 404 : 502
        if (json) res.status(status).json({ success: false, message: error.message })
        else if (error.code === 'not-found') res.status(404).type('text/plain').send('No registration was found at this address.')
        // Back to the payment page, which shows the reason and the button again.
        else res.redirect(303, `${req.path}?error=${encodeURIComponent(error.message)}`)
      },
    )
  })

  // The sandbox marks registrations paid for nothing: unless PAYMENTS_SANDBOX says a staging site offers it, only a
  // browser on the machine itself (a developer's) may use it. req.ip is the client behind a trusted proxy.
  router.use('/payments/sandbox', (req, res, next) => {
    if (config.paymentsSandboxAllowed || isLoopbackAddress(req.ip)) {
      next()
      return
    }
    res.status(403).set('Cache-Control', 'no-store').type('text/plain').send('The test checkout is only available on the computer that runs the site.')
  })

  router.post('/payments/sandbox/:checkoutId', express.urlencoded({ extended: false, limit: 1024 }), (req, res, next) => {
    const action = (req.body as Record<string, unknown> | undefined)?.action
    if (!SANDBOX_ACTIONS.includes(action as SandboxAction)) {
      res.status(400).type('text/plain').send('Choose Pay, Cancel or Fail.')
      return
    }
    completeSandboxCheckout(context, String(req.params.checkoutId), action as SandboxAction).then((next303) => {
      if (next303) res.set('Cache-Control', 'no-store').redirect(303, next303)
      else res.status(404).type('text/plain').send('No sandbox checkout at this address.')
    }, next)
  })

  router.get('/registrations/:reference/:secret/invoice.pdf', (req, res, next) => {
    getInvoicePdf(core.registrations, String(req.params.reference), String(req.params.secret)).then(
      (invoice) => sendPrivatePdf(res, invoice, 'No invoice was found at this address.'),
      next,
    )
  })

  router.get('/registrations/:reference/:secret/invoices/:file', (req, res, next) => {
    const number = String(req.params.file).replace(/\.pdf$/, '')
    getInvoicePdf(core.registrations, String(req.params.reference), String(req.params.secret), number).then(
      (invoice) => sendPrivatePdf(res, invoice, 'No invoice was found at this address.'),
      next,
    )
  })

  router.get('/registrations/:reference/:secret/credit-notes/:file', (req, res, next) => {
    const number = String(req.params.file).replace(/\.pdf$/, '')
    getCreditNotePdf(core.registrations, String(req.params.reference), String(req.params.secret), number).then(
      (creditNote) => sendPrivatePdf(res, creditNote, 'No credit note was found at this address.'),
      next,
    )
  })

  router.get('/:kind/:slug/calendar.ics', (req, res, next) => {
    const kind = req.params.kind
    if (kind !== 'conference' && kind !== 'workshop') {
      next()
      return
    }
    Promise.all([catalog.getEvent(String(req.params.slug)), catalog.getSettings()]).then(([event, settings]) => {
      // The catalog also finds a renamed event by its old slug; that address is left to the redirects, which move it.
      if (!event || event.kind !== kind || event.slug !== req.params.slug) {
        next()
        return
      }
      res
        .type('text/calendar; charset=utf-8')
        .set('Content-Disposition', `attachment; filename="${event.slug}.ics"`)
        .set('Cache-Control', 'public, max-age=300')
        .send(eventCalendarFile(event, settings.siteName))
    }, next)
  })

  const checkoutOrigins = provider.name === 'yoco' ? yocoCheckoutOrigins(config.yocoApiBase) : []
  return { context, router, checkoutOrigins }
}
