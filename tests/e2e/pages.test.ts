// Every page renders in a real browser without script errors and passes axe at phone and desktop widths.
import type { Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessibilityViolations } from '../support/axe.ts'
import { gotoHydrated, openPage, siteUrl, useBrowser, type ViewportName, viewports } from '../support/browser.ts'
import { contentPages } from '../support/routes.ts'

const browser = useBrowser()

describe.each(Object.keys(viewports) as ViewportName[])('at the %s width', (viewport) => {
  let page: Page
  const scriptErrors: string[] = []

  beforeAll(async () => {
    page = await openPage(browser(), viewport)
    page.on('pageerror', (error) => scriptErrors.push(`uncaught: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error') scriptErrors.push(`console.error: ${message.text()}`)
    })
  })
  afterAll(async () => {
    await page?.context().close()
  })

  it.each(contentPages)('%s renders, hydrates without errors or fetching its content again, and has no axe violations', async (pathname) => {
    scriptErrors.length = 0
    // The page brings its content (the root's site settings too): hydrating it asks the content route for none of it.
    const contentFetches: string[] = []
    const onRequest = (request: Request) => {
      if (new URL(request.url()).pathname.startsWith('/api/content/')) contentFetches.push(request.url())
    }
    page.on('request', onRequest)
    await gotoHydrated(page, pathname)
    await expect.poll(() => page.locator('h1').first().isVisible()).toBe(true)
    // Queries fetch on mount from effects, which have run by the frame after hydration.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))))
    page.off('request', onRequest)
    expect(contentFetches, `content fetched again by ${pathname}`).toEqual([])
    expect(scriptErrors, `script errors on ${pathname}`).toEqual([])
    expect(await accessibilityViolations(page), `axe violations on ${pathname} at ${viewport}`).toEqual([])
  })

  it('an unknown path shows the 404 page with links onwards and no axe violations', async () => {
    const response = await page.goto(siteUrl('/no-such-page'))
    expect(response?.status()).toBe(404)
    await expect.poll(() => page.locator('h1').first().isVisible()).toBe(true)
    expect(await page.locator('main a[href]').count()).toBeGreaterThan(0)
    expect(await accessibilityViolations(page), `axe violations on the 404 page at ${viewport}`).toEqual([])
  })
})

describe("the shipped content's rich text", () => {
  it.each([
    { pathname: '/terms', strong: 'every registration', em: 'before', link: { name: 'contact form', href: '/#contact' } },
    { pathname: '/mission', strong: 'expertise and experience', em: 'the audience', link: { name: 'conference programme', href: '/conference' } },
  ])('$pathname shows its bold, italic and linked words as such, after hydration too', async ({ pathname, strong, em, link }) => {
    const page = await openPage(browser(), 'phone')
    try {
      await gotoHydrated(page, pathname)
      const main = page.locator('main')
      expect(await main.locator('strong').allInnerTexts()).toContain(strong)
      expect(await main.locator('em').allInnerTexts()).toContain(em)
      expect(await main.getByRole('link', { name: link.name, exact: true }).getAttribute('href')).toBe(link.href)
    } finally {
      await page.context().close()
    }
  })

  it('/terms shows its clauses as list items with their bold, italic and linked words, after hydration too', async () => {
    const page = await openPage(browser(), 'phone')
    try {
      await gotoHydrated(page, '/terms')
      const items = page.locator('main section li')
      expect(await items.count()).toBe(12)
      expect(await items.locator('strong').allInnerTexts()).toEqual(['within 5 days'])
      expect(await items.locator('em').allInnerTexts()).toEqual(['unless agreed in writing'])
      const link = items.getByRole('link', { name: 'notified in writing', exact: true })
      expect(await link.getAttribute('href')).toBe('/#contact')
    } finally {
      await page.context().close()
    }
  })
})
