import type { EventCatalog } from '../catalog.ts'
import type { Kysely } from 'kysely'
import type { CoreDatabase, Database } from '../db/database.ts'
import type { SiteLinks } from '../site-links.ts'

/** What the back-office functions need: the database, the site settings for e-mails, the site's links and clocks. */
export interface BackOfficeContext {
  db: CoreDatabase
  catalog: EventCatalog
  /** The site's pages, for the links in e-mails. */
  links: SiteLinks
  /** ORGANISER_EMAIL: the address replies to enquiries come from; the site settings' contact e-mail without it. */
  organiserEmail?: string | undefined
  /** The wall clock, for the books (recorded_at, paid_at). */
  now?: () => Date
  /** The business clock (SITE_DATE), for what e-mails say and which events are upcoming. */
  siteNow?: () => Date
  /** Card payments' facts, from `@events/payments`, which owns their tables; without it no card payment is known. */
  cardPayments?: CardPaymentFacts | undefined
  /** WAITING_LIST_OFFER_HOURS: how long a waiting-list offer holds its seats; 48 when unset. */
  waitingListOfferHours?: number | undefined
}

/** What the back office asks of card payments: `@events/payments` answers it from its own tables. */
export interface CardPaymentFacts {
  /** The card checkout that paid a registration, read through the caller's queries (a transaction's); undefined when none did. */
  paidCheckoutOf(queries: Kysely<Database>, registrationId: string): Promise<string | undefined>
}

/** The staff member acting, as the caller's sign-in knows them; kept with what they recorded. */
export interface ActingStaff {
  id: string
  name: string
}

export function wallClock(context: Pick<BackOfficeContext, 'now'>): Date {
  return (context.now ?? (() => new Date()))()
}

export function businessClock(context: BackOfficeContext): Date {
  return (context.siteNow ?? context.now ?? (() => new Date()))()
}
