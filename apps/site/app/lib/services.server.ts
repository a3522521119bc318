import type { Core, SiteLinks } from '@events/core'
import type { Logger } from '@events/observability'
import type { PaymentContext } from '@events/payments'
import type { Staff } from '@events/staff'
import type { SanityClient } from '@sanity/client'
import { createContext } from 'react-router'
import type { Config } from '@events/config'

/** What route loaders and actions need from the server process. */
export interface SiteServices {
  config: Config
  content: SanityClient
  /** Registrations, enquiries and the form rate limiter. */
  core: Core
  /** The site's pages as absolute URLs (SITE_URL), also handed to core, payments and staff. */
  links: SiteLinks
  /** Card checkouts and the sandbox checkout page. */
  payments: PaymentContext
  /** Back-office staff accounts: sign-in, the guards of /admin, the audit log. */
  staff: Staff
}

/** Facts about the request that only the Node server knows. */
export interface RequestFacts {
  /** The client's address as Express sees it (TRUST_PROXY aware); the rate limiter's key. */
  clientIp: string
  /** The request's logger: its lines carry the request id. */
  log: Logger
  /** This response's Content-Security-Policy nonce, for the page's inline scripts and styles. */
  cspNonce: string
  /** The request is in draft mode: content is read with drafts, and the page loads the Studio's overlays. */
  preview: boolean
  /** A single-fetch data request (`….data`) rather than a page: the back office's guards answer it 401, not a redirect. */
  dataRequest: boolean
}

export const servicesContext = createContext<SiteServices>()
export const requestFactsContext = createContext<RequestFacts>()
