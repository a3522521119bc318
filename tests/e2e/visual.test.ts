// Visual regression: the key pages at phone and desktop widths, compared pixel by pixel with the committed
// baselines in __screenshots__. After an intended change of design, `pnpm test:visual:update` rewrites them;
// review the new images before committing them.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pixelmatch from 'pixelmatch'
import { PNG } from 'pngjs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, siteUrl, useBrowser, waitForHydration, type ViewportName } from '../support/browser.ts'
import { showServerErrorPage } from '../support/error-pages.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'

const baselineDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '__screenshots__')
const updating = process.env.UPDATE_VISUAL_BASELINES === '1'

// Anti-aliasing and sub-pixel text differ slightly between runs; a real change of design moves far more.
const PIXEL_THRESHOLD = 0.1
const MAX_DIFFERENT_PIXELS_RATIO = 0.001
// Long pages are compared over their top part: that is where the design lives, and the files stay small.
const MAX_HEIGHT = 3200

/**
 * The pages a change of design shows on; the status page's path is made by registering in beforeAll, the 503 page is
 * served by a site whose content source is out of reach, and the 500 page is reached by a failing navigation.
 */
const pages: Array<{ name: string; path: () => string; reach?: (page: Page) => Promise<void> }> = []
let statusPath = ''
let offline: RunningSite | undefined
const fixedPages: Array<[string, string]> = [
  ['home', '/'],
  ['conference-list', '/conference'],
  ['workshop-list', '/workshop'],
  ['resilience', '/conference/Resilience'],
  ['workshop-legal-opinion', '/workshop/legalOpinion'],
  ['resilience-register', '/conference/Resilience?tab=register'],
  ['terms', '/terms'],
  ['inhouse-training', '/inhouse-training'],
  ['sponsorship', '/sponsorship'],
  ['not-found', '/no-such-page'],
]
for (const [name, pathname] of fixedPages) pages.push({ name, path: () => pathname })
pages.push({ name: 'registration-status', path: () => statusPath })
pages.push({ name: 'unavailable', path: () => `${offline!.baseUrl}/conference` })
pages.push({ name: 'server-error', path: () => '/', reach: showServerErrorPage })

let reference = ''

beforeAll(async () => {
  offline = await startSite({ env: { SANITY_PROJECT_ID: 'unreachable1', SANITY_DATASET: 'production' }, requireHealthy: false })
  const response = await fetch(siteUrl('/api/registrations'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      event: 'legalOpinion',
      code: 'LOW2025',
      companyName: 'Acme Legal',
      address: '1 Main Road, Sandton',
      email: 'visual-bookings@acme.test',
      tel: '+27 11 555 0100',
      vatNumber: '4123456789',
      delegates: [{ name: 'Thandi Mokoena', position: 'Attorney', email: 'visual-thandi@acme.test' }],
      attendanceOption: 'venue',
      paymentMethod: 'Bank Transfer',
      legalAgreement: true,
    }),
  })
  expect(response.status).toBe(201)
  const receipt = (await response.json()) as { statusUrl: string; reference: string }
  statusPath = new URL(receipt.statusUrl).pathname
  reference = receipt.reference
})

afterAll(async () => {
  await offline?.stop()
})

const browser = useBrowser()

/** Loads a page and waits until nothing on it will still change: hydrated, fonts and every image in. */
async function settle(page: Page, pathname: string, reach?: (page: Page) => Promise<void>): Promise<void> {
  await page.goto(siteUrl(pathname))
  // Error pages have no content of their own for React to claim.
  if (page.url().includes('no-such-page') || page.url().startsWith(offline!.baseUrl)) await page.locator('h1').waitFor()
  else await waitForHydration(page)
  await reach?.(page)
  await page.evaluate(async () => {
    for (const image of Array.from(document.images)) image.loading = 'eager'
    await Promise.all(Array.from(document.images).map((image) => image.decode().catch(() => undefined)))
    await document.fonts.ready
  })
  await page.waitForLoadState('networkidle')
}

function compare(name: string, actual: Buffer): { differentPixels: number; ratio: number; report: string } {
  const baselinePath = path.join(baselineDir, `${name}.png`)
  if (updating || !existsSync(baselinePath)) {
    if (!updating) throw new Error(`No baseline ${path.relative(process.cwd(), baselinePath)}: run pnpm test:visual:update and review it`)
    mkdirSync(baselineDir, { recursive: true })
    writeFileSync(baselinePath, actual)
    return { differentPixels: 0, ratio: 0, report: 'baseline written' }
  }
  const expected = PNG.sync.read(readFileSync(baselinePath))
  const got = PNG.sync.read(actual)
  if (expected.width !== got.width || expected.height !== got.height) {
    return {
      differentPixels: Number.POSITIVE_INFINITY,
      ratio: 1,
      report: `size ${got.width}×${got.height} differs from the baseline's ${expected.width}×${expected.height}`,
    }
  }
  const diff = new PNG({ width: got.width, height: got.height })
  const differentPixels = pixelmatch(expected.data, got.data, diff.data, got.width, got.height, { threshold: PIXEL_THRESHOLD })
  const ratio = differentPixels / (got.width * got.height)
  let report = `${differentPixels} pixels differ`
  if (ratio > MAX_DIFFERENT_PIXELS_RATIO) {
    const outDir = mkdtempSync(path.join(tmpdir(), 'visual-diff-'))
    writeFileSync(path.join(outDir, `${name}.actual.png`), actual)
    writeFileSync(path.join(outDir, `${name}.diff.png`), PNG.sync.write(diff))
    report += `; the new screenshot and the difference are in ${outDir}`
  }
  return { differentPixels, ratio, report }
}

describe.each(['phone', 'desktop'] as ViewportName[])('at the %s width', (viewport) => {
  let page: Page
  beforeAll(async () => {
    page = await openPage(browser(), viewport)
  })
  afterAll(async () => {
    await page?.context().close()
  })

  it.each(pages.map((entry) => [entry.name, entry] as const))('%s looks as its baseline does', async (_name, entry) => {
    await settle(page, entry.path(), entry.reach)
    const { width } = page.viewportSize()!
    const height = Math.min(MAX_HEIGHT, await page.evaluate(() => document.documentElement.scrollHeight))
    // The registration's reference, invoice number and pass codes depend on the run (the invoice number on the
    // registrations other test files made first); written out as fixed text, their varying widths move nothing around them.
    await page.evaluate((runReference) => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node as Text
        if (runReference) text.data = text.data.replaceAll(runReference, 'REFERENCE')
        text.data = text.data.replace(/INV-\d+/g, 'INV-000000').replace(/\b[0-9A-Z]{4}-[0-9A-Z]{4}\b/g, 'PASS-CODE')
      }
    }, reference)
    const screenshot = await page.screenshot({
      fullPage: true,
      clip: { x: 0, y: 0, width, height },
      animations: 'disabled',
      caret: 'hide',
      // The copyright line names the current year; a pass's QR code is the run's pass code.
      mask: [page.locator('.site-footer__copyright'), page.locator('.pass-qr')],
    })
    const { ratio, report } = compare(`${entry.name}-${viewport}`, screenshot)
    expect(ratio, `${entry.name} at ${viewport}: ${report}`).toBeLessThanOrEqual(MAX_DIFFERENT_PIXELS_RATIO)
  })
})
