/** The core's settings, handed to it by the configuration module (`@events/config`), which reads the environment. */
export interface CoreConfig {
  dataDir: string
  databaseUrl?: string
  smtpUrl?: string
  mailFrom: string
  /** Unset: mail goes to the contact e-mail of the site settings. */
  organiserEmail?: string
  /** ENQUIRY_RETENTION_MONTHS: how long contact enquiries and training requests are kept before they are anonymised. */
  enquiryRetentionMonths: number
  /** SITE_DATE: the fixed "now" for registration rules; unset means the real time. */
  siteDate?: Date
  /** Form posts per minute per IP; 0 turns the limit off. */
  formRateLimit: number
  /** How long startup keeps retrying a PostgreSQL server it cannot reach, in milliseconds. */
  databaseStartupWaitMs: number
  /** DATABASE_POOL_MAX: PostgreSQL connections this process opens at most (requests, outbox, jobs). */
  databasePoolMax?: number
  /** WAITING_LIST_OFFER_HOURS: how long a waiting-list offer holds its seats (48 when unset). */
  waitingListOfferHours?: number
  /** JOINING_MAIL_DAYS_BEFORE: how many days before an event its delegates get their joining e-mail (3 when unset). */
  joiningMailDaysBefore?: number
  /** MIGRATE_ON_START: false leaves migrations to `pnpm db:migrate`. */
  migrateOnStart?: boolean
}
