import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createContentClient, createLocalContentSource, registrationEventQuery, type RegistrationEventQueryResult } from '@events/content'
import { createLogger } from '@events/observability'
import { createRequestListener } from '@remix-run/node-fetch-server'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { eventHeadline } from '../app/lib/event-headline'
import { availabilityEpoch, createContentRevision } from './content-revision'
import { pageCache, PageStore } from './page-cache'
import { securityHeaders, usePagePolicy } from './security-headers'

const shippedDataset = path.resolve(__dirname, '../../../packages/content/dataset/production.ndjson')

let directory: string | undefined
let server: Server | undefined
let site: Server | undefined
afterEach(() => {
  server?.close()
  site?.close()
  if (directory) rmSync(directory, { recursive: true, force: true })
  directory = undefined
})

/** A copy of the shipped dataset served by the real local content endpoint, and the site's client for it. */
async function contentFromCopy() {
  directory = mkdtempSync(path.join(tmpdir(), 'epoch-'))
  const datasetPath = path.join(directory, 'production.ndjson')
  cpSync(path.dirname(shippedDataset), directory, { recursive: true })
  const source = createLocalContentSource({ datasetPath })
  server = createServer(createRequestListener(async (request) => (await source.handleContentRequest(request)) ?? new Response(null, { status: 404 })))
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const content = createContentClient({}, { localApiHost: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
  return { content, datasetPath }
}

describe('createContentRevision', () => {
  it('counts changes and tells every listener', () => {
    const revision = createContentRevision()
    const told: string[] = []
    revision.onChange(() => told.push('pages'))
    revision.onChange(() => told.push('catalog'))
    expect(revision.current()).toBe(0)
    revision.bump()
    expect(revision.current()).toBe(1)
    expect(told).toEqual(['pages', 'catalog'])
  })
})

describe('availabilityEpoch over the shipped dataset', () => {
  it('stays the same up to the first early-bird end and moves on at that moment', async () => {
    const { content } = await contentFromCopy()
    let now = new Date('2025-03-01T09:00:00+02:00')
    const epoch = availabilityEpoch({ content, revision: createContentRevision(), now: () => now })
    // An early-bird date of 25 March is available until midnight at its end in Johannesburg.
    expect(await epoch()).toBe('2025-03-25T22:00:00.000Z')
    now = new Date('2025-03-25T21:59:59.999Z')
    expect(await epoch()).toBe('2025-03-25T22:00:00.000Z')
    now = new Date('2025-03-25T22:00:00.000Z')
    expect(await epoch()).toBe('2025-03-31T22:00:00.000Z')
    now = new Date('2030-01-01T00:00:00Z')
    expect(await epoch()).toBe('never')
    // A business clock set back (SITE_DATE changed) is answered from its own moment, not the last one's.
    now = new Date('2025-03-01T09:00:00+02:00')
    expect(await epoch()).toBe('2025-03-25T22:00:00.000Z')
  })

  it('reads the events again after a new content revision, not before', async () => {
    const { content, datasetPath } = await contentFromCopy()
    const revision = createContentRevision()
    const epoch = availabilityEpoch({ content, revision, now: () => new Date('2025-03-01T09:00:00+02:00') })
    expect(await epoch()).toBe('2025-03-25T22:00:00.000Z')
    writeFileSync(datasetPath, readFileSync(datasetPath, 'utf8').replaceAll('"earlyBirdUntil":"2025-03-25"', '"earlyBirdUntil":"2025-03-10"'))
    expect(await epoch()).toBe('2025-03-25T22:00:00.000Z')
    revision.bump()
    expect(await epoch()).toBe('2025-03-10T22:00:00.000Z')
  })
})

describe('a kept page at an availability moment', () => {
  it('shows the Resilience early-bird until 13 June ends, and is rendered anew from that moment on', async () => {
    const { content } = await contentFromCopy()
    const revision = createContentRevision()
    let now = new Date('2025-06-13T23:59:00+02:00')
    const epoch = availabilityEpoch({ content, revision, now: () => now })
    let renders = 0
    const app = express()
    app.use((req, _res, next) => {
      req.log = createLogger({ level: 'silent' })
      next()
    })
    app.use(securityHeaders({ siteUrl: 'http://localhost:3000' }))
    app.use(
      pageCache({
        store: new PageStore({ maxBytes: 1_000_000 }),
        cacheControl: 'public, max-age=0',
        isCacheable: () => true,
        variantOf: async () => `${revision.current()} ${await epoch()}`,
        // The event page's own headline, from the event as the site reads it, at the business clock's now.
        async render() {
          renders += 1
          const event = await content.fetch<RegistrationEventQueryResult>(registrationEventQuery, { slug: 'Resilience' })
          const headline = eventHeadline({ ...event!, registrationClosesAt: event!.registrationClosesAt ?? null }, now)
          const label = headline?.earlyBirdUntil ? `Early bird until ${headline.earlyBirdUntil}` : 'No early bird'
          return new Response(`<!DOCTYPE html><p>From ${headline?.from}</p><p>${label}</p>`, { headers: { 'Content-Type': 'text/html' } })
        },
        applyPagePolicy: (req, res, page) => usePagePolicy(req, res, page),
      }),
    )
    site = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => site!.once('listening', resolve))
    const page = async () => (await fetch(`http://127.0.0.1:${(site!.address() as AddressInfo).port}/conference/Resilience`)).text()

    expect(await page()).toContain('Early bird until 13 June 2025')
    now = new Date('2025-06-13T23:59:59.999+02:00')
    expect(await page()).toContain('Early bird until 13 June 2025')
    expect(renders).toBe(1)
    now = new Date('2025-06-14T00:00:00+02:00')
    expect(await page()).toContain('No early bird')
    expect(await page()).toContain('No early bird')
    expect(renders).toBe(2)
  })
})
