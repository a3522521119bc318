// Draft mode through @sanity/preview-url-secret's flow on the embedded content source: a secret stored as a
// `sanity.previewUrlSecret` document (as the Studio's Presentation tool stores it) opens a preview of the drafts, inside
// the Studio's frame too; everyone else keeps seeing the published page.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useBrowser, waitForHydration } from '../support/browser.ts'
import { repoRoot, startSite, type RunningSite } from '../support/site-server.ts'

const DRAFT_TITLE = 'PFAS Conference 2025, draft not yet published'
const PUBLISHED_TITLE = 'PFAS Conference 2025'
const SECRET = 'a-secret-the-studio-stored-a-moment-ago'
const EXPIRED_SECRET = 'a-secret-stored-two-hours-ago'
const EVENT_PATH = '/conference/pfas'

let workDir: string
let site: RunningSite
let studio: Server
let studioOrigin: string

function previewSecretDocument(id: string, secret: string, updatedAt: Date): string {
  return JSON.stringify({
    _id: `drafts.${id}`,
    _type: 'sanity.previewUrlSecret',
    _updatedAt: updatedAt.toISOString(),
    secret,
    studioUrl: studioOrigin,
    source: 'test',
  })
}

function enablePath(secret: string, pathname = EVENT_PATH): string {
  return `/api/preview-mode/enable?${new URLSearchParams({ 'sanity-preview-secret': secret, 'sanity-preview-pathname': pathname })}`
}

beforeAll(async () => {
  // Stands in for the Studio: a page on another origin that frames the site, as the Presentation tool does.
  studio = createServer((req, res) => {
    const target = new URL(req.url ?? '/', 'http://studio.invalid').searchParams.get('frame') ?? ''
    res.setHeader('content-type', 'text/html; charset=utf-8')
    res.end(`<!doctype html><title>Studio</title><iframe id="preview" src="${target.replace(/"/g, '&quot;')}" width="1000" height="700"></iframe>`)
  })
  await new Promise<void>((resolve) => studio.listen(0, '127.0.0.1', resolve))
  studioOrigin = `http://127.0.0.1:${(studio.address() as AddressInfo).port}`

  workDir = await mkdtemp(path.join(tmpdir(), 'preview-'))
  await cp(path.join(repoRoot, 'packages/content/dataset'), workDir, { recursive: true })
  const datasetPath = path.join(workDir, 'production.ndjson')
  const shipped = await readFile(datasetPath, 'utf8')
  const event = shipped.split('\n').find((line) => line.startsWith('{"_id":"event-pfas"'))!
  const draft = event.replace('"_id":"event-pfas"', '"_id":"drafts.event-pfas"').replace(`"title":"${PUBLISHED_TITLE}"`, `"title":"${DRAFT_TITLE}"`)
  const secrets = [
    previewSecretDocument('secret-fresh', SECRET, new Date()),
    previewSecretDocument('secret-expired', EXPIRED_SECRET, new Date(Date.now() - 2 * 60 * 60 * 1000)),
  ]
  await writeFile(datasetPath, `${shipped.trimEnd()}\n${draft}\n${secrets.join('\n')}\n`)
  site = await startSite({ env: { CONTENT_DATASET_PATH: datasetPath, SANITY_STUDIO_URL: studioOrigin }, keepOutput: true })
})

afterAll(async () => {
  await site?.stop()
  await new Promise((resolve) => studio?.close(resolve))
  if (workDir) await rm(workDir, { recursive: true, force: true })
})

describe('the enable and disable routes', () => {
  it.each([
    ['a secret the Studio never stored', enablePath('guessed')],
    ['an expired secret', enablePath(EXPIRED_SECRET)],
    ['no secret', '/api/preview-mode/enable?sanity-preview-pathname=%2F'],
  ])('refuse %s with 401, a plain message and no cookie', async (_name, pathname) => {
    const response = await fetch(`${site.baseUrl}${pathname}`, { redirect: 'manual' })
    expect(response.status).toBe(401)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await response.text()).toBe('This preview link is not valid or has expired. Open the preview from the Studio again.')
    expect(response.headers.get('set-cookie')).toBeNull()
  })

  it('sets an httpOnly cookie for a valid secret and redirects to the previewed path only', async () => {
    const response = await fetch(`${site.baseUrl}${enablePath(SECRET)}`, { redirect: 'manual' })
    expect(response.status).toBe(307)
    expect(response.headers.get('location')).toBe(EVENT_PATH)
    expect(response.headers.get('set-cookie')).toMatch(/^site-preview=\d+\.[\w-]+; Max-Age=28800; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/)
    // The library keeps the host of a full URL out; a path that would read as one (`//host`) goes home instead.
    for (const [asked, location] of [
      ['//evil.example/phish', '/phish'],
      ['/.//evil.example/phish', '/'],
    ]) {
      const elsewhere = await fetch(`${site.baseUrl}${enablePath(SECRET, asked)}`, { redirect: 'manual' })
      expect(elsewhere.headers.get('location')).toBe(location)
    }
  })

  it('disable clears the cookie and returns to the page', async () => {
    const response = await fetch(`${site.baseUrl}/api/preview-mode/disable?redirect=${encodeURIComponent(EVENT_PATH)}`, { redirect: 'manual' })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe(EVENT_PATH)
    expect(response.headers.get('set-cookie')).toMatch(/^site-preview=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/)
  })

  it('a forged or expired cookie shows the published page', async () => {
    for (const cookie of ['site-preview=99999999999999.forged', `site-preview=1.${'a'.repeat(43)}`]) {
      const html = await (await fetch(`${site.baseUrl}${EVENT_PATH}`, { headers: { cookie } })).text()
      expect(html).toContain(PUBLISHED_TITLE)
      expect(html).not.toContain(DRAFT_TITLE)
    }
  })
})

describe('with a Sanity project but no SANITY_API_READ_TOKEN', () => {
  it('preview is unavailable: 503 with a plain message, before any secret is looked up', async () => {
    // The project is never reached: the site refuses before it would ask Sanity about the secret.
    const hosted = await startSite({ env: { SANITY_PROJECT_ID: 'abc123', SANITY_DATASET: 'production' }, requireHealthy: false })
    try {
      const response = await fetch(`${hosted.baseUrl}${enablePath(SECRET)}`, { redirect: 'manual' })
      expect(response.status).toBe(503)
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
      expect(await response.text()).toBe('Preview is not available: the site has no SANITY_API_READ_TOKEN to read drafts with.')
      expect(response.headers.get('set-cookie')).toBeNull()
    } finally {
      await hosted.stop()
    }
  })
})

describe('in the browser', () => {
  const browser = useBrowser()

  it('shows the draft to the editor who enabled preview, and the published page to everyone else', async () => {
    const editor = await browser().newContext()
    editor.setDefaultTimeout(15_000)
    const page = await editor.newPage()
    const response = await page.goto(`${site.baseUrl}${enablePath(SECRET)}`)
    expect(new URL(page.url()).pathname).toBe(EVENT_PATH)
    await waitForHydration(page)
    await expect.poll(() => page.locator('h1').textContent()).toBe(DRAFT_TITLE)
    const headers = await response!.allHeaders()
    expect(headers['cache-control']).toBe('private, no-store')
    expect(headers['content-security-policy']).toContain(`frame-ancestors ${studioOrigin};`)
    expect(headers['x-frame-options']).toBeUndefined()
    // The browser's refetches read drafts too, for the cookie's holder.
    const refetched = await page.evaluate(async () => (await (await fetch('/api/content/eventPage?kind=conference&slug=pfas')).json()) as { title: string })
    expect(refetched.title).toBe(DRAFT_TITLE)

    const visitor = await browser().newContext()
    const publicPage = await visitor.newPage()
    const publicScripts: string[] = []
    publicPage.on('request', (request) => publicScripts.push(request.url()))
    const publicResponse = await publicPage.goto(`${site.baseUrl}${EVENT_PATH}`)
    expect(await publicPage.locator('h1').textContent()).toBe(PUBLISHED_TITLE)
    expect(await publicPage.content()).not.toContain(DRAFT_TITLE)
    const publicHeaders = await publicResponse!.allHeaders()
    expect(publicHeaders['cache-control'] ?? '').not.toMatch(/private/)
    expect(publicHeaders['content-security-policy']).toContain("frame-ancestors 'none';")
    expect(publicHeaders['x-frame-options']).toBe('DENY')
    const publicRefetch = await publicPage.evaluate(
      async () => (await (await fetch('/api/content/eventPage?kind=conference&slug=pfas')).json()) as { title: string },
    )
    expect(publicRefetch.title).toBe(PUBLISHED_TITLE)
    await publicPage.waitForLoadState('networkidle')
    expect(publicScripts.filter((url) => /PreviewTools|VisualEditing/.test(url))).toEqual([])
    expect(await publicPage.locator('.preview-bar').count()).toBe(0)

    await page.goto(`${site.baseUrl}/api/preview-mode/disable?redirect=${encodeURIComponent(EVENT_PATH)}`)
    expect(await page.locator('h1').textContent()).toBe(PUBLISHED_TITLE)
    // The request log names the enable route, never the secret that would open previews for the next hour.
    expect(site.output()).toContain('sanity-preview-secret=[redacted]')
    expect(site.output()).not.toContain(SECRET)
    await editor.close()
    await visitor.close()
  })

  it('opens the preview inside the Studio’s frame, with the visual-editing overlays and no CSP violation', async () => {
    const context = await browser().newContext()
    context.setDefaultTimeout(15_000)
    await context.addInitScript(() => {
      const violations: string[] = []
      Object.assign(window, { cspViolations: violations })
      document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`))
    })
    const page = await context.newPage()
    const requested: string[] = []
    page.on('request', (request) => requested.push(request.url()))
    await page.goto(`${studioOrigin}/?frame=${encodeURIComponent(`${site.baseUrl}${enablePath(SECRET)}`)}`)
    const frame = page.frameLocator('#preview')
    await expect.poll(() => frame.locator('h1').textContent()).toBe(DRAFT_TITLE)
    expect(await frame.locator('.preview-bar').textContent()).toContain('Exit preview')
    await expect.poll(() => requested.some((url) => /\/assets\/VisualEditingComponent-[\w-]+\.js$/.test(url))).toBe(true)
    await page.waitForLoadState('networkidle')
    const framed = page.frames().find((candidate) => candidate.url().startsWith(site.baseUrl))!
    expect(await framed.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([])
    await context.close()
  })
})
