import { isDatabaseFault } from '@events/core'
import type express from 'express'
import { RETRY_AFTER_SECONDS } from '../app/lib/database.server'
import { REFUSALS, refusalBody, type RefusalCode } from '../app/lib/refusals'

function clientErrorStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown; statusCode?: unknown } | undefined)?.status ?? (error as { statusCode?: unknown } | undefined)?.statusCode
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined
}

/**
 * The last stop of every error the handlers pass on, instead of Express's HTML 500: a database fault answers 503
 * with Retry-After (the request may succeed shortly, and the site recovers by itself), anything else 500. The API
 * and JSON requests get the shared JSON error body, other requests a line of text; the details go to the request's
 * log only.
 */
export const serverFaultHandler: express.ErrorRequestHandler = (error, req, res, next) => {
  if (res.headersSent) {
    next(error)
    return
  }
  const clientStatus = clientErrorStatus(error)
  const code: RefusalCode = clientStatus ? 'invalid-request' : isDatabaseFault(error) ? 'unavailable' : 'internal-error'
  req.log[clientStatus ? 'warn' : 'error']({ err: error }, 'Request failed')
  res.status(clientStatus ?? REFUSALS[code].status).set('Cache-Control', 'no-store')
  if (code === 'unavailable') res.set('Retry-After', String(RETRY_AFTER_SECONDS))
  const json = req.originalUrl.startsWith('/api/') || req.accepts(['html', 'json']) === 'json'
  if (json) res.json(refusalBody(code))
  else res.type('text/plain').send(REFUSALS[code].message)
}
