// The site's Node entry: static assets, the server-rendered app and graceful shutdown in one process.
// Kept as plain JavaScript so Node runs it directly; everything in TypeScript is bundled by Vite into build/server.
import { createServer } from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import compression from 'compression'
import express from 'express'

const here = path.dirname(fileURLToPath(import.meta.url))
const isProduction = process.env.NODE_ENV !== 'development'
const port = Number(process.env.PORT ?? 3000)
const host = process.env.HOST ?? '0.0.0.0'

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', process.env.TRUST_PROXY ?? 'loopback')
app.use(compression())

let loadSite
if (isProduction) {
  const buildDir = path.join(here, 'build')
  // Hashed assets never change under the same name, so browsers may keep them for a year.
  app.use('/assets', express.static(path.join(buildDir, 'client/assets'), { immutable: true, maxAge: '1y' }))
  app.use(express.static(path.join(buildDir, 'client'), { maxAge: '1h' }))
  loadSite = () => import(path.join(buildDir, 'server/index.js'))
} else {
  const vite = await import('vite')
  const devServer = await vite.createServer({ root: here, server: { middlewareMode: true } })
  app.use(devServer.middlewares)
  loadSite = () => devServer.ssrLoadModule('./server/app.ts')
}

const { createSite } = await loadSite()
const datasetPath = path.resolve(here, '../../packages/content/dataset/production.ndjson')
const site = await createSite({ env: process.env, datasetPath })
app.use(site.handler)

const server = createServer(app)
await new Promise((resolve) => server.listen(port, host, resolve))
const address = server.address()
console.log(`Site listening on http://localhost:${typeof address === 'object' && address ? address.port : port}`)

let shuttingDown = false
async function shutdown(signal) {
  if (shuttingDown) return
  shuttingDown = true
  console.log(`${signal} received: finishing open requests`)
  // Stop accepting, close idle keep-alive connections, and wait for the requests already under way.
  const requestsFinished = new Promise((resolve) => server.close(resolve))
  // Keep-alive connections go idle as their last response ends; close them then rather than at their timeout.
  const closeIdle = setInterval(() => server.closeIdleConnections(), 50)
  server.closeIdleConnections()
  const forceExit = setTimeout(() => {
    console.error('Shutdown took longer than 10 s; exiting')
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
