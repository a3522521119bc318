// The site's Node entry: static assets, the server-rendered app and graceful shutdown in one process.
// Kept as plain JavaScript so Node runs it directly; everything in TypeScript is bundled by Vite into build/server.
import { createServer } from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import compression from 'compression'
import express from 'express'
import expressStaticGzip from 'express-static-gzip'

const here = path.dirname(fileURLToPath(import.meta.url))
// Which code to load is decided before the configuration module is loaded from it; everything else comes from that module.
const isProduction = process.env.NODE_ENV !== 'development'

const buildDir = path.join(here, 'build')
let devServer
if (!isProduction) {
  const vite = await import('vite')
  devServer = await vite.createServer({ root: here, server: { middlewareMode: true } })
}
const { createSite, createLogger, readConfig, serverFaultHandler, ConfigError, isPrecompressed } = devServer
  ? await devServer.ssrLoadModule('./server/app.ts')
  : await import(path.join(buildDir, 'server/index.js'))

/** A setting the operator must change, or a database that never answered: one line saying what, no stack trace. */
function stopForConfiguration(log, message) {
  log.fatal(`Cannot start: ${message}`)
  process.exit(1)
}

let config
try {
  config = readConfig(process.env)
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  stopForConfiguration(createLogger(), error.message)
}
const { port, host } = config
const logger = createLogger({ level: config.logLevel })
// Whatever ends the process unexpectedly is told in the log's format, like everything else it prints.
for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.on(event, (error) => {
    logger.fatal({ err: error }, `${event}: exiting`)
    process.exit(1)
  })
}

const datasetPath = config.contentDatasetPath ?? path.join(here, '../../packages/content/dataset/production.ndjson')
let site
try {
  site = await createSite({ config, datasetPath, logger })
} catch (error) {
  // The database's retries have been logged one by one; their end is one clear line too.
  if (error instanceof ConfigError || error?.name === 'DatabaseUnreachableError') stopForConfiguration(logger, error.message)
  logger.fatal({ err: error }, `The site could not start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', config.trustProxy)
app.use(site.observeRequests)
// Static files carry the security headers too, so they come after them.
app.use(site.securityHeaders)
// Cached pages and the built files are compressed ahead of time (once, with brotli or gzip); compression handles the rest.
app.use(compression({ filter: (req, res) => !isPrecompressed(res) && compression.filter(req, res) }))

if (devServer) {
  app.use(devServer.middlewares)
} else {
  // The build writes a .br and a .gz beside each text file; the one the browser accepts is sent as it is.
  const staticFiles = (directory, serveStatic) => {
    const serve = expressStaticGzip(directory, { enableBrotli: true, orderPreference: ['br', 'gzip'], serveStatic })
    return (req, res, next) => {
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

const server = createServer(app)
await new Promise((resolve) => {
  server.once('error', (error) => {
    if (error.code === 'EADDRINUSE') stopForConfiguration(logger, `port ${port} on ${host} is already in use: set PORT to a free port`)
    if (error.code === 'EACCES') stopForConfiguration(logger, `this user may not listen on port ${port}: set PORT to 1024 or above`)
    throw error
  })
  server.listen(port, host, resolve)
})
const address = server.address()
logger.info(`Site listening on http://localhost:${typeof address === 'object' && address ? address.port : port}`)

let shuttingDown = false
async function shutdown(signal) {
  if (shuttingDown) return
  shuttingDown = true
  logger.info(`${signal} received: finishing open requests`)
  // Stop accepting, close idle keep-alive connections, and wait for the requests already under way.
  const requestsFinished = new Promise((resolve) => server.close(resolve))
  // Keep-alive connections go idle as their last response ends; close them then rather than at their timeout.
  const closeIdle = setInterval(() => server.closeIdleConnections(), 50)
  server.closeIdleConnections()
  const forceExit = setTimeout(() => {
    logger.error('Shutdown took longer than 10 s; exiting')
    process.exit(1)
  }, 10_000)
  forceExit.unref()
  await requestsFinished
  clearInterval(closeIdle)
  await site.close()
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
