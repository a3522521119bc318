import {
  createRegistration,
  getRegistrationByReferenceAndSecret,
  isHoneypotFilled,
  isValidationError,
  paysByCard,
  registrationStatusJson,
  type Core,
  type RegistrationReceipt,
  type SiteLinks,
} from '@events/core'
import express from 'express'
import { jsonApiGuard } from './http-guards'
import { honeypotReceipt } from '../app/lib/honeypot.server'
import { refusalBody, validationRefusal, type SubmissionKind } from '../app/lib/refusals'

type Handler = (req: express.Request, res: express.Response) => Promise<void>

// A validation failure answers its 4xx with the shared body, in the words of the submission's form; anything else
// is a fault of ours and goes on to a 500.
function answeringValidationErrors(kind: SubmissionKind, handler: Handler): express.RequestHandler {
  return (req, res, next) => {
    handler(req, res).catch((error: unknown) => {
      if (!isValidationError(error)) {
        next(error)
        return
      }
      const refusal = validationRefusal(error, kind)
      res.status(refusal.status).set('Cache-Control', 'no-store').json(refusal.body)
    })
  }
}

/** The 201 body of a registration: the receipt with its private links, with the card payment page when paid by card. */
function receiptJson(receipt: RegistrationReceipt, links: SiteLinks, byCard: boolean) {
  return {
    reference: receipt.reference,
    total: receipt.total,
    totalCents: receipt.totalCents,
    currency: receipt.currency,
    status: receipt.status,
    statusUrl: links.registrationStatus(receipt),
    // A registration with nothing to pay (a complimentary seat) is paid from the start and has no payment page.
    ...(byCard && receipt.status !== 'paid' ? { paymentUrl: links.registrationPayment(receipt) } : {}),
  }
}

/** The JSON endpoints: POST /api/registrations, /api/contact, /api/training-requests and /api/waiting-list (the same services the forms call). */
export function createApiRouter(core: Core, links: SiteLinks): express.Router {
  const router = express.Router()
  const guard = jsonApiGuard(core.formRateLimiter)

  router.post(
    '/registrations',
    guard,
    answeringValidationErrors('registration', async (req, res) => {
      res.set('Cache-Control', 'no-store')
      if (isHoneypotFilled(req.body)) {
        res.status(201).json(receiptJson(honeypotReceipt(), links, false))
        return
      }
      const { receipt, paymentMethod } = await createRegistration(core.registrations, req.body, { idempotencyKey: req.get('Idempotency-Key') })
      const body = receiptJson(receipt, links, paysByCard(paymentMethod))
      res.status(201).location(body.statusUrl).json(body)
    }),
  )

  const enquiries = [
    ['/contact', 'contact', core.enquiries.submitContactEnquiry],
    ['/training-requests', 'training', core.enquiries.submitTrainingRequest],
  ] as const
  for (const [path, kind, submit] of enquiries) {
    router.post(
      path,
      guard,
      answeringValidationErrors(kind, async (req, res) => {
        const accepted = await submit(req.body)
        res.status(201).set('Cache-Control', 'no-store').json(accepted)
      }),
    )
  }

  // A place on a sold-out event's waiting list: 201 with the place's number; refused with 409 while seats are free.
  router.post(
    '/waiting-list',
    guard,
    answeringValidationErrors('waiting-list', async (req, res) => {
      const { position } = await core.joinWaitingList(req.body)
      res.status(201).set('Cache-Control', 'no-store').json({ position })
    }),
  )

  router.all(['/registrations', '/contact', '/training-requests', '/waiting-list'], (_req, res) => {
    res.status(405).set('Allow', 'POST').json(refusalBody('method-not-allowed'))
  })
  return router
}

const privateHeaders = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex', Vary: 'Accept' }

/**
 * The JSON view of a registrant's private status page (Accept: application/json); browsers asking for HTML fall
 * through to the page route.
 */
export function statusJsonHandler(core: Core): express.RequestHandler {
  return (req, res, next) => {
    if (req.accepts(['html', 'json']) !== 'json') {
      next()
      return
    }
    const reference = String(req.params.reference ?? '')
    const secret = String(req.params.secret ?? '')
    getRegistrationByReferenceAndSecret(core.registrations, reference, secret)
      .then((details) => {
        res.set(privateHeaders)
        if (!details) res.status(404).json(refusalBody('not-found'))
        else res.json(registrationStatusJson(details))
      })
      .catch(next)
  }
}
