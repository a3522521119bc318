import type { Core } from '@events/core'
import type { PaymentService } from '@events/payments'
import type { SanityClient } from '@sanity/client'
import { createContext } from 'react-router'
import type { SiteConfig } from '../../server/config'

/** What route loaders and actions need from the server process. */
export interface SiteServices {
  config: SiteConfig
  content: SanityClient
  /** The browser's view of the content client: where it reads content from, never a token. */
  publicContentConfig: PublicContentConfig
  /** Registrations, enquiries and the form rate limiter. */
  core: Core
  /** Card checkouts and the sandbox checkout page. */
  payments: PaymentService
}

export interface PublicContentConfig {
  projectId: string
  dataset: string
  apiVersion: string
  apiHost: string | undefined
  useCdn: boolean
}

/** Facts about the request that only the Node server knows. */
export interface RequestFacts {
  /** The client's address as Express sees it (TRUST_PROXY aware); the rate limiter's key. */
  clientIp: string
}

export const servicesContext = createContext<SiteServices>()
export const requestFactsContext = createContext<RequestFacts>({ clientIp: 'unknown' })
