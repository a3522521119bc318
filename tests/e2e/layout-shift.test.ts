// Nothing moves under the visitor's thumb: images carry their dimensions, enhanced widgets render in their final
// size before and after hydration, and the web font replaces its fallback without re-wrapping a line. Measured with
// the browser's own Layout Instability API (what CLS adds up).
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, siteUrl, useBrowser, type ViewportName, viewports, waitForHydration } from '../support/browser.ts'
import { eventPages, trainingPages } from '../support/routes.ts'

const pages = ['/', '/conference', '/workshop', ...eventPages, ...trainingPages, '/sponsorship', '/terms']

// A shift this small is below what a person notices; Lighthouse's "good" CLS is 0.1.
const MAX_LAYOUT_SHIFT = 0.01

const browser = useBrowser()

/** Records every layout shift from the first paint on, before any script of the page runs. */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: Array<{ value: number; sources: string[] }> = []
    Object.assign(window, { layoutShifts: shifts })
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node }> }>) {
        if (entry.hadRecentInput) continue
        shifts.push({
          value: entry.value,
          sources: (entry.sources ?? []).map((source) =>
            source.node instanceof Element ? source.node.outerHTML.slice(0, 120) : String(source.node?.nodeName),
          ),
        })
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
}

/** Scrolls to the bottom a screen at a time, so lazily loaded images come in as they would for a reader. */
async function scrollThrough(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let top = 0; top < document.documentElement.scrollHeight; top += window.innerHeight / 2) {
      window.scrollTo({ top, behavior: 'instant' })
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)))
    }
  })
  await page.waitForLoadState('networkidle')
}

describe.each(Object.keys(viewports) as ViewportName[])('at the %s width', (viewport) => {
  let page: Page
  let fontHeld = Promise.resolve()
  let releaseFont = () => {}
  beforeAll(async () => {
    page = await openPage(browser(), viewport)
    await recordLayoutShifts(page)
    // The web font arrives only once the page has been painted and hydrated in its fallback, as on a slow
    // connection, so every page is measured across the swap. (Routing also keeps the font out of the cache.)
    await page.route(/\.woff2$/, async (route) => {
      await fontHeld
      await route.continue()
    })
  })
  afterAll(async () => {
    await page?.context().close()
  })

  it.each(pages)('%s does not shift its layout while it loads, hydrates and is scrolled through', async (pathname) => {
    fontHeld = new Promise((resolve) => (releaseFont = resolve))
    // The load event would wait for the held font.
    await page.goto(siteUrl(pathname), { waitUntil: 'domcontentloaded' })
    await waitForHydration(page)
    releaseFont()
    await page.evaluate(() => document.fonts.ready)
    await scrollThrough(page)

    const shifts = await page.evaluate(() => (window as unknown as { layoutShifts: Array<{ value: number; sources: string[] }> }).layoutShifts)
    const total = shifts.reduce((sum, shift) => sum + shift.value, 0)
    expect(total, `layout shifts on ${pathname}: ${JSON.stringify(shifts, null, 2)}`).toBeLessThanOrEqual(MAX_LAYOUT_SHIFT)
  })
})
