import { createHash } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { createLogger } from '@events/observability'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { inlineScriptHashes, isPerVisitorPath, isShareable, namesPage, pageCache, PageStore, withStableNonce, type PageCacheOutcome } from './page-cache'
import { cspNonce, securityHeaders, usePagePolicy } from './security-headers'

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

describe('inlineScriptHashes', () => {
  it.each([
    ['a classic inline script', '<script>window.a=1</script>', [sha256('window.a=1')]],
    ['a module with a nonce', '<script type="module" nonce="abc">import "/assets/x.js"</script>', [sha256('import "/assets/x.js"')]],
    ['text/javascript in single quotes', "<script type='text/javascript'>go()</script>", [sha256('go()')]],
    ['an uppercase tag and an empty body', '<SCRIPT>x</SCRIPT><script></script>', [sha256('x'), sha256('')]],
    ['the same script twice, hashed once', '<script>same()</script><p></p><script>same()</script>', [sha256('same()')]],
    ['an external script', '<script src="/assets/a.js"></script>', []],
    ['JSON-LD data', '<script type="application/ld+json">{"@type":"Event"}</script>', []],
    ['markup inside a script is its text', '<script>document.write("<b>")</script>', [sha256('document.write("<b>")')]],
    ['non-ASCII text, hashed as UTF-8', '<script>t="Résumé – R7 490"</script>', [sha256('t="Résumé – R7 490"')]],
  ])('%s', (_name, html, expected) => {
    expect(inlineScriptHashes(html)).toEqual(expected)
  })
})

describe('isShareable', () => {
  const page = (init: ResponseInit) => new Response('<p>page</p>', init)
  it.each([
    ['a 200 HTML page', page({ headers: { 'Content-Type': 'text/html; charset=utf-8' } }), true],
    ['a 404 page', page({ status: 404, headers: { 'Content-Type': 'text/html' } }), false],
    ['a redirect', page({ status: 301, headers: { 'Content-Type': 'text/html', Location: '/x' } }), false],
    ['a page setting a cookie', page({ headers: { 'Content-Type': 'text/html', 'Set-Cookie': 'a=b' } }), false],
    ['a private page', page({ headers: { 'Content-Type': 'text/html', 'Cache-Control': 'private, no-store' } }), false],
    ['XML (the sitemap)', page({ headers: { 'Content-Type': 'application/xml' } }), false],
  ])('%s: %s', (_name, response, expected) => {
    expect(isShareable(response)).toBe(expected)
  })
})

describe('isPerVisitorPath', () => {
  it.each([
    ['/', false],
    ['/conference/Resilience', false],
    ['/inhouse-training/request', false],
    ['/admin', true],
    ['/admin/staff', true],
    ['/admin.data', true],
    ['/registrations/AB12CD/secret', true],
    ['/registrations/AB12CD/secret/payment/success', true],
    ['/payments/sandbox/chk_1', true],
    ['/api/content/siteSettings', true],
    ['/conference/Resilience.data', true],
  ])('%s: %s', (path, expected) => {
    expect(isPerVisitorPath(path)).toBe(expected)
  })
})

// A page with an inline script and the nonce-carrying style the site renders, as the real entry does.
function htmlPage(title: string, nonce: string): string {
  return `<!DOCTYPE html><html><head><script nonce="${nonce}">window.__nonce__=document.currentScript.nonce</script><style nonce="${nonce}">body{margin:0}</style></head><body><h1>${title}</h1>${'<p>text</p>'.repeat(200)}</body></html>`
}

interface Harness {
  url: string
  renders: () => number
  outcomes: PageCacheOutcome[]
  store: PageStore
  setVariant(variant: string): void
}

let close: (() => void) | undefined
afterEach(() => close?.())

/** An Express app with the real security headers in front of the page cache and a renderer that counts its calls. */
async function harness({ maxBytes = 10_000_000, renderDelayMs = 0 } = {}): Promise<Harness> {
  let renders = 0
  let variant = 'r1'
  const outcomes: PageCacheOutcome[] = []
  const store = new PageStore({ maxBytes })
  const logger = createLogger({ level: 'silent' })
  const app = express()
  app.use((req, _res, next) => {
    req.log = logger
    next()
  })
  app.use(securityHeaders({ siteUrl: 'http://localhost:3000' }))
  app.use(
    pageCache({
      store,
      cacheControl: 'public, max-age=0, s-maxage=60',
      isCacheable: (req) => !isPerVisitorPath(req.path),
      variantOf: async () => variant,
      async render(req, res) {
        renders += 1
        await new Promise((resolve) => setTimeout(resolve, renderDelayMs))
        const nonce = cspNonce(res)
        if (req.path === '/missing') return new Response(htmlPage('Not found', nonce), { status: 404, headers: { 'Content-Type': 'text/html' } })
        if (req.path === '/cookie') return new Response(htmlPage('Cookie', nonce), { headers: { 'Content-Type': 'text/html', 'Set-Cookie': 'seen=1' } })
        return new Response(htmlPage(`${req.path} ${variant} render ${renders}`, nonce), {
          headers: { 'Content-Type': 'text/html', Link: '</font.woff2>; rel=preload' },
        })
      },
      applyPagePolicy: (req, res, page) => usePagePolicy(req, res, page),
      onOutcome: (outcome) => outcomes.push(outcome),
    }),
  )
  app.use((req, res) => void res.status(200).type('html').end(`rendered per visitor: ${req.path}`))
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  close = () => server.close()
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    renders: () => renders,
    outcomes,
    store,
    setVariant: (next) => (variant = next),
  }
}

// fetch() decodes bodies itself; these helpers ask for one coding and read the bytes as sent.
async function get(url: string, headers: Record<string, string> = {}) {
  const { request } = await import('node:http')
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }))
    })
      .on('error', reject)
      .end()
  })
}

describe('pageCache', () => {
  it('renders a page once and serves it again from memory, with its headers, a strong ETag and the public Cache-Control', async () => {
    const site = await harness()
    const first = await get(`${site.url}/conference/Resilience`)
    const second = await get(`${site.url}/conference/Resilience`)
    expect(site.renders()).toBe(1)
    expect(site.outcomes).toEqual(['miss', 'hit'])
    expect(second.body.equals(first.body)).toBe(true)
    expect(second.body.toString()).toContain('/conference/Resilience r1 render 1')
    expect(second.headers.etag).toMatch(/^"[\w-]{32}"$/)
    expect(second.headers.etag).toBe(first.headers.etag)
    expect(second.headers['cache-control']).toBe('public, max-age=0, s-maxage=60')
    expect(second.headers.link).toBe('</font.woff2>; rel=preload')
    expect(second.headers.vary).toBe('Accept-Encoding')
    expect(second.headers['content-length']).toBe(String(second.body.length))
  })

  it('answers 304 without a body to a matching If-None-Match, weak or in a list, and 200 to another', async () => {
    const site = await harness()
    const { headers } = await get(`${site.url}/`, { 'Accept-Encoding': 'br' })
    const etag = String(headers.etag)
    expect((await get(`${site.url}/`, { 'Accept-Encoding': 'br', 'If-None-Match': etag })).status).toBe(304)
    const listed = await get(`${site.url}/`, { 'Accept-Encoding': 'br', 'If-None-Match': `"other", W/${etag}` })
    expect(listed.status).toBe(304)
    expect(listed.body.length).toBe(0)
    expect((await get(`${site.url}/`, { 'Accept-Encoding': 'br', 'If-None-Match': '"other"' })).status).toBe(200)
    expect(site.renders()).toBe(1)
    expect(site.outcomes).toEqual(['miss', 'not-modified', 'not-modified', 'hit'])
  })

  it('sends the brotli or gzip form made once, as Accept-Encoding prefers, each with its own ETag', async () => {
    const site = await harness()
    const plain = await get(`${site.url}/`, { 'Accept-Encoding': 'identity' })
    const br = await get(`${site.url}/`, { 'Accept-Encoding': 'gzip, deflate, br' })
    const gz = await get(`${site.url}/`, { 'Accept-Encoding': 'gzip, deflate' })
    expect(site.renders()).toBe(1)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(br.headers['content-encoding']).toBe('br')
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true)
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true)
    expect(br.body.length).toBeLessThan(plain.body.length)
    expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3)
  })

  it('allows the page’s inline scripts by hash and its styles by the nonce it was rendered with, on every response', async () => {
    const site = await harness()
    const first = await get(`${site.url}/`)
    const second = await get(`${site.url}/`)
    const html = second.body.toString()
    const nonce = /<style nonce="([^"]+)"/.exec(html)?.[1]
    const policy = String(second.headers['content-security-policy'])
    expect(policy).toBe(first.headers['content-security-policy'])
    expect(policy).toContain(`script-src 'self' ${sha256('window.__nonce__=document.currentScript.nonce')};`)
    expect(policy).toContain(`style-src 'nonce-${nonce}';`)
    expect(policy).not.toContain("'strict-dynamic'")
  })

  it('renders again when the variant changes (new content or availability epoch) or the store is cleared', async () => {
    const site = await harness()
    await get(`${site.url}/`)
    site.setVariant('r2')
    expect((await get(`${site.url}/`)).body.toString()).toContain('/ r2 render 2')
    site.store.clear()
    expect((await get(`${site.url}/`)).body.toString()).toContain('/ r2 render 3')
    expect((await get(`${site.url}/`)).body.toString()).toContain('/ r2 render 3')
    expect(site.renders()).toBe(3)
  })

  it('keeps a URL with another query string apart', async () => {
    const site = await harness()
    await get(`${site.url}/conference?kind=a`)
    await get(`${site.url}/conference?kind=b`)
    await get(`${site.url}/conference?kind=a`)
    expect(site.renders()).toBe(2)
  })

  it('never keeps a response other than 200 or one that sets a cookie, and sends it as rendered', async () => {
    const site = await harness()
    for (let attempt = 0; attempt < 2; attempt++) {
      const missing = await get(`${site.url}/missing`)
      expect(missing.status).toBe(404)
      expect(missing.headers.etag).toBeUndefined()
      const cookie = await get(`${site.url}/cookie`)
      expect(cookie.headers['set-cookie']).toEqual(['seen=1'])
      expect(cookie.headers['cache-control']).toBeUndefined()
      // The nonce policy of an uncached response still matches the page it sent.
      const nonce = /<script nonce="([^"]+)"/.exec(cookie.body.toString())?.[1]
      expect(cookie.headers['content-security-policy']).toContain(`script-src 'nonce-${nonce}' 'strict-dynamic'`)
    }
    expect(site.renders()).toBe(4)
    expect(site.store.size).toBe(0)
  })

  it('passes per-visitor paths and other methods on without rendering or keeping anything', async () => {
    const site = await harness()
    for (const path of ['/admin', '/registrations/AB12/secret', '/conference/Resilience.data']) {
      const response = await get(`${site.url}${path}`)
      expect(response.body.toString()).toBe(`rendered per visitor: ${path}`)
      expect(response.headers.etag).toBeUndefined()
    }
    const posted = await fetch(`${site.url}/`, { method: 'POST', body: 'x=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })
    expect(await posted.text()).toBe('rendered per visitor: /')
    expect(site.renders()).toBe(0)
  })

  it('answers HEAD from a kept page with its headers, and passes a HEAD on when nothing is kept', async () => {
    const site = await harness()
    const head = async () => fetch(`${site.url}/`, { method: 'HEAD' })
    expect((await head()).headers.get('etag')).toBeNull()
    await get(`${site.url}/`)
    const kept = await head()
    expect(kept.headers.get('etag')).not.toBeNull()
    expect(site.renders()).toBe(1)
  })

  it('renders once for concurrent first requests of one page', async () => {
    const site = await harness({ renderDelayMs: 100 })
    const bodies = await Promise.all(Array.from({ length: 5 }, () => get(`${site.url}/`)))
    expect(site.renders()).toBe(1)
    expect(new Set(bodies.map((response) => response.body.toString())).size).toBe(1)
  })
})

describe('PageStore', () => {
  const page = (bytes: number) => ({
    headers: [],
    representations: { br: Buffer.alloc(bytes), gzip: Buffer.alloc(bytes), identity: Buffer.alloc(bytes) },
    digest: 'd',
    scriptHashes: [],
    styleNonce: 'n',
  })
  const isPage = (value: unknown): value is ReturnType<typeof page> => value !== undefined

  it('keeps within its byte limit by evicting the least recently used page', async () => {
    // Each page takes 3 × 1000 bytes and 1 KB of bookkeeping: room for two in 10 000.
    const store = new PageStore({ maxBytes: 10_000 })
    for (const key of ['a', 'b']) await store.fill(key, async () => page(1000), isPage)
    store.get('a')
    await store.fill('c', async () => page(1000), isPage)
    expect(store.bytes).toBeLessThanOrEqual(10_000)
    expect(store.get('b')).toBeUndefined()
    expect(store.get('a')).toBeDefined()
    expect(store.get('c')).toBeDefined()
  })

  it('does not keep a page whose render began before the store was cleared', async () => {
    const store = new PageStore({ maxBytes: 10_000 })
    let finish: () => void = () => undefined
    const rendering = store.fill('a', () => new Promise<ReturnType<typeof page>>((resolve) => (finish = () => resolve(page(10)))), isPage)
    store.clear()
    finish()
    await rendering
    expect(store.get('a')).toBeUndefined()
  })
})

describe('withStableNonce', () => {
  it('replaces the render nonce with one made from the page, the same for the same page whatever nonce it was rendered with', () => {
    const page = (nonce: string) => `<style nonce="${nonce}">h1{}</style><script nonce="${nonce}">window.__nonce__="${nonce}"</script>`
    const first = withStableNonce(page('rAnd0m+first/=='), 'rAnd0m+first/==')
    const second = withStableNonce(page('0therRandom2=='), '0therRandom2==')
    expect(first).toEqual(second)
    expect(first.html).toBe(page(first.nonce))
    expect(first.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
    expect(withStableNonce(page('n1').replace('h1{}', 'h2{}'), 'n1').nonce).not.toBe(first.nonce)
  })
})

describe('namesPage', () => {
  it.each([
    ['"abc"', true],
    ['"abc-gzip"', true],
    ['"abc-br"', true],
    ['W/"abc-gzip"', true],
    ['"other", "abc-gzip"', true],
    ['*', true],
    ['"abcd"', false],
    ['"abc-deflate"', false],
    [undefined, false],
  ])('If-None-Match %s names the page in one of its codings: %s', (header, expected) => {
    expect(namesPage(header, { digest: 'abc' })).toBe(expected)
  })
})
