import type { RateLimiter } from '@events/core'
import express from 'express'
import { REFUSALS, refusalBody, type RefusalCode } from '../app/lib/refusals'

/** The largest request body any form or API endpoint accepts, but for the back office's file uploads. */
export const MAX_BODY_BYTES = 100 * 1024

/** The largest bank statement staff may upload: a busy account's month of lines, with room to spare. */
export const MAX_STATEMENT_UPLOAD_BYTES = 2 * 1024 * 1024

// Only signed-in staff reach the upload's action, which checks the session before it reads the body.
const UPLOAD_PATHS = new Set(['/admin/bank-statements', '/admin/bank-statements.data'])

/** The largest body a page form post to `path` may declare. */
export function formBodyLimit(path: string): number {
  return UPLOAD_PATHS.has(path) ? MAX_STATEMENT_UPLOAD_BYTES : MAX_BODY_BYTES
}

function refuse(res: express.Response, code: RefusalCode, format: 'json' | 'text'): void {
  res.status(REFUSALS[code].status).set('Cache-Control', 'no-store')
  if (format === 'json') res.json(refusalBody(code))
  else res.type('text/plain').send(REFUSALS[code].message)
}

function declaredLength(req: express.Request): number | undefined {
  const header = req.headers['content-length']
  return header === undefined ? undefined : Number(header)
}

function clientKey(req: express.Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown'
}

/**
 * The JSON API's gate: a post counts against the per-IP limit, then must be JSON of at most MAX_BODY_BYTES
 * that parses. Every refusal answers with the shared error body and stores nothing.
 */
export function jsonApiGuard(limiter: RateLimiter): Array<express.RequestHandler | express.ErrorRequestHandler> {
  const parseJson = express.json({ limit: MAX_BODY_BYTES, strict: false, type: () => true })
  const admit: express.RequestHandler = async (req, res, next) => {
    const decision = await limiter.check(clientKey(req))
    if (!decision.allowed) {
      res.set('Retry-After', String(decision.retryAfterSeconds))
      refuse(res, 'rate-limited', 'json')
      return
    }
    const length = declaredLength(req)
    if (length !== undefined && length > MAX_BODY_BYTES) {
      // Closing the connection spares reading a body that will not be used.
      res.set('Connection', 'close')
      refuse(res, 'payload-too-large', 'json')
      return
    }
    if (!req.is('application/json') && !req.is('application/*+json')) {
      refuse(res, 'unsupported-media-type', 'json')
      return
    }
    next()
  }
  return [
    admit,
    parseJson,
    ((error, _req, res, next) => {
      // body-parser marks each failure with a type; only the visitor's mistakes are answered here.
      const type = (error as { type?: string } | undefined)?.type
      if (type === 'entity.too.large') refuse(res, 'payload-too-large', 'json')
      else if (type === 'charset.unsupported' || type === 'encoding.unsupported') refuse(res, 'unsupported-media-type', 'json')
      else if (type === 'entity.parse.failed' || type === 'request.aborted' || type === 'request.size.invalid') refuse(res, 'invalid-request', 'json')
      else next(error)
    }) satisfies express.ErrorRequestHandler,
  ]
}

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data']

/**
 * The page forms' gate, before React Router reads a post: form encodings only, a declared length of at most
 * `formBodyLimit` (browsers always declare it; an undeclared length could not be bounded before the route reads
 * the body). The per-IP limit is applied by the actions, which know whether a post is a submission.
 */
export const pageFormGuard: express.RequestHandler = (req, res, next) => {
  // Other JSON endpoints under /api (payment webhooks) have their own parsing.
  if (req.method !== 'POST' || req.path.startsWith('/api/')) {
    next()
    return
  }
  const length = declaredLength(req)
  if (length === undefined || Number.isNaN(length)) {
    refuse(res, 'length-required', 'text')
    return
  }
  if (length > formBodyLimit(req.path)) {
    res.set('Connection', 'close')
    refuse(res, 'payload-too-large', 'text')
    return
  }
  if (length > 0 && !FORM_TYPES.some((type) => req.is(type))) {
    refuse(res, 'unsupported-media-type', 'text')
    return
  }
  next()
}

/** The host (with its port) of an Origin header; null for an opaque origin ("null") or one that is not a URL. */
function hostOf(origin: string): string | null {
  return URL.canParse(origin) ? new URL(origin).host : null
}

/**
 * Refuses with 403 a page form post that another site made the browser send, by its Origin or Fetch Metadata,
 * before React Router reads it (which would answer a bare 400 and log it as an error): a probe is not a fault, so it
 * is logged as a warning. The origin may be `SITE_URL`'s or, as React Router allows, the Host the request came to. A post that carries neither header goes on; the back office's actions refuse that too.
 */
export function crossSitePostGuard(siteOrigin: string): express.RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST' || req.path.startsWith('/api/')) {
      next()
      return
    }
    const origin = req.headers.origin
    const fetchSite = req.headers['sec-fetch-site']
    const foreignOrigin = origin !== undefined && origin !== siteOrigin && hostOf(origin) !== req.headers.host
    const crossSite = foreignOrigin || (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none')
    if (!crossSite) {
      next()
      return
    }
    req.log.warn({ origin, fetchSite }, 'A form post from another site was refused')
    refuse(res, 'cross-site-post', 'text')
  }
}

const PAGE_METHODS = ['GET', 'HEAD', 'POST']

/**
 * Refuses with 405 every method but GET, HEAD and POST (TRACE, PROPFIND, PUT, DELETE...) before a route sees it:
 * the Fetch API React Router builds requests with cannot even represent some of them, and a page's action must
 * not take a DELETE for a form post. Under /api/ every endpoint takes POST only, and answers in JSON.
 */
export const methodGuard: express.RequestHandler = (req, res, next) => {
  if (PAGE_METHODS.includes(req.method)) {
    next()
    return
  }
  const api = req.path.startsWith('/api/')
  res.set('Allow', api ? 'POST' : PAGE_METHODS.join(', '))
  refuse(res, 'method-not-allowed', api ? 'json' : 'text')
}

/**
 * Answers an address Express could not decode (a malformed %-escape in a path parameter) with a refusal in the
 * visitor's words and the site's headers, rather than Express's bare error page; other errors go on.
 */
export const malformedAddressHandler: express.ErrorRequestHandler = (error, req, res, next) => {
  if (!(error instanceof URIError) || res.headersSent) {
    next(error)
    return
  }
  refuse(res, 'malformed-address', req.path.startsWith('/api/') ? 'json' : 'text')
}
