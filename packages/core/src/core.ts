import type { EventCatalog } from './catalog.ts'
import type { CoreConfig } from './config.ts'
import type { CoreDatabase } from './db/database.ts'
import { openDatabase } from './db/open-database.ts'
import { createEnquiryService, type EnquiryService } from './enquiries/service.ts'
import { createMailTransport } from './mail/transport.ts'
import { startOutboxWorker, type OutboxWorker } from './outbox/worker.ts'
import { createRateLimiter, type RateLimiter } from './rate-limit.ts'
import { createRegistrationService, type RegistrationService } from './registration/service.ts'

export interface Core {
  db: CoreDatabase
  registrations: RegistrationService
  enquiries: EnquiryService
  /** Per-IP limit on form posts (FORM_RATE_LIMIT per minute); check it before calling a service. */
  formRateLimiter: RateLimiter
  outbox: OutboxWorker
  /** Stops the outbox worker after the messages in flight, then closes mail and database connections. */
  close(): Promise<void>
}

export interface StartCoreOptions {
  config: CoreConfig
  catalog: EventCatalog
  log?: (line: string) => void
}

/** Opens the database (running migrations), starts the outbox worker and wires the services from the configuration. */
export async function startCore(options: StartCoreOptions): Promise<Core> {
  const { config, catalog } = options
  const log = options.log ?? ((line: string) => console.log(line))
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  const transport = createMailTransport({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, from: config.mailFrom, log })
  const outbox = startOutboxWorker({ db, transport, log })
  const siteDate = config.siteDate
  const registrations = createRegistrationService({
    db,
    catalog,
    siteUrl: config.siteUrl,
    organiserEmail: config.organiserEmail,
    siteNow: () => (siteDate ? new Date(siteDate) : new Date()),
  })
  const enquiries = createEnquiryService({ db, catalog, organiserEmail: config.organiserEmail })
  const wakeAfter =
    <Args extends unknown[], Result>(submit: (...args: Args) => Promise<Result>) =>
    async (...args: Args): Promise<Result> => {
      const result = await submit(...args)
      outbox.wake()
      return result
    }
  return {
    db,
    // New e-mails go out at once rather than at the next poll.
    registrations: { ...registrations, createRegistration: wakeAfter(registrations.createRegistration) },
    enquiries: {
      submitContactEnquiry: wakeAfter(enquiries.submitContactEnquiry),
      submitTrainingRequest: wakeAfter(enquiries.submitTrainingRequest),
    },
    formRateLimiter: createRateLimiter({ limit: config.formRateLimit }),
    outbox,
    async close() {
      await outbox.stop()
      transport.close()
      await db.close()
    },
  }
}
