// The site's Node entry: signals, static assets, the server-rendered app, health, readiness and draining in one process.
// Kept as plain JavaScript so Node runs it directly; everything in TypeScript is bundled by Vite into build/server.
//
// The order matters: the signal handlers come before any work, so a SIGTERM at any moment of startup stops the
// process cleanly; the outbox worker starts only once the instance is ready (the site does that), so a process
// stopped while it starts has sent no e-mail; and a SIGTERM once it serves drains it (see docs/operations.md).

/** @type {NodeJS.Signals | undefined} */
let stopSignal
/** Replaced by the drain once the server listens; until then a signal is remembered and startup stops at its next step. */
let onStopSignal = (/** @type {NodeJS.Signals} */ signal) => {
  stopSignal ??= signal
}
for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT'])) process.on(signal, () => onStopSignal(signal))

// V8's compiled code and the stripped TypeScript of the workspace packages are kept on disk (NODE_COMPILE_CACHE, else
// the system's temporary directory) and reused by the next start: most of a start is loading and compiling modules.
const { enableCompileCache } = await import('node:module')
enableCompileCache?.()
/** Milestones of the start, in ms since launch, for the "ready" line. */
const startup = /** @type {Record<string, number>} */ ({})

const { createServer } = await import('node:http')
const path = await import('node:path')
const { fileURLToPath } = await import('node:url')

// The site's directory: this file's, or two levels above the bundle made from it (build/bundle/server.mjs, which the
// bundling defines SITE_DIR for).
const here = fileURLToPath(new URL(/** @type {{ env?: { SITE_DIR?: string } }} */ (import.meta).env?.SITE_DIR ?? '.', import.meta.url))
// Which code to load is decided before the configuration module is loaded from it; everything else comes from that module.
const isProduction = process.env.NODE_ENV !== 'development'
// A request whose headers and body have not all arrived by then is answered 408 and closed (Node's default is 300 s).
const REQUEST_TIMEOUT_MS = 30_000

const buildDir = path.join(here, 'build')
/** @type {import('vite').ViteDevServer | undefined} */
let devServer
if (!isProduction) {
  const vite = await import('vite')
  devServer = await vite.createServer({ root: here, server: { middlewareMode: true } })
}
// In production the site's build (package.json's imports name it; its types are the app's), in development its source.
const { createSite, createLogger, readConfig, serverFaultHandler, ConfigError, isPrecompressed } = devServer
  ? /** @type {typeof import('./server/app')} */ (await devServer.ssrLoadModule('./server/app.ts'))
  : await import('#server-build')
startup.modules = performance.now()

/**
 * A setting the operator must change, or a database that never answered: one line saying what, no stack trace.
 * @returns {never}
 */
function stopForConfiguration(/** @type {import('@events/observability').Logger} */ log, /** @type {string} */ message) {
  log.fatal(`Cannot start: ${message}`)
  process.exit(1)
}

// A person at a terminal reads lines with the time, level and message; a supervisor or collector gets JSON.
const pretty = process.stdout.isTTY === true

/** @type {import('@events/config').Config} */
let config
try {
  config = readConfig(process.env)
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  stopForConfiguration(createLogger({ pretty }), error.message)
}
const { port, host } = config
const logger = createLogger({ level: config.logLevel, pretty })
// Whatever ends the process unexpectedly is told in the log's format, like everything else it prints.
for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.on(event, (error) => {
    logger.fatal({ err: error }, `${event}: exiting`)
    process.exit(1)
  })
}

/** A signal that arrived while starting: nothing was sent yet and nothing is served, so close what is open and go. */
async function stopIfAsked(/** @type {{ close(): Promise<void> } | undefined} */ site) {
  if (!stopSignal) return
  logger.info(`${stopSignal} received while starting: stopping before serving`)
  await site?.close()
  process.exit(0)
}
await stopIfAsked(undefined)

const datasetPath = config.contentDatasetPath ?? path.join(here, '../../packages/content/dataset/production.ndjson')
/** @type {import('./server/app').SiteHandle} */
let site
try {
  site = await createSite({ config, datasetPath, logger })
} catch (error) {
  // The database's retries have been logged one by one; their end is one clear line too.
  const name = /** @type {{ name?: string } | undefined} */ (error)?.name
  if (error instanceof ConfigError || name === 'DatabaseUnreachableError' || name === 'DatabaseBehindError') {
    stopForConfiguration(logger, /** @type {Error} */ (error).message)
  }
  logger.fatal({ err: error }, `The site could not start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
await stopIfAsked(site)
startup.site = performance.now()

const { default: express } = await import('express')
const { default: compression } = await import('compression')
const { default: expressStaticGzip } = await import('express-static-gzip')

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', config.trustProxy)
app.use(site.observeRequests)
// Static files carry the security headers too, so they come after them.
app.use(site.securityHeaders)
// Liveness and readiness answer from memory, before anything else could keep them waiting.
app.get('/healthz', site.readiness.livenessHandler)
app.get('/readyz', site.readiness.readinessHandler)
// Cached pages and the built files are compressed ahead of time (once, with brotli or gzip); compression handles the rest.
app.use(compression({ filter: (req, res) => !isPrecompressed(res) && compression.filter(req, res) }))

if (devServer) {
  app.use(devServer.middlewares)
} else {
  // The build writes a .br and a .gz beside each text file; the one the browser accepts is sent as it is.
  const staticFiles = (/** @type {string} */ directory, /** @type {{ immutable?: boolean, maxAge: string }} */ serveStatic) => {
    const serve = expressStaticGzip(directory, { enableBrotli: true, orderPreference: ['br', 'gzip'], serveStatic })
    return (
      /** @type {import('express').Request} */ req,
      /** @type {import('express').Response} */ res,
      /** @type {import('express').NextFunction} */ next,
    ) => {
      // It would answer an undecodable path in its own words; the site's handlers answer those as they do elsewhere.
      try {
        decodeURIComponent(req.path)
      } catch {
        next()
        return
      }
      serve(req, res, next)
    }
  }
  // Hashed assets never change under the same name, so browsers may keep them for a year.
  app.use('/assets', staticFiles(path.join(buildDir, 'client/assets'), { immutable: true, maxAge: '1y' }))
  app.use(staticFiles(path.join(buildDir, 'client'), { maxAge: '1h' }))
}

app.use(site.handler)
// The last stop of every error, instead of Express's HTML 500: logged with the request id, answered without details.
app.use(serverFaultHandler)

const server = createServer(
  // Node checks the timeout every second rather than every 30 s, so a trickling body is cut close to it.
  { requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1_000 },
  app,
)
await new Promise((resolve) => {
  server.once('error', (/** @type {NodeJS.ErrnoException} */ error) => {
    if (error.code === 'EADDRINUSE') stopForConfiguration(logger, `port ${port} on ${host} is already in use: set PORT to a free port`)
    if (error.code === 'EACCES') stopForConfiguration(logger, `this user may not listen on port ${port}: set PORT to 1024 or above`)
    throw error
  })
  server.listen(port, host, () => resolve(undefined))
})
const address = server.address()
logger.info(`Site listening on http://localhost:${typeof address === 'object' && address ? address.port : port}`)
if (config.healthPort !== undefined) {
  // Load balancers probe here: a thread of its own answers from the readiness state, however busy this one is.
  await site.readiness.listenOnProbePort(config.healthPort, host).catch((/** @type {Error} */ error) => stopForConfiguration(logger, error.message))
  logger.info(`Health and readiness probes also on port ${config.healthPort}`)
}

const { shutdownDrainMs, shutdownGraceMs } = config
let draining = false
/**
 * The drain: readiness 503 at once while the port stays open for shutdownDrainMs (the balancer's checks notice and
 * stop sending), the outbox stopping after its current message meanwhile; then no new connections, open requests
 * finished, and the exit, all within shutdownDrainMs + shutdownGraceMs.
 */
async function drainAndExit(/** @type {NodeJS.Signals} */ signal) {
  if (draining) return
  draining = true
  const boundMs = shutdownDrainMs + shutdownGraceMs
  logger.info(`${signal} received: draining for ${shutdownDrainMs / 1000} s, then finishing open requests; exiting within ${boundMs / 1000} s`)
  site.readiness.drain()
  const backgroundStopped = site.stopBackgroundWork()
  const forceExit = setTimeout(() => {
    logger.error(`Shutdown took longer than ${boundMs / 1000} s; exiting with requests still open`)
    process.exit(1)
  }, boundMs)
  forceExit.unref()
  await new Promise((resolve) => setTimeout(resolve, shutdownDrainMs))
  // Stop accepting, close idle keep-alive connections, and wait for the requests already under way.
  const requestsFinished = new Promise((resolve) => server.close(resolve))
  // Keep-alive connections go idle as their last response ends; close them then rather than at their timeout.
  const closeIdle = setInterval(() => server.closeIdleConnections(), 50)
  server.closeIdleConnections()
  await requestsFinished
  clearInterval(closeIdle)
  await backgroundStopped
  await site.close()
  logger.info('Stopped: every open request answered, the outbox stopped after its last message')
  process.exit(0)
}
onStopSignal = (signal) => void drainAndExit(signal)
if (stopSignal) {
  await drainAndExit(stopSignal)
} else {
  startup.listening = performance.now()
  await site.readiness.start()
  startup.ready = performance.now()
  const milestones = Object.entries(startup).map(([name, at]) => `${name} ${Math.round(at)}`)
  logger.info(
    { startupMs: Object.fromEntries(Object.entries(startup).map(([name, at]) => [name, Math.round(at)])) },
    `Site ${site.readiness.status() === 'ready' ? 'ready' : 'not ready yet'} ${Math.round(startup.ready)} ms after launch (ms since launch: ${milestones.join(', ')})`,
  )
}
