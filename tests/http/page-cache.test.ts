// The page cache of the built site over real HTTP: public pages rendered once and answered from memory (the render
// count read from /metrics), 304s, invalidation by the dataset file and by a signed Sanity webhook, per-visitor answers
// never cached, and the built files sent precompressed.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerForStatusPage, registrationBody } from '../support/registrations.ts'
import { repoRoot, startSite, type RunningSite } from '../support/site-server.ts'

const METRICS_TOKEN = 'page-cache-metrics-token-0123456789'
const WEBHOOK_SECRET = 'page-cache-webhook-secret'
const PREVIEW_SECRET = 'page-cache-preview-secret'

let workDir: string
let datasetPath: string
let site: RunningSite

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'page-cache-'))
  await cp(path.join(repoRoot, 'packages/content/dataset'), workDir, { recursive: true })
  datasetPath = path.join(workDir, 'production.ndjson')
  const secret = {
    _id: 'drafts.preview-secret',
    _type: 'sanity.previewUrlSecret',
    _updatedAt: new Date().toISOString(),
    secret: PREVIEW_SECRET,
    source: 'test',
  }
  await writeFile(datasetPath, `${(await readFile(datasetPath, 'utf8')).trimEnd()}\n${JSON.stringify(secret)}\n`)
  site = await startSite({ env: { CONTENT_DATASET_PATH: datasetPath, METRICS_TOKEN, SANITY_WEBHOOK_SECRET: WEBHOOK_SECRET, FORM_RATE_LIMIT: '0' } })
})

afterAll(async () => {
  await site?.stop()
  if (workDir) await rm(workDir, { recursive: true, force: true })
})

type Outcome = 'hit' | 'miss' | 'not-modified'

/** How many pages the cache answered each way so far, from the site's own metrics. */
async function cacheCounts(): Promise<Record<Outcome, number>> {
  const text = await (await fetch(`${site.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
  const count = (outcome: Outcome) => Number(new RegExp(`^page_cache_responses_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0)
  return { hit: count('hit'), miss: count('miss'), 'not-modified': count('not-modified') }
}

/** What the cache did while `act` ran. */
async function outcomesOf(act: () => Promise<unknown>): Promise<Record<Outcome, number>> {
  const before = await cacheCounts()
  await act()
  const after = await cacheCounts()
  return { hit: after.hit - before.hit, miss: after.miss - before.miss, 'not-modified': after['not-modified'] - before['not-modified'] }
}

const none = { hit: 0, miss: 0, 'not-modified': 0 }

/** A GET that reads the bytes as sent (fetch would decode them). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }))
    })
      .on('error', reject)
      .end()
  })
}

async function signedWebhook(body: string, secret = WEBHOOK_SECRET): Promise<Response> {
  return fetch(`${site.baseUrl}/api/sanity/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER_NAME]: await encodeSignatureHeader(body, Date.now(), secret) },
    body,
  })
}

describe('public pages', () => {
  it('are rendered once and then answered from memory with a strong ETag and the public Cache-Control', async () => {
    let first: Response | undefined
    let second: Response | undefined
    const outcomes = await outcomesOf(async () => {
      first = await fetch(`${site.baseUrl}/workshop/boardManagement`)
      second = await fetch(`${site.baseUrl}/workshop/boardManagement`)
    })
    expect(outcomes).toEqual({ ...none, miss: 1, hit: 1 })
    expect(await second!.text()).toBe(await first!.text())
    expect(second!.headers.get('etag')).toMatch(/^"[\w-]{32}-(br|gzip)"$/)
    expect(second!.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=86400')
    expect(second!.headers.get('vary')).toBe('Accept-Encoding')
  })

  it('answer 304 to If-None-Match with the ETag, without rendering', async () => {
    // A browser revalidating; fetch() would add "Cache-Control: no-cache", which asks for the full page.
    const { headers } = await rawGet(`${site.baseUrl}/workshop/officeP`, { 'accept-encoding': 'br' })
    let revalidated: Awaited<ReturnType<typeof rawGet>> | undefined
    const outcomes = await outcomesOf(async () => {
      revalidated = await rawGet(`${site.baseUrl}/workshop/officeP`, { 'accept-encoding': 'br', 'if-none-match': String(headers.etag) })
    })
    expect(revalidated!.status).toBe(304)
    expect(revalidated!.body.length).toBe(0)
    expect(revalidated!.headers.etag).toBe(headers.etag)
    expect(outcomes).toEqual({ ...none, 'not-modified': 1 })
  })

  it('come in brotli, gzip or plain as Accept-Encoding says, compressed once', async () => {
    const br = await rawGet(`${site.baseUrl}/conference/Resilience`, { 'accept-encoding': 'gzip, deflate, br' })
    const gz = await rawGet(`${site.baseUrl}/conference/Resilience`, { 'accept-encoding': 'gzip' })
    const plain = await rawGet(`${site.baseUrl}/conference/Resilience`, { 'accept-encoding': 'identity' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true)
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true)
    expect(plain.body.toString()).toContain('<h1')
  })
})

describe('invalidation', () => {
  it('renders the page again after the dataset file changes, with the new content', async () => {
    await fetch(`${site.baseUrl}/sponsorship`)
    expect(await (await fetch(`${site.baseUrl}/sponsorship`)).text()).toContain('<h1>Sponsorship</h1>')
    const lines = (await readFile(datasetPath, 'utf8')).trimEnd().split('\n')
    const edited = lines.map((line) => {
      const document = JSON.parse(line) as { _id: string; title?: string }
      return document._id === 'page-sponsorship' ? JSON.stringify({ ...document, title: 'Sponsorship, edited on disk' }) : line
    })
    await writeFile(datasetPath, `${edited.join('\n')}\n`)
    await expect.poll(async () => (await fetch(`${site.baseUrl}/sponsorship`)).text(), { timeout: 10_000 }).toContain('<h1>Sponsorship, edited on disk</h1>')
    // The new page is kept in its turn.
    expect(await outcomesOf(() => fetch(`${site.baseUrl}/sponsorship`))).toEqual({ ...none, hit: 1 })
  })

  it('drops every kept page on a correctly signed Sanity webhook, and on nothing else', async () => {
    await fetch(`${site.baseUrl}/mission`)
    const body = JSON.stringify({ _id: 'page-mission', _type: 'page' })

    const forged = await signedWebhook(body, 'not-the-secret')
    expect(forged.status).toBe(401)
    const unsigned = await fetch(`${site.baseUrl}/api/sanity/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(unsigned.status).toBe(401)
    expect(await outcomesOf(() => fetch(`${site.baseUrl}/mission`))).toEqual({ ...none, hit: 1 })

    const accepted = await signedWebhook(body)
    expect(accepted.status).toBe(200)
    expect(await accepted.json()).toEqual({ revalidated: true })
    expect(await outcomesOf(() => fetch(`${site.baseUrl}/mission`))).toEqual({ ...none, miss: 1 })
  })
})

describe('per-visitor answers', () => {
  it('a registration’s status page is never cached', async () => {
    const statusUrl = await registerForStatusPage(site.baseUrl)
    const outcomes = await outcomesOf(async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        const page = await fetch(statusUrl, { headers: { accept: 'text/html' } })
        expect(page.status).toBe(200)
        expect(page.headers.get('cache-control')).toBe('private, no-store')
        expect(page.headers.get('etag')).toBeNull()
      }
    })
    expect(outcomes).toEqual(none)
  })

  it('the back office is never cached', async () => {
    const outcomes = await outcomesOf(async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        const page = await fetch(`${site.baseUrl}/admin/sign-in`)
        expect(page.status).toBe(200)
        expect(page.headers.get('cache-control')).toBe('no-store')
        expect(page.headers.get('etag')).toBeNull()
      }
    })
    expect(outcomes).toEqual(none)
  })

  it('a form post is answered by its own render, never from or into the cache', async () => {
    await fetch(`${site.baseUrl}/inhouse-training/request`)
    const form = new URLSearchParams({ name: '', email: 'not-an-address', phone: '', organization: '', message: '' })
    let answer: Response | undefined
    const outcomes = await outcomesOf(async () => {
      answer = await fetch(`${site.baseUrl}/inhouse-training/request`, { method: 'POST', body: form, redirect: 'manual' })
    })
    expect(outcomes).toEqual(none)
    expect(answer!.status).toBeLessThan(500)
    expect(answer!.headers.get('etag')).toBeNull()
    expect(answer!.headers.get('cache-control') ?? '').not.toContain('public')
    // The page itself is still the kept one.
    expect(await outcomesOf(() => fetch(`${site.baseUrl}/inhouse-training/request`))).toEqual({ ...none, hit: 1 })
  })

  it('an event page’s registration form, kept for every visitor, lets each visitor without JavaScript register their own', async () => {
    const registerPage = `${site.baseUrl}/workshop/legalOpinion?tab=register`
    await fetch(registerPage)
    let kept = ''
    expect(await outcomesOf(async () => (kept = await (await fetch(registerPage)).text()))).toEqual({ ...none, hit: 1 })
    // A token in the kept page would be every visitor's idempotency key, so one visitor's submit could answer another's.
    const token = /<input type="hidden" name="token" value="([^"]*)"/.exec(kept)?.[1]
    expect(token).toBe('')

    const locations = []
    for (const visitor of ['first', 'second']) {
      const body = registrationBody({ companyName: `Acme ${visitor} visitor` })
      const form = new URLSearchParams({
        token: token!,
        code: body.code,
        companyName: body.companyName,
        address: body.address,
        email: body.email,
        tel: body.tel,
        vatNumber: body.vatNumber,
        attendanceOption: body.attendanceOption,
        paymentMethod: body.paymentMethod,
        legalAgreement: 'on',
      })
      body.delegates.forEach((delegate, row) => {
        for (const [field, value] of Object.entries(delegate)) form.set(`delegates.${row}.${field}`, value)
      })
      const answer = await fetch(registerPage, { method: 'POST', body: form, redirect: 'manual' })
      expect(answer.status, `${visitor} visitor`).toBe(303)
      locations.push(answer.headers.get('location'))
    }
    expect(locations[0]).toMatch(/^\/registrations\/[A-Z0-9]+\//)
    expect(locations[1]).toMatch(/^\/registrations\/[A-Z0-9]+\//)
    expect(locations[1]).not.toBe(locations[0])
  })

  it('a page in preview (the preview cookie) is rendered for its editor alone', async () => {
    await fetch(`${site.baseUrl}/conference/pfas`)
    const enable = await fetch(
      `${site.baseUrl}/api/preview-mode/enable?${new URLSearchParams({ 'sanity-preview-secret': PREVIEW_SECRET, 'sanity-preview-pathname': '/conference/pfas' })}`,
      { redirect: 'manual' },
    )
    expect(enable.status).toBe(307)
    const cookie = enable.headers.getSetCookie()[0]!.split(';')[0]!
    const outcomes = await outcomesOf(async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        const page = await fetch(`${site.baseUrl}/conference/pfas`, { headers: { cookie } })
        expect(page.status).toBe(200)
        expect(page.headers.get('cache-control')).toBe('private, no-store')
        expect(page.headers.get('etag')).toBeNull()
        expect(page.headers.get('content-security-policy')).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/)
      }
    })
    expect(outcomes).toEqual(none)
  })
})

describe('built files', () => {
  it('are sent precompressed from the build, as brotli or gzip by Accept-Encoding, with Vary', async () => {
    const home = await (await fetch(`${site.baseUrl}/`)).text()
    const scripts = [...home.matchAll(/\/assets\/[\w.-]+\.js/g)].map(([asset]) => asset)
    const largest = (
      await Promise.all(scripts.map(async (asset) => ({ asset, size: (await readFile(path.join(repoRoot, 'apps/site/build/client', asset))).length })))
    ).sort((a, b) => b.size - a.size)[0]!.asset
    const onDisk = path.join(repoRoot, 'apps/site/build/client', largest)
    const plain = await readFile(onDisk)
    for (const [encoding, suffix, decode] of [
      ['br', '.br', brotliDecompressSync],
      ['gzip', '.gz', gunzipSync],
    ] as const) {
      const answer = await rawGet(`${site.baseUrl}${largest}`, { 'accept-encoding': `${encoding}` })
      expect(answer.status).toBe(200)
      expect(answer.headers['content-encoding']).toBe(encoding)
      expect(answer.headers['content-type']).toMatch(/^text\/javascript/)
      expect(answer.headers.vary).toMatch(/Accept-Encoding/i)
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      // The very bytes the build wrote, not a compression made for this request.
      expect(answer.body.equals(await readFile(onDisk + suffix))).toBe(true)
      expect(decode(answer.body).equals(plain)).toBe(true)
    }
    const identity = await rawGet(`${site.baseUrl}${largest}`, { 'accept-encoding': 'identity' })
    expect(identity.headers['content-encoding']).toBeUndefined()
    expect(identity.body.equals(plain)).toBe(true)
  })
})
