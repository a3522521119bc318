// WCAG 1.4.10 (Reflow): every public page, and every tab of every event, fits a 320 px and a 375 px window without
// scrolling sideways - with registration open and early-bird on offer, and on an event that is sold out.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, useBrowser } from '../support/browser.ts'
import { contentPages, eventPages } from '../support/routes.ts'
import { repoRoot, startSite, type RunningSite } from '../support/site-server.ts'

const browser = useBrowser()
let workDir: string
let site: RunningSite

const soldOutEvent = '/workshop/legalOpinion'

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'reflow-e2e-'))
  await cp(path.join(repoRoot, 'packages/content/dataset'), workDir, { recursive: true })
  const datasetPath = path.join(workDir, 'production.ndjson')
  const documents = (await readFile(datasetPath, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  // One event with no seat of either kind left; the others keep their early-bird prices on offer.
  for (const document of documents) {
    if (document._id === 'event-legal-opinion') Object.assign(document, { venueCapacity: 0, onlineCapacity: 0 })
  }
  await writeFile(datasetPath, documents.map((document) => JSON.stringify(document)).join('\n') + '\n')
  site = await startSite({ env: { CONTENT_DATASET_PATH: datasetPath } })
})

afterAll(async () => {
  await site?.stop()
  await rm(workDir, { recursive: true, force: true })
})

/** How far the page is wider than the window, and the first elements sticking out past its right edge. */
function overflowOf(page: Page): Promise<{ excess: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = window.innerWidth
    // What sticks out inside a box that scrolls or clips on its own (the tab bar, a carousel) widens nothing.
    const clippedByAncestor = (element: Element) => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflowX !== 'visible') return true
      }
      return false
    }
    const culprits = Array.from(document.body.querySelectorAll('*'))
      .filter((element) => element.getBoundingClientRect().right > width + 0.5 && element.getClientRects().length > 0)
      .filter((element) => !clippedByAncestor(element))
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}#${element.id}`)
    return { excess: document.documentElement.scrollWidth - width, culprits }
  })
}

/** The query of each tab an event page links to in its tab bar (`?tab=…`). */
function tabQueries(page: Page): Promise<string[]> {
  return page.locator('.tabs__list a[href*="tab="]').evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).search))
}

describe.each([320, 375])('at %i px', (width) => {
  let page: Page
  beforeAll(async () => {
    page = await openPage(browser(), 'phone', { viewport: { width, height: 800 } })
  })
  afterAll(async () => {
    await page?.context().close()
  })

  async function expectNoSidewaysScroll(pathname: string): Promise<void> {
    const response = await page.goto(`${site.baseUrl}${pathname}`, { waitUntil: 'load' })
    expect(response?.status(), pathname).toBe(200)
    const { excess, culprits } = await overflowOf(page)
    expect(excess, `${pathname} is ${excess} px wider than ${width} px: ${culprits.join(', ')}`).toBeLessThanOrEqual(0)
  }

  it.each(contentPages)('%s scrolls only up and down', async (pathname) => {
    await expectNoSidewaysScroll(pathname)
  })

  it.each(eventPages)('every tab of %s scrolls only up and down', async (pathname) => {
    await page.goto(`${site.baseUrl}${pathname}`)
    const tabs = await tabQueries(page)
    expect(tabs.length).toBeGreaterThan(0)
    for (const tab of tabs) await expectNoSidewaysScroll(`${pathname}${tab}`)
  })

  it('the sold-out event says so on its Register tab, and still fits', async () => {
    await expectNoSidewaysScroll(`${soldOutEvent}?tab=register`)
    expect(await page.getByRole('tabpanel').getByRole('heading', { name: 'Sold out' }).isVisible()).toBe(true)
  })
})
