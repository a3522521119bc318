import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequest, createRequestListener } from '@remix-run/node-fetch-server'
import { createRequestHandler } from '@react-router/express'
import {
  createContentClient,
  createLocalContentSource,
  forgetReportedContentProblems,
  listPlaceholders,
  LOCAL_CONTENT_PREFIX,
  PLACEHOLDERS_QUERY,
  reportContentProblemsTo,
  type PlaceholderSource,
  watchDataset,
} from '@events/content'
import { ConfigError, type Config } from '@events/config'
import { DataDirectoryError, openNoticeChannel, outboxHealth, recordFirstDelivery, startCore, startRetentionJob } from '@events/core'
import { createMetrics, createRoutePatternMatcher, metricsEndpoint, observeRequests, type Logger } from '@events/observability'
import { cardPaymentFacts, migratePaymentTables } from '@events/payments'
import { createStaff } from '@events/staff'
import express from 'express'
import { createRequestHandler as createRenderer, RouterContextProvider } from 'react-router'
import { requestFactsContext, servicesContext, type SiteServices } from '../app/lib/services.server'
import { createSiteLinks } from '../app/lib/site-links'
import { createApiRouter, statusJsonHandler } from './api'
import { createContentCatalog } from './catalog'
import { createContentApiRouter } from './content-api'
import { adminPageHeaders, staffClientAddress } from './admin'
import { crossSitePostGuard, malformedAddressHandler, methodGuard, pageFormGuard } from './http-guards'
import { createSitePayments } from './payments'
import { SERVER_ROUTE_PATTERNS, pageRoutePatterns } from './route-patterns'
import { createPreviewMode } from './preview-mode'
import { availabilityEpoch, createContentRevision } from './content-revision'
import { isPerVisitorPath, pageCache, PageStore } from './page-cache'
import { logPlaceholders } from './placeholder-log'
import { createReadiness, type Readiness } from './readiness'
import { sanityWebhook } from './sanity-webhook'
import { seatEpoch, type SeatEpoch } from './seat-epoch'
import { cspNonce, securityHeaders, usePagePolicy } from './security-headers'

export { ConfigError, readConfig } from '@events/config'
export { createLogger } from '@events/observability'
export { isPrecompressed } from './page-cache'
export { serverFaultHandler } from './server-faults'

/** The PostgreSQL channel on which instances say that content changed. */
const CONTENT_CHANGED_CHANNEL = 'events_site_content_changed'

export interface SiteHandle {
  /** Goes first in the chain: request ids, a log line per request, the request duration histogram. */
  observeRequests: express.RequestHandler
  handler: express.Router
  /** The security headers and CSP nonce; mounted before anything that answers, static files included. */
  securityHeaders: express.RequestHandler
  /**
   * /healthz and /readyz. Its checks start when the server listens (`readiness.start()`); the outbox worker starts
   * the first time they all pass.
   */
  readiness: Readiness
  /** Stops the outbox worker after the message it is sending (and the retention job): the start of a drain. */
  stopBackgroundWork(): Promise<void>
  close(): Promise<void>
}

export interface SiteOptions {
  config: Config
  /** The shipped NDJSON dataset the local endpoint serves when no Sanity project is configured. */
  datasetPath: string
  logger: Logger
}

/**
 * Builds the site's request handling for one process: content endpoint, health check, the JSON API, the form
 * guards and the React Router app, with the core (database, services, outbox worker) behind them.
 */
export async function createSite({ config, datasetPath, logger }: SiteOptions): Promise<SiteHandle> {
  // React Router's build loads while the database and content source open.
  const serverBuild = import('virtual:react-router/server-build')
  const router = express.Router()
  const metrics = createMetrics({ onCollectError: (error) => logger.warn({ err: error }, 'Metrics: the outbox could not be read') })
  router.use(methodGuard)
  router.use(staffClientAddress)

  // Drafts are read with SANITY_API_READ_TOKEN from Sanity, or with a token made for this process from the embedded
  // endpoint, which then answers drafts only to this server.
  const previewToken = config.hostedContent ? config.content.sanity?.readToken : randomBytes(32).toString('base64url')
  const localSource = config.hostedContent
    ? undefined
    : createLocalContentSource({ datasetPath, previewToken, onError: (error) => logger.error({ err: error }, 'Local content endpoint failed') })
  let internalContentServer: Server | undefined
  let localApiHost = ''
  if (localSource) {
    // The public port serves the dataset's images only: the query endpoint evaluates any GROQ it is sent.
    const assetListener = createRequestListener(
      async (request) => (await localSource.handleAssetRequest(request)) ?? new Response('Not found', { status: 404 }),
    )
    router.use(LOCAL_CONTENT_PREFIX, (req, res) => {
      req.url = req.originalUrl
      void assetListener(req, res)
    })
    // The server's own reads use a loopback listener, reachable from this machine only, so requests still under way
    // when the public port stops accepting (SIGTERM) can finish.
    const listener = createRequestListener(async (request) => (await localSource.handleContentRequest(request)) ?? new Response('Not found', { status: 404 }))
    const server = createServer(listener)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    internalContentServer = server
    localApiHost = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  const content = createContentClient(config.content, { localApiHost })
  const preview = createPreviewMode({ content, token: previewToken, siteUrl: config.siteUrl, studioOrigin: config.studioOrigin })
  const catalog = createContentCatalog(content, config.siteUrl)
  // Whatever was made from content (cached pages, the catalog's short-lived reads) is dropped when it changes.
  const contentRevision = createContentRevision()
  const pages = new PageStore({
    maxBytes: config.pageCacheMaxBytes,
    // Hosted content with no webhook to say it changed: pages are kept as long as a CDN keeps them (s-maxage).
    ...(config.hostedContent && !config.sanityWebhookSecret ? { ttlMs: 60_000 } : {}),
  })
  // A part of the content left out because it is not whole (a deleted speaker, a price without an amount) is logged
  // once per content revision, naming the document that holds it, so editors hear of it without a page failing.
  reportContentProblemsTo((problem) =>
    logger.warn({ document: problem.documentId, path: problem.path }, `Content left out: ${problem.documentId} ${problem.path} ${problem.reason}`),
  )
  contentRevision.onChange(() => {
    forgetReportedContentProblems()
    pages.clear()
    catalog.forget()
  })
  const datasetWatch = localSource
    ? watchDataset(datasetPath, () => {
        logger.info('The content dataset changed: cached pages dropped')
        contentRevision.bump()
      })
    : undefined
  const links = createSiteLinks(config.siteUrl)
  const core = await startCore({
    config: config.core,
    catalog,
    links,
    log: (line) => logger.info(line),
    logProblem: (line) => logger.warn(line),
    onRegistrationCreated: ({ paymentMethod }) => {
      metrics.registrationCreated(paymentMethod)
      seats.changed()
    },
    // E-mails go out once the instance is ready, so a process stopped while it starts has sent nothing.
    startOutbox: false,
    cardPayments: cardPaymentFacts,
  }).catch((error: unknown) => {
    throw error instanceof DataDirectoryError ? new ConfigError(error.message) : error
  })
  // Declared after the core it reads; the core's registrations tell it of the seats they took.
  const seats: SeatEpoch = seatEpoch({ content, revision: contentRevision, db: core.db, onProblem: (message) => logger.warn(message) })
  metrics.readOutboxHealthFrom(() => outboxHealth(core.db))
  // The payment tables are the payments package's own, migrated after the core's registrations they refer to (or,
  // with MIGRATE_ON_START=0, checked to have been by `pnpm db:migrate`).
  await migratePaymentTables(core.db, { apply: config.core.migrateOnStart ?? true })
  const payments = createSitePayments({
    config,
    core,
    catalog,
    links,
    log: (line) => logger.info(line),
    onPaymentSucceeded: () => metrics.cardPaymentSucceeded(),
  })
  const staff = await createStaff({
    db: core.db,
    links,
    onMailQueued: () => core.outbox.wake(),
    migrate: config.core.migrateOnStart ?? true,
    companyName: async () => (await catalog.getSettings()).siteName,
  })
  const services: SiteServices = { config, content, core, links, payments: payments.context, staff }
  // Personal data past its retention period is anonymised by this process too, so no cron job is needed for it.
  const { enquiryRetentionMonths } = config.core
  const retention = startRetentionJob({
    context: { db: core.db },
    enquiryRetentionMonths,
    onResult: (result) => {
      if (result.enquiriesAnonymised + result.registrationsAnonymised === 0) return
      logger.info(result, 'Retention: expired personal data anonymised')
      staff
        .recordAudit({ actor: null, action: 'personal-data-anonymised', subjectType: 'retention-job', after: { ...result, enquiryRetentionMonths } })
        .catch((error: unknown) => logger.error({ err: error }, 'Retention: the audit log could not be written'))
    },
    onError: (error) => logger.error({ err: error }, 'Retention: the job failed; it runs again in six hours'),
  })
  const build = await serverBuild
  const routePattern = createRoutePatternMatcher([...SERVER_ROUTE_PATTERNS, ...pageRoutePatterns(build.routes)])
  // The browser reads content through the site; only images may come from Sanity's CDN.
  const imageOrigins = config.hostedContent ? ['https://cdn.sanity.io'] : []
  // `pnpm dev`: Vite's hot-reload socket listens on its own port (24678 in middleware mode).
  const connectOrigins = config.nodeEnv === 'development' ? ['ws://localhost:24678', 'ws://127.0.0.1:24678'] : []

  // A readiness check reports this moment and runs again a second later: the client's retries with backoff (three
  // seconds and more against an unreachable source) would only outlast a load balancer's timeout.
  const contentProbe = createContentClient(config.content, { localApiHost, maxRetries: 0 })
  const readiness = createReadiness({
    // The database is part of readiness only for an instance that must write: without it pages that need only
    // content go on, and writes answer 503 with Retry-After (docs/operations.md, "Health, readiness and shutdown").
    checks: {
      ...(config.readyNeedsDatabase ? { database: () => core.checkDatabase() } : {}),
      content: () => contentProbe.fetch('count(*[_id == "siteSettings"])'),
    },
    log: (level, message) => logger[level](message),
  })
  readiness.onFirstReady(() => core.outbox.start())

  router.use(preview.neverCachePreviews)
  router.use(preview.router)
  // Instances sharing a PostgreSQL database tell each other when one of them learns that content changed.
  const contentNotices = config.core.databaseUrl
    ? await openNoticeChannel({
        databaseUrl: config.core.databaseUrl,
        channel: CONTENT_CHANGED_CHANNEL,
        onNotice: () => contentRevision.bump(),
        onProblem: (message) => logger.warn(message),
      })
    : undefined
  if (config.sanityWebhookSecret) {
    const onContentChanged = () => {
      contentRevision.bump()
      void contentNotices?.publish()
    }
    const isFirstDelivery = (keys: readonly string[], at: Date, keepMs: number) => recordFirstDelivery(core.db, keys, at, keepMs)
    router.use(sanityWebhook({ secret: config.sanityWebhookSecret, onContentChanged, isFirstDelivery }))
  }
  router.use(
    '/api/content',
    createContentApiRouter((req) => preview.contentFor(req)),
  )
  // Without a token there is no /metrics: the path falls through to the not-found page like any unknown one.
  if (config.metricsToken) router.get('/metrics', metricsEndpoint({ metrics, token: config.metricsToken }))
  router.use('/api', createApiRouter(core, links))
  router.use(payments.router)
  router.get('/registrations/:reference/:secret', statusJsonHandler(core))
  router.use(adminPageHeaders)
  router.use(crossSitePostGuard(new URL(config.siteUrl).origin))
  router.use(pageFormGuard)
  const renderDocument = createRenderer(() => import('virtual:react-router/server-build'), config.nodeEnv)
  function loadContextFor(req: express.Request, res: express.Response, published: SiteServices = services): RouterContextProvider {
    const context = new RouterContextProvider()
    const inPreview = preview.isPreview(req)
    context.set(servicesContext, inPreview ? { ...services, content: preview.contentFor(req) } : published)
    context.set(requestFactsContext, {
      clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
      log: req.log,
      cspNonce: cspNonce(res),
      preview: inPreview,
      dataRequest: req.path.endsWith('.data'),
    })
    return context
  }
  const epochOf = availabilityEpoch({ content, revision: contentRevision, now: config.now })
  // A page kept until the next webhook must not be rendered from a Sanity API CDN answer that predates the change the
  // webhook announced; pages render once per change, so the live API sees little of it.
  const servicesForKeptPages = config.hostedContent && config.sanityWebhookSecret ? { ...services, content: content.withConfig({ useCdn: false }) } : services
  // Public pages are the same for every visitor: rendered once per content revision, availability epoch and seats
  // as pages show them (./seat-epoch.ts: at most SEAT_EPOCH_MS behind another instance's registrations). Not under
  // `pnpm dev`, where a page must show the code edited a moment ago.
  if (config.nodeEnv !== 'development') {
    router.use(
      pageCache({
        store: pages,
        cacheControl: config.pageCacheControl,
        isCacheable: (req) => !isPerVisitorPath(req.path) && !preview.isPreview(req),
        variantOf: async () => `${contentRevision.current()} ${await epochOf()} ${await seats.current()}`,
        render: (req, res) => renderDocument(createRequest(req, res), loadContextFor(req, res, servicesForKeptPages)),
        applyPagePolicy: (req, res, page) => usePagePolicy(req, res, page),
        onOutcome: (outcome) => metrics.pageCacheOutcome(outcome),
      }),
    )
  }
  router.use(createRequestHandler({ build: () => import('virtual:react-router/server-build'), getLoadContext: loadContextFor }))

  router.use(malformedAddressHandler)

  // Told once the site serves: nothing waits for it.
  content.fetch<PlaceholderSource[]>(PLACEHOLDERS_QUERY).then(
    (documents) => logPlaceholders(logger, listPlaceholders(documents)),
    (error: unknown) => logger.error(`Content source did not answer at startup: ${(error as Error).message}`),
  )

  return {
    observeRequests: observeRequests({ logger, metrics, routePattern }),
    handler: router,
    securityHeaders: securityHeaders({
      siteUrl: config.siteUrl,
      formTargets: payments.checkoutOrigins,
      connectOrigins,
      imageOrigins,
      framingOrigins: (req) => preview.framingOrigins(req),
    }),
    readiness,
    async stopBackgroundWork() {
      retention.stop()
      await core.outbox.stop()
    },
    /** Stops the outbox worker after the e-mail it is sending, closes the database and the content listener. */
    async close() {
      readiness.stop()
      datasetWatch?.close()
      await contentNotices?.close()
      retention.stop()
      await core.close()
      if (internalContentServer) {
        const server = internalContentServer
        await new Promise((resolve) => {
          server.close(resolve)
          server.closeAllConnections()
        })
      }
    },
  }
}
