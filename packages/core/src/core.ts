import { hostname } from 'node:os'
import type { BackOfficeContext, CardPaymentFacts } from './backoffice/context.ts'
import type { EventCatalog } from './catalog.ts'
import type { CoreConfig } from './config.ts'
import type { CoreDatabase } from './db/database.ts'
import { openDatabase } from './db/open-database.ts'
import { createEnquiryService, type EnquiryService } from './enquiries/service.ts'
import { createMailTransport } from './mail/transport.ts'
import { startCertificateRounds } from './event-days/certificates.ts'
import { startJoiningMails } from './event-days/joining-mails.ts'
import { startPaymentReminders } from './invoice/payment-reminders.ts'
import { joinWaitingList, startWaitingListSweeps, type WaitingListPlace } from './seats/waiting-list.ts'
import { startOutboxWorker, type OutboxWorker } from './outbox/worker.ts'
import { createRateLimiter, createSharedRateLimiter, type RateLimiter } from './rate-limit.ts'
import { preparePrivateDataDirectory } from './private-files.ts'
import { startEventIdFiller } from './registration/event-ids.ts'
import type { CreateRegistrationResult, RegistrationContext } from './registration/model.ts'
import type { SiteLinks } from './site-links.ts'

export interface Core {
  db: CoreDatabase
  /** What the registration commands and queries (`src/registration`) take, with the outbox told of new e-mails. */
  registrations: RegistrationContext
  enquiries: EnquiryService
  /** Adds a visitor to a sold-out event's waiting list (src/seats/waiting-list.ts), its e-mail sent at once. */
  joinWaitingList(input: unknown): Promise<WaitingListPlace>
  /** What the back-office functions (`src/backoffice`) take: this core's database, catalog, site links and clocks. */
  backOffice: BackOfficeContext
  /**
   * Per-IP limit on form posts (FORM_RATE_LIMIT per minute); check it before calling a service. On PostgreSQL it is
   * counted in the database, so every instance shares it.
   */
  formRateLimiter: RateLimiter
  /**
   * Resolves when the database takes a write (this instance's row in readiness_checks) and commits it; rejects with
   * its fault otherwise: unreachable, read-only, out of space. For the readiness check.
   */
  checkDatabase(): Promise<void>
  outbox: DeferredOutboxWorker
  /** Stops the outbox worker after the messages in flight, then closes mail and database connections. */
  close(): Promise<void>
}

export interface StartCoreOptions {
  config: CoreConfig
  catalog: EventCatalog
  /** The site's pages, for the links in e-mails. */
  links: SiteLinks
  /** Where progress goes (an e-mail written to a file); console.log by default. */
  log?: (line: string) => void
  /** Where delivery problems go (an e-mail to be retried, a failed delivery round); console.error by default. */
  logProblem?: (line: string) => void
  /** Told of each new registration once it is stored (not of a repeated submission), e.g. to count it. */
  onRegistrationCreated?: (result: CreateRegistrationResult) => void
  /**
   * False leaves the outbox worker stopped until `core.outbox.start()` (the site starts it once the instance is
   * ready); true by default.
   */
  startOutbox?: boolean
  /** Names this process's row in readiness_checks (default: host name and process id). */
  instanceName?: string
  /**
   * Card payments' facts for the back office (a cancellation refunds to the card that paid), from `@events/payments`;
   * the site always gives them, a process that takes no card payments need not.
   */
  cardPayments?: CardPaymentFacts
}

/** The outbox worker, which may be started after the core: wakes before the start are forgotten. */
export interface DeferredOutboxWorker extends OutboxWorker {
  /** Starts delivering; does nothing when already started or stopped. */
  start(): void
}

/** A worker made on the first start(); stop() before it keeps it from ever starting. */
function deferredOutbox(startWorker: () => OutboxWorker): DeferredOutboxWorker {
  let worker: OutboxWorker | undefined
  let stopped = false
  return {
    start() {
      if (!stopped) worker ??= startWorker()
    },
    wake() {
      worker?.wake()
    },
    async stop() {
      stopped = true
      await worker?.stop()
    },
  }
}

/**
 * Opens the database (running migrations), starts the outbox worker and the filling of older registrations' event ids
 * (src/registration/event-ids.ts), and wires the services from the configuration.
 */
export async function startCore(options: StartCoreOptions): Promise<Core> {
  const { config, catalog, links } = options
  const log = options.log ?? ((line: string) => console.log(line))
  const logProblem = options.logProblem ?? ((line: string) => console.error(line))
  // SQLite and, without SMTP, the outgoing e-mails live under DATA_DIR: a misconfigured one stops startup clearly.
  if (!config.databaseUrl || !config.smtpUrl) await preparePrivateDataDirectory(config.dataDir)
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    startupWaitMs: config.databaseStartupWaitMs,
    log: logProblem,
    migrate: config.migrateOnStart ?? true,
    poolMax: config.databasePoolMax,
  })
  const transport = createMailTransport({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, from: config.mailFrom, log })
  const siteDate = config.siteDate
  const siteNow = () => (siteDate ? new Date(siteDate) : new Date())
  const waitingListOfferHours = config.waitingListOfferHours
  const waitingListContext = { db, catalog, links, siteNow, waitingListOfferHours }
  // The payment reminders, the waiting lists' sweeps, the joining e-mails and the certificates run on whichever instance sends mail, and only once it does.
  const outbox = deferredOutbox(() => {
    const worker = startOutboxWorker({ db, transport, log: logProblem })
    const reminders = startPaymentReminders({ context: { db, catalog, links, siteNow }, onQueued: () => worker.wake(), log: logProblem })
    const sweeps = startWaitingListSweeps({ context: { ...waitingListContext, onMailQueued: () => worker.wake() }, log: logProblem })
    const certificates = startCertificateRounds({ context: { db, catalog, links, siteNow }, onQueued: () => worker.wake(), log: logProblem })
    const joiningMails = startJoiningMails({
      context: { db, catalog, links, siteNow, joiningMailDaysBefore: config.joiningMailDaysBefore },
      onQueued: () => worker.wake(),
      log: logProblem,
    })
    return {
      wake: () => worker.wake(),
      async stop() {
        await joiningMails.stop()
        await certificates.stop()
        await sweeps.stop()
        await reminders.stop()
        await worker.stop()
      },
    }
  })
  if (options.startOutbox ?? true) outbox.start()
  const instance = (options.instanceName ?? `${hostname()}:${process.pid}`).slice(0, 100)
  const eventIdFiller = startEventIdFiller({ db, catalog, log, logProblem })
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
    registrations: {
      db,
      catalog,
      links,
      organiserEmail: config.organiserEmail,
      siteNow,
      waitingListOfferHours,
      onRegistrationCreated(result) {
        // Its e-mails go out at once rather than at the next poll.
        outbox.wake()
        options.onRegistrationCreated?.(result)
      },
    },
    backOffice: { db, catalog, links, siteNow, organiserEmail: config.organiserEmail, cardPayments: options.cardPayments, waitingListOfferHours },
    joinWaitingList: (input) => joinWaitingList({ ...waitingListContext, onMailQueued: () => outbox.wake() }, input),
    // New e-mails go out at once rather than at the next poll.
    enquiries: {
      submitContactEnquiry: wakeAfter(enquiries.submitContactEnquiry),
      submitTrainingRequest: wakeAfter(enquiries.submitTrainingRequest),
    },
    formRateLimiter: db.postgresPool
      ? createSharedRateLimiter({ pool: db.postgresPool, limit: config.formRateLimit })
      : createRateLimiter({ limit: config.formRateLimit }),
    async checkDatabase() {
      const checkedAt = new Date().toISOString()
      await db.writeStatement((queries) =>
        queries
          .insertInto('readiness_checks')
          .values({ instance, checked_at: checkedAt })
          .onConflict((conflict) => conflict.column('instance').doUpdateSet({ checked_at: checkedAt }))
          .execute(),
      )
    },
    outbox,
    async close() {
      await eventIdFiller.stop()
      await outbox.stop()
      transport.close()
      // The row would otherwise stay behind for every process that ever ran; a failure here changes nothing.
      await db.writeStatement((queries) => queries.deleteFrom('readiness_checks').where('instance', '=', instance).execute()).catch(() => undefined)
      await db.close()
    },
  }
}
