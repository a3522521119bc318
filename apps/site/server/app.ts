import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequestListener } from '@remix-run/node-fetch-server'
import { createRequestHandler } from '@react-router/express'
import {
  createContentClient,
  createLocalContentSource,
  formatPlaceholderReport,
  listPlaceholders,
  LOCAL_CONTENT_PREFIX,
  PLACEHOLDERS_QUERY,
  type PlaceholderSource,
} from '@events/content'
import { startCore } from '@events/core'
import express from 'express'
import { RouterContextProvider } from 'react-router'
import { requestFactsContext, servicesContext, type PublicContentConfig, type SiteServices } from '../app/lib/services.server'
import { createApiRouter, statusJsonHandler } from './api'
import { createContentCatalog } from './catalog'
import { readConfig } from './config'
import { pageFormGuard } from './http-guards'
import { createSitePayments } from './payments'

export interface SiteHandle {
  handler: express.Router
  close(): Promise<void>
}

export interface SiteOptions {
  env: NodeJS.ProcessEnv
  /** The shipped NDJSON dataset the local endpoint serves when no Sanity project is configured. */
  datasetPath: string
}

/**
 * Builds the site's request handling for one process: content endpoint, health check, the JSON API, the form
 * guards and the React Router app, with the core (database, services, outbox worker) behind them.
 */
export async function createSite({ env, datasetPath }: SiteOptions): Promise<SiteHandle> {
  const config = readConfig(env)
  const router = express.Router()

  const localSource = config.hostedContent ? undefined : createLocalContentSource({ datasetPath })
  let internalContentServer: Server | undefined
  let localApiHost = ''
  if (localSource) {
    const listener = createRequestListener(async (request) => (await localSource.handleContentRequest(request)) ?? new Response('Not found', { status: 404 }))
    // Browsers refetch content and load images through the site's own port.
    router.use(LOCAL_CONTENT_PREFIX, (req, res) => {
      req.url = req.originalUrl
      void listener(req, res)
    })
    // The server's own reads use a loopback listener of their own, so requests still under way when the public
    // port stops accepting (SIGTERM) can finish.
    const server = createServer(listener)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    internalContentServer = server
    localApiHost = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  const content = createContentClient(env, { localApiHost })
  const clientConfig = content.config()
  const publicContentConfig: PublicContentConfig = {
    projectId: clientConfig.projectId ?? 'local',
    dataset: clientConfig.dataset ?? 'production',
    apiVersion: clientConfig.apiVersion ?? '2025-02-19',
    apiHost: config.hostedContent ? undefined : LOCAL_CONTENT_PREFIX,
    useCdn: clientConfig.useCdn ?? false,
  }
  const catalog = createContentCatalog(content, config.siteUrl)
  const core = await startCore({ config: config.core, catalog })
  const payments = createSitePayments({ config, core, catalog })
  const services: SiteServices = { config, content, publicContentConfig, core, payments: payments.service }

  router.get('/healthz', async (_req, res) => {
    try {
      await content.fetch('count(*[_id == "siteSettings"])')
      res.set('Cache-Control', 'no-store').json({ status: 'ok' })
    } catch (error) {
      // The reason goes to the log: it may name files or hosts that a public answer should not.
      console.error(`Health check: the content source did not answer: ${(error as Error).message}`)
      res.status(503).set('Cache-Control', 'no-store').json({ status: 'unavailable' })
    }
  })

  router.use('/api', createApiRouter(core, config.siteUrl))
  router.use(payments.router)
  router.get('/registrations/:reference/:secret', statusJsonHandler(core))
  router.use(pageFormGuard)
  router.use(
    createRequestHandler({
      build: () => import('virtual:react-router/server-build'),
      getLoadContext(req) {
        const context = new RouterContextProvider()
        context.set(servicesContext, services)
        context.set(requestFactsContext, { clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown' })
        return context
      },
    }),
  )

  try {
    console.log(formatPlaceholderReport(listPlaceholders(await content.fetch<PlaceholderSource[]>(PLACEHOLDERS_QUERY))))
  } catch (error) {
    console.error(`Content source did not answer at startup: ${(error as Error).message}`)
  }

  return {
    handler: router,
    /** Stops the outbox worker after the e-mail it is sending, closes the database and the content listener. */
    async close() {
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
