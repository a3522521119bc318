// Content reaches the public only as pages, images and the named queries of the site's content route: no public
// URL evaluates a query a visitor wrote, drafts stay unpublished, and the browser refetches through the site.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectBrowser, waitForHydration } from '../support/browser.ts'
import { repoRoot, startSite, type RunningSite } from '../support/site-server.ts'

// Evaluated, this holds the only Node process for minutes (each level scans the whole dataset once per document).
const DANGEROUS_QUERY = 'count(*[count(*[count(*[count(*[_id == ^._id]) > 0]) > 0]) > 0])'
const DRAFT_TITLE = 'Unpublished draft of the home page'
// Well under what evaluating the query takes, well over what a refusal takes on a busy machine.
const QUICKLY_MS = 5_000

let workDir: string
let datasetPath: string
let site: RunningSite

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'content-access-'))
  await cp(path.join(repoRoot, 'packages/content/dataset'), workDir, { recursive: true })
  datasetPath = path.join(workDir, 'production.ndjson')
  const shipped = await readFile(datasetPath, 'utf8')
  const home = shipped.split('\n').find((line) => line.startsWith('{"_id":"page-home"'))!
  const draft = home.replace('"_id":"page-home"', '"_id":"drafts.page-home"').replace(/"title":"[^"]*"/, `"title":"${DRAFT_TITLE}"`)
  await writeFile(datasetPath, `${shipped.trimEnd()}\n${draft}\n`)
  site = await startSite({ env: { CONTENT_DATASET_PATH: datasetPath, FORM_RATE_LIMIT: '0' } })
})

afterAll(async () => {
  await site?.stop()
  await rm(workDir, { recursive: true, force: true })
})

async function timedFetch(pathname: string, init?: RequestInit): Promise<{ status: number; body: string; ms: number }> {
  const startedAt = performance.now()
  const response = await fetch(`${site.baseUrl}${pathname}`, { ...init, signal: AbortSignal.timeout(30_000) })
  const body = await response.text()
  return { status: response.status, body, ms: performance.now() - startedAt }
}

const encodedQuery = encodeURIComponent(DANGEROUS_QUERY)
const postQuery = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: DANGEROUS_QUERY }) }

describe('the public port', () => {
  it.each([
    ['GET', `/_content/v2025-02-19/data/query/production?query=${encodedQuery}`],
    ['GET', `/_content/v2025-02-19/data/query/production?query=${encodedQuery}&returnQuery=false`],
    ['GET', `/_content/v1/data/query/production?query=${encodedQuery}`],
    ['GET', `/_content/vX/data/query/production?query=${encodedQuery}&perspective=raw`],
    ['GET', `/_content/v2025-02-19/data/query/production/?query=${encodedQuery}`],
    ['GET', `/_content//v2025-02-19/data/query/production?query=${encodedQuery}`],
    ['GET', `/_CONTENT/v2025-02-19/data/query/production?query=${encodedQuery}`],
    ['GET', `/v2025-02-19/data/query/production?query=${encodedQuery}`],
    ['GET', `/api/content/${encodedQuery}`],
    ['GET', `/api/content/page?slug=home&query=${encodedQuery}`],
    ['POST', '/_content/v2025-02-19/data/query/production'],
    ['POST', '/_content/v1/data/query/production?perspective=raw'],
    ['POST', '/api/content/page?slug=home'],
  ])('refuses %s %s quickly without evaluating it', async (method, pathname) => {
    const answer = await timedFetch(pathname, method === 'POST' ? postQuery : undefined)
    expect([400, 404, 405]).toContain(answer.status)
    expect(answer.ms).toBeLessThan(QUICKLY_MS)
    expect(answer.body).not.toMatch(/"result"|"ms":/)
    // Had anything evaluated the query, the one Node process would still be busy with it.
    expect((await timedFetch('/healthz')).ms).toBeLessThan(QUICKLY_MS)
  })

  it.each(['raw', 'drafts', 'previewDrafts'])('never shows a draft, even when asked for the %s perspective', async (perspective) => {
    const draftQuery = encodeURIComponent('*[_id in path("drafts.**")]{title}')
    for (const pathname of [
      `/_content/v2025-02-19/data/query/production?query=${draftQuery}&perspective=${perspective}`,
      `/api/content/page?slug=home&perspective=${perspective}`,
      `/?perspective=${perspective}`,
      `/api/content/page?slug=home`,
    ]) {
      const answer = await timedFetch(pathname, { headers: { authorization: 'Bearer guessed-token' } })
      expect(answer.body, pathname).not.toContain(DRAFT_TITLE)
    }
  })

  it('still serves the dataset’s images as files', async () => {
    const html = await (await fetch(`${site.baseUrl}/conference`)).text()
    const image = html.match(/src="(\/_content\/images\/[^"]+\.svg)"/)?.[1]
    expect(image).toBeDefined()
    const response = await fetch(`${site.baseUrl}${image}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/svg+xml')
  })
})

describe('the content route', () => {
  it('answers a named query with the published content', async () => {
    const response = await fetch(`${site.baseUrl}/api/content/page?slug=home`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const page = (await response.json()) as { title: string }
    const html = await (await fetch(`${site.baseUrl}/`)).text()
    expect(html).toContain(`<h1>${page.title}</h1>`)
    expect(page.title).not.toBe(DRAFT_TITLE)
  })

  it('answers queries with several parameters and queries without any', async () => {
    const event = await (await fetch(`${site.baseUrl}/api/content/eventPage?kind=conference&slug=pfas`)).json()
    expect(event).toMatchObject({ kind: 'conference', slug: 'pfas', title: expect.any(String) })
    const settings = await (await fetch(`${site.baseUrl}/api/content/siteSettings`)).json()
    expect(settings).toMatchObject({ siteName: expect.any(String) })
  })

  it.each([
    ['a query the browser does not need', '/api/content/registrationEvent?slug=pfas', 404, 'unknown-query'],
    ['an unknown name', '/api/content/everything', 404, 'unknown-query'],
    ['a missing parameter', '/api/content/eventPage?kind=conference', 400, 'invalid-params'],
    ['a parameter the query does not take', '/api/content/siteSettings?slug=home', 400, 'invalid-params'],
    ['a GROQ fragment as a parameter', `/api/content/page?slug=${encodeURIComponent('home"] | *[_type != "')}`, 400, 'invalid-params'],
    ['an event kind that does not exist', '/api/content/eventCards?kind=seminar', 400, 'invalid-params'],
  ])('refuses %s with the shared error body', async (_name, pathname, status, code) => {
    const response = await fetch(`${site.baseUrl}${pathname}`)
    expect(response.status).toBe(status)
    const body = (await response.json()) as { error: { code: string; message: string; fields: Record<string, string> } }
    expect(body.error).toMatchObject({ code, message: expect.any(String), fields: expect.any(Object) })
  })
})

describe('in the browser', () => {
  let browser: Browser

  beforeAll(async () => {
    browser = await connectBrowser()
  })

  afterAll(async () => {
    await browser?.close()
  })

  it('refetches edited content through the site’s content route once it is stale, and never calls a query endpoint', async () => {
    const context = await browser.newContext()
    context.setDefaultTimeout(15_000)
    const page = await context.newPage()
    const requested: string[] = []
    page.on('request', (request) => requested.push(request.url()))
    // The page's own clock, so the content can go stale without waiting out CONTENT_STALE_TIME_MS.
    await page.clock.install()
    await page.goto(`${site.baseUrl}/`)
    await waitForHydration(page)
    await page.waitForLoadState('networkidle')
    const shippedTitle = await page.locator('h1').textContent()

    const shipped = await readFile(datasetPath, 'utf8')
    await writeFile(datasetPath, shipped.replace(`"title":${JSON.stringify(shippedTitle)}`, '"title":"Edited in the studio a moment ago"'))
    await page.clock.fastForward(61_000)
    const refetch = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/content/page')
    // Coming back to the tab is what makes React Query look at stale content.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })))
    const response = await refetch
    expect(new URL(response.url()).search).toBe('?slug=home')
    await expect.poll(() => page.locator('h1').textContent()).toBe('Edited in the studio a moment ago')

    const contentRequests = requested.filter((url) => /\/data\/query\/|sanity\.io|\/_content\/v/i.test(url))
    expect(contentRequests).toEqual([])
    expect(requested.every((url) => new URL(url).origin === site.baseUrl)).toBe(true)
    await context.close()
  })
})
