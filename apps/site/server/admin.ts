import { STAFF_CLIENT_IP_HEADER } from '@events/staff'
import type express from 'express'

/** True for the back office's pages and their single-fetch data requests (`/admin.data`, `/admin/….data`). */
export function isAdminPath(path: string): boolean {
  return path === '/admin' || path === '/admin.data' || path.startsWith('/admin/')
}

/**
 * Hands the staff package the client's address as Express works it out under TRUST_PROXY, for its per-address
 * sign-in limit and the audit log. A value the client sent under that name is replaced, never trusted.
 */
export const staffClientAddress: express.RequestHandler = (req, _res, next) => {
  delete req.headers[STAFF_CLIENT_IP_HEADER]
  if (isAdminPath(req.path)) req.headers[STAFF_CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? 'unknown'
  next()
}

/** Back-office answers are personal: never stored by a cache, never indexed. */
export const adminPageHeaders: express.RequestHandler = (req, res, next) => {
  if (isAdminPath(req.path)) res.set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' })
  next()
}
