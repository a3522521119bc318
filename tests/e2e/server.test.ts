// The server skeleton: content chain, health check, compression, caching of hashed assets, graceful shutdown.
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSite, type RunningSite } from '../support/site-server.ts'

let site: RunningSite

beforeAll(async () => {
  site = await startSite()
})

afterAll(async () => {
  await site?.stop()
})

describe('the site server', () => {
  it('renders the home page on the server from the shipped dataset through the local content endpoint', async () => {
    const html = await (await fetch(`${site.baseUrl}/`)).text()
    const settings = await fetch(`${site.baseUrl}/api/content/siteSettings`)
    const { siteName } = (await settings.json()) as { siteName: string }
    expect(siteName).toBeTruthy()
    expect(html).toContain(siteName)
    expect(html).toMatch(/<h1[^>]*>[^<]+/)
  })

  it('answers /healthz and /readyz with 200 while the database and the content source answer', async () => {
    const response = await fetch(`${site.baseUrl}/healthz`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({ status: 'ok' })
    const readiness = await fetch(`${site.baseUrl}/readyz`)
    expect(readiness.status).toBe(200)
    expect(readiness.headers.get('cache-control')).toBe('no-store')
    expect(await readiness.json()).toEqual({ status: 'ready' })
  })

  it('answers /readyz with 503 naming only the failing check, /healthz with 200, pages and the content route with the branded 503 "temporarily unavailable", while the content source is unreachable', async () => {
    // A hosted Sanity project on a machine that cannot reach it: every content request fails.
    const offline = await startSite({ env: { SANITY_PROJECT_ID: 'unreachable1', SANITY_DATASET: 'production' }, requireHealthy: false })
    try {
      // The checks run in the background: a probe answers at once, not after the content client's retries.
      await expect.poll(() => offline.output(), { timeout: 5_000 }).toContain('Not ready: the content check failed')
      const response = await fetch(`${offline.baseUrl}/readyz`, { signal: AbortSignal.timeout(500) })
      expect(response.status).toBe(503)
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(await response.json()).toEqual({ status: 'unavailable', failing: ['content'] })
      // The process itself is alive: a supervisor has no reason to restart it.
      expect((await fetch(`${offline.baseUrl}/healthz`, { signal: AbortSignal.timeout(500) })).status).toBe(200)

      // Not a fault of the page: the same request works once the source is back, so 503 with Retry-After.
      const page = await fetch(`${offline.baseUrl}/conference`)
      expect(page.status).toBe(503)
      expect(page.headers.get('cache-control')).toBe('no-store')
      expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0)
      const html = await page.text()
      expect(html).toContain('<h1>Temporarily unavailable</h1>')
      expect(html).toContain('href="/#contact"')
      expect(html).not.toMatch(/unreachable1|api\.sanity\.io|ENOTFOUND|at [\w.]+ \(/)

      const content = await fetch(`${offline.baseUrl}/api/content/siteSettings`)
      expect(content.status).toBe(503)
      const body = await content.text()
      expect(JSON.parse(body)).toMatchObject({ error: { code: 'content-unavailable' } })
      expect(body).not.toMatch(/unreachable1|api\.sanity\.io|ENOTFOUND/)
    } finally {
      await offline.stop()
    }
  })

  it('compresses pages and serves hashed assets compressed with a year-long immutable cache', async () => {
    const page = await fetch(`${site.baseUrl}/conference`, { headers: { 'Accept-Encoding': 'gzip' } })
    expect(page.headers.get('content-encoding')).toBe('gzip')
    const html = await page.text()
    const script = html.match(/\/assets\/[\w.-]+\.js/)?.[0]
    expect(script).toBeDefined()
    const asset = await fetch(`${site.baseUrl}${script}`, { headers: { 'Accept-Encoding': 'gzip' } })
    expect(asset.status).toBe(200)
    expect(asset.headers.get('content-encoding')).toBe('gzip')
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  })

  it('finishes a request under way and exits cleanly on SIGTERM', async () => {
    const own = await startSite()
    const body = JSON.stringify({
      fullName: 'Thandi Nkosi',
      email: 'thandi@example.com',
      phone: '+27 82 000 0000',
      interest: 'Conference',
      message: 'Please send the programme.',
    })
    // With Expect: 100-continue, Node's server answers "100 Continue" once it has the headers and has handed the
    // request to the app, so the test knows the request is under way rather than guessing how long that takes.
    const request = httpRequest(`${own.baseUrl}/api/contact`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Expect: '100-continue' },
    })
    const underWay = new Promise<void>((resolve) => request.once('continue', () => resolve()))
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      request.on('response', (response) => {
        let text = ''
        response.on('data', (chunk: Buffer) => (text += chunk.toString()))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }))
      })
      request.on('error', reject)
    })
    // Half the body once the server has the request; the rest only after the server has taken in the SIGTERM.
    request.flushHeaders()
    await underWay
    request.write(body.slice(0, 40))
    const stopping = own.stop()
    await expect.poll(() => own.output(), { interval: 20 }).toContain('SIGTERM received')
    request.end(body.slice(40))

    const { status, text } = await answered
    expect(status, own.output()).toBe(201)
    expect(JSON.parse(text)).toHaveProperty('id')
    await stopping
    expect(await own.exited).toEqual({ code: 0, signal: null })
  })
})
