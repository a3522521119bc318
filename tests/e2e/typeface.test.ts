// The site's own typeface: Inter, served from the site itself, preloaded, and drawn before the page settles.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gotoHydrated, openPage, siteUrl, useBrowser } from '../support/browser.ts'

const browser = useBrowser()

describe('the typeface', () => {
  let page: Page
  const fontRequests: string[] = []
  beforeAll(async () => {
    page = await openPage(browser(), 'phone')
    page.on('request', (request) => {
      if (request.resourceType() === 'font') fontRequests.push(request.url())
    })
  })
  afterAll(async () => {
    await page?.context().close()
  })

  it('is preloaded from the site’s own assets as one latin woff2 file', async () => {
    await gotoHydrated(page, '/')
    const preload = page.locator('head link[rel="preload"][as="font"]')
    expect(await preload.count()).toBe(1)
    expect(await preload.getAttribute('type')).toBe('font/woff2')
    expect(await preload.getAttribute('crossorigin')).not.toBeNull()
    const href = new URL((await preload.getAttribute('href'))!, siteUrl())
    expect(href.origin).toBe(new URL(siteUrl()).origin)
    expect(href.pathname).toMatch(/^\/assets\/inter-latin-wght-400-800-.+\.woff2$/)
    const response = await page.request.get(href.href)
    expect(response.status()).toBe(200)
    expect(response.headers()['cache-control']).toContain('immutable')
    expect(fontRequests.every((url) => new URL(url).origin === href.origin)).toBe(true)
  })

  it('draws body text and headings in Inter, with a metric-matched fallback until it arrives', async () => {
    await gotoHydrated(page, '/conference/Resilience')
    await page.evaluate(() => document.fonts.ready)
    const faces = await page.evaluate(() => ({
      body: getComputedStyle(document.body).fontFamily,
      heading: getComputedStyle(document.querySelector('h1')!).fontFamily,
      interLoaded:
        document.fonts.check('700 16px "Inter Variable"') &&
        [...document.fonts].some((face) => face.family.includes('Inter Variable') && face.status === 'loaded'),
      swap: [...document.fonts].find((face) => face.family.includes('Inter Variable'))?.display,
    }))
    expect(faces.body).toMatch(/^"Inter Variable", "Inter Fallback"/)
    expect(faces.heading).toMatch(/^"Inter Variable"/)
    expect(faces.interLoaded).toBe(true)
    expect(faces.swap).toBe('swap')
  })
})
