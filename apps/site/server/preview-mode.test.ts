import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createRequestListener } from '@remix-run/node-fetch-server'
import { createContentClient, createLocalContentSource } from '@events/content'
import { createLogger } from '@events/observability'
import type { SanityClient } from '@sanity/client'
import express from 'express'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createPreviewMode, encodesForOverlays, PREVIEW_UNAVAILABLE, sitePath, type PreviewModeOptions } from './preview-mode'

const TOKEN = 'token-of-this-process'
const SECRET = 'secret-the-studio-stored'
let workDir: string
let contentServer: Server
let content: SanityClient
let options: PreviewModeOptions

// The embedded content endpoint over a dataset holding one preview secret, as the Studio stores them.
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'preview-mode-'))
  const datasetPath = path.join(workDir, 'production.ndjson')
  const secret = {
    _id: 'drafts.secret-1',
    _type: 'sanity.previewUrlSecret',
    _updatedAt: new Date().toISOString(),
    secret: SECRET,
    studioUrl: 'https://events.sanity.studio',
  }
  await writeFile(datasetPath, `${JSON.stringify({ _id: 'siteSettings', _type: 'siteSettings' })}\n${JSON.stringify(secret)}\n`)
  const source = createLocalContentSource({ datasetPath, previewToken: TOKEN })
  contentServer = createServer(createRequestListener(async (request) => (await source.handleContentRequest(request)) ?? new Response(null, { status: 404 })))
  await new Promise<void>((resolve) => contentServer.listen(0, '127.0.0.1', resolve))
  content = createContentClient({}, { localApiHost: `http://127.0.0.1:${(contentServer.address() as AddressInfo).port}` })
  options = { content, token: TOKEN, siteUrl: 'http://localhost:3000', studioOrigin: 'https://events.sanity.studio' }
})

afterAll(async () => {
  await new Promise((resolve) => contentServer?.close(resolve))
  if (workDir) await rm(workDir, { recursive: true, force: true })
})

let close: (() => void) | undefined
afterEach(() => close?.())

async function serve(preview: ReturnType<typeof createPreviewMode>): Promise<string> {
  const app = express()
  const log = createLogger({ level: 'silent' })
  app.use((req, _res, next) => {
    req.log = log
    next()
  })
  app.use(preview.neverCachePreviews)
  app.use(preview.router)
  app.get('/page', (_req, res) => void res.set('Cache-Control', 'public, s-maxage=60').send('page'))
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  close = () => server.close()
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function requestWithCookie(cookie: string | undefined): IncomingMessage {
  return { headers: cookie ? { cookie } : {} } as IncomingMessage
}

/** Enables preview through the enable route with the stored secret; returns the Set-Cookie header it answered. */
async function enablePreview(preview: ReturnType<typeof createPreviewMode>): Promise<string> {
  const baseUrl = await serve(preview)
  const response = await fetch(`${baseUrl}/api/preview-mode/enable?sanity-preview-secret=${SECRET}&sanity-preview-pathname=%2Fworkshop`, { redirect: 'manual' })
  close?.()
  expect(response.status).toBe(307)
  expect(response.headers.get('location')).toBe('/workshop')
  return response.headers.get('set-cookie') ?? ''
}

async function previewCookie(preview: ReturnType<typeof createPreviewMode>): Promise<string> {
  return (await enablePreview(preview)).split(';')[0] ?? ''
}

describe('preview mode', () => {
  it('is unavailable without a token (a Sanity project without SANITY_API_READ_TOKEN): 503 with a plain message', async () => {
    const preview = createPreviewMode({ ...options, token: undefined })
    const baseUrl = await serve(preview)
    const response = await fetch(`${baseUrl}/api/preview-mode/enable?sanity-preview-secret=anything`, { redirect: 'manual' })
    expect(response.status).toBe(503)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await response.text()).toBe(PREVIEW_UNAVAILABLE)
    expect(response.headers.get('set-cookie')).toBeNull()
    // Without a token no cookie, however it was made, turns drafts on.
    expect(preview.isPreview(requestWithCookie(await previewCookie(createPreviewMode(options))))).toBe(false)
  })

  it('honours its own signed cookie until it expires, and reads drafts with the token only then', async () => {
    let clock = Date.parse('2025-03-01T08:00:00Z')
    const preview = createPreviewMode({ ...options, now: () => clock })
    const cookie = await previewCookie(preview)
    const request = requestWithCookie(cookie)
    expect(preview.isPreview(request)).toBe(true)
    expect(preview.contentFor(request).config()).toMatchObject({ token: TOKEN, perspective: 'drafts', useCdn: false })
    expect(preview.framingOrigins(request)).toEqual(['https://events.sanity.studio'])

    const publicRequest = requestWithCookie(undefined)
    expect(preview.contentFor(publicRequest)).toBe(content)
    expect(content.config().token).toBeUndefined()
    expect(preview.framingOrigins(publicRequest)).toEqual([])
    expect(preview.isPreview(requestWithCookie(cookie.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'))))).toBe(false)

    clock += 8 * 60 * 60 * 1000
    expect(preview.isPreview(request)).toBe(false)
  })

  it('makes preview responses private and uncached, whatever the route set', async () => {
    const preview = createPreviewMode(options)
    const cookie = await previewCookie(preview)
    const baseUrl = await serve(preview)
    expect((await fetch(`${baseUrl}/page`, { headers: { cookie } })).headers.get('cache-control')).toBe('private, no-store')
    expect((await fetch(`${baseUrl}/page`)).headers.get('cache-control')).toBe('public, s-maxage=60')
  })

  it('sets and clears a cookie the Studio’s cross-site frame can use on an https site (SameSite=None, Secure, Partitioned)', async () => {
    const preview = createPreviewMode({ ...options, siteUrl: 'https://events.example.com' })
    expect(await enablePreview(preview)).toMatch(
      /^site-preview=\d+\.[\w-]+; Max-Age=28800; Path=\/; Expires=[^;]+; HttpOnly; Secure; Partitioned; SameSite=None$/,
    )
    const baseUrl = await serve(preview)
    const response = await fetch(`${baseUrl}/api/preview-mode/disable`, { redirect: 'manual' })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/')
    expect(response.headers.get('set-cookie')).toBe(
      'site-preview=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; Partitioned; SameSite=None',
    )
  })
})

describe('sitePath', () => {
  it.each([
    ['/conference/pfas?tab=agenda', '/conference/pfas?tab=agenda'],
    [undefined, '/'],
    ['', '/'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example/', '/'],
    ['conference', '/'],
  ])('%j leads to %j', (candidate, expected) => {
    expect(sitePath(candidate)).toBe(expected)
  })
})

describe('encodesForOverlays', () => {
  const filterDefault = () => true
  const sourceDocument = { _id: 'event-pfas', _type: 'event' }
  it.each([
    [['title'], true],
    [['agendaDays', 0, 'sessions', 1, 'title'], true],
    [['speakers', 2, 'bio'], true],
    [['kind'], false],
    [['code'], false],
    [['tabs', 0, 'key'], false],
    [['priceOptions', 0, 'amount'], false],
    [['slug', 'current'], false],
  ])('%j: %s', (sourcePath, encoded) => {
    expect(encodesForOverlays({ sourcePath, sourceDocument, resultPath: sourcePath, value: 'text', filterDefault })).toBe(encoded)
  })

  it('leaves alone what Sanity’s default leaves alone, even displayed text', () => {
    expect(encodesForOverlays({ sourcePath: ['seo', 'title'], sourceDocument, resultPath: ['title'], value: 'Title', filterDefault: () => false })).toBe(false)
  })
})
