// The 500 and 503 pages: the 404 page's readable card with ways onwards, no axe violations (contrast included),
// at phone and desktop widths. The 503 page comes from a site whose content source is out of reach; the 500 page
// from a navigation whose data request fails with a fault of ours.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessibilityViolations } from '../support/axe.ts'
import { gotoHydrated, openPage, useBrowser, type ViewportName, viewports } from '../support/browser.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'
import { showServerErrorPage } from '../support/error-pages.ts'

const browser = useBrowser()
let offline: RunningSite

beforeAll(async () => {
  // A hosted Sanity project on a machine that cannot reach it: every content request fails.
  offline = await startSite({ env: { SANITY_PROJECT_ID: 'unreachable1', SANITY_DATASET: 'production' }, requireHealthy: false })
})

afterAll(async () => {
  await offline?.stop()
})

/** The explanation's colour on the card's background must be readable: WCAG AA's 4.5:1 for body text. */
async function explanationContrast(page: Page): Promise<number> {
  return page.evaluate(() => {
    const luminance = (colour: string) => {
      const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
        const channel = Number(part) / 255
        return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
      })
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
    }
    const paragraph = document.querySelector('main h1 ~ p')!
    let backdrop: Element | null = paragraph
    while (
      backdrop &&
      getComputedStyle(backdrop)
        .backgroundColor.replace(/\s/g, '')
        .match(/rgba\(.*,0\)|transparent/)
    )
      backdrop = backdrop.parentElement
    const [lighter, darker] = [luminance(getComputedStyle(paragraph).color), luminance(getComputedStyle(backdrop ?? document.body).backgroundColor)].sort(
      (a, b) => b - a,
    )
    return (lighter! + 0.05) / (darker! + 0.05)
  })
}

describe.each(Object.keys(viewports) as ViewportName[])('at the %s width', (viewport) => {
  let page: Page
  beforeAll(async () => {
    page = await openPage(browser(), viewport)
  })
  afterAll(async () => {
    await page?.context().close()
  })

  it('a page whose content source is unreachable answers 503 in the readable card with ways onwards', async () => {
    const response = await page.goto(`${offline.baseUrl}/conference`)
    expect(response?.status()).toBe(503)
    expect(await page.locator('h1').textContent()).toBe('Temporarily unavailable')
    expect(await page.locator('.status-page__card a[href="/"]').count()).toBe(1)
    expect(await page.locator('.status-page__card a[href="/#contact"]').count()).toBe(1)
    expect(await explanationContrast(page)).toBeGreaterThanOrEqual(4.5)
    expect(await accessibilityViolations(page), `axe violations on the 503 page at ${viewport}`).toEqual([])
  })

  it('a fault of ours shows "Something went wrong" in the same readable card with ways onwards', async () => {
    await gotoHydrated(page, '/')
    await showServerErrorPage(page)
    expect(await page.locator('.status-page__card a[href="/#contact"]').count()).toBe(1)
    expect(await page.locator('.status-page__card a[href="/conference"]').count()).toBe(1)
    expect(await explanationContrast(page)).toBeGreaterThanOrEqual(4.5)
    expect(await accessibilityViolations(page), `axe violations on the 500 page at ${viewport}`).toEqual([])
  })
})
