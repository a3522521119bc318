import { decodeSignatureHeader, isValidRequest, SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import express from 'express'

export const SANITY_WEBHOOK_PATH = '/api/sanity/webhook'
/** The id Sanity gives a delivery, the same on each of its retries. */
export const DELIVERY_ID_HEADER = 'idempotency-key'

// Sanity signs each delivery with its time; an old one replayed would only make the site render again, but need not.
const SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000

export interface SanityWebhookOptions {
  /** SANITY_WEBHOOK_SECRET, the secret the webhook was created with in Sanity's project settings. */
  secret: string
  /** Called for each verified delivery: content was published, changed or deleted. */
  onContentChanged(): void
  /**
   * Records a delivery's keys where every instance sees them, and says whether none was recorded before; keys are
   * kept `keepMs` after they were last seen.
   */
  isFirstDelivery(keys: readonly string[], at: Date, keepMs: number): Promise<boolean>
  now?: () => number
}

/**
 * `POST /api/sanity/webhook`: a delivery of a Sanity GROQ webhook, verified by its `sanity-webhook-signature` (an
 * HMAC of the raw body with the secret, checked by @sanity/webhook) and its time. A valid one drops what the site
 * made from content and answers 200 at once, once per delivery; anything else answers 401 and changes nothing.
 */
export function sanityWebhook({ secret, onContentChanged, isFirstDelivery, now = Date.now }: SanityWebhookOptions): express.Router {
  const router = express.Router()
  // The signature covers the body's exact bytes, so it is read as text, whatever type it claims.
  router.post(SANITY_WEBHOOK_PATH, express.text({ type: () => true, limit: '1mb' }), async (req, res, next) => {
    try {
      res.set('Cache-Control', 'no-store')
      if (typeof req.body !== 'string' || !(await isValidRequest(req, secret)) || !isFresh(req.get(SIGNATURE_HEADER_NAME) ?? '', now())) {
        req.log.warn('Sanity webhook refused: missing, invalid or stale signature')
        res.status(401).json({ error: { code: 'invalid-signature', message: 'The webhook signature is missing, invalid or too old.' } })
        return
      }
      // A delivery is acted on once, by whichever instance it reaches: its retries (the same id) and a replay of its
      // signed request (the same signature) are answered without dropping the pages again. A signature is accepted
      // for the tolerance either side of its time, so keeping its key twice that long outlasts any replay.
      const keys = [`signature:${req.get(SIGNATURE_HEADER_NAME)}`, ...(req.get(DELIVERY_ID_HEADER) ? [`id:${req.get(DELIVERY_ID_HEADER)}`] : [])]
      if (!(await isFirstDelivery(keys, new Date(now()), SIGNATURE_TOLERANCE_MS * 2))) {
        req.log.info('Sanity webhook: a delivery already acted on, ignored')
        res.json({ revalidated: false, duplicate: true })
        return
      }
      onContentChanged()
      req.log.info('Sanity webhook: content changed, cached pages dropped')
      res.json({ revalidated: true })
    } catch (error) {
      next(error)
    }
  })
  return router
}

function isFresh(signature: string, now: number): boolean {
  return Math.abs(now - decodeSignatureHeader(signature).timestamp) <= SIGNATURE_TOLERANCE_MS
}
