import { LOCAL_CONTENT_PREFIX } from '@events/content'
import type { ServerBuild } from 'react-router'

/** What Express serves before React Router sees a request: static assets, the content endpoint, the API, downloads. */
export const SERVER_ROUTE_PATTERNS: readonly string[] = [
  '/assets/*',
  '/favicon.svg',
  `${LOCAL_CONTENT_PREFIX}/*`,
  '/healthz',
  '/readyz',
  '/metrics',
  '/api/content/:queryName',
  '/api/registrations',
  '/api/contact',
  '/api/training-requests',
  '/api/waiting-list',
  '/api/payments/yoco/webhook',
  '/registrations/:reference/:secret/invoice.pdf',
  '/registrations/:reference/:secret/invoices/:file',
  '/registrations/:reference/:secret/credit-notes/:file',
  '/:kind/:slug/calendar.ics',
]

/** The full path pattern of every page route in a React Router build (`/conference/:slug`, `/*` for the catch-all). */
export function pageRoutePatterns(routes: ServerBuild['routes']): string[] {
  const fullPath = (id: string | undefined): string => {
    const route = id === undefined ? undefined : routes[id]
    if (!route) return ''
    const parent = fullPath(route.parentId)
    return route.path ? `${parent}/${route.path}` : parent
  }
  return Object.keys(routes).map((id) => fullPath(id).replace(/\/{2,}/g, '/') || '/')
}
