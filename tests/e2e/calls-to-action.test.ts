// What a visitor sees first: the next events on the home page, and on an event page its price from, the running
// early-bird and a Register button that opens the Register tab, with and without JavaScript. Prices are those of
// the shipped 2025 programme at the tests' business clock (1 March 2025), computed by @events/pricing.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { gotoHydrated, openPage, siteUrl, useBrowser, type ViewportName } from '../support/browser.ts'

const browser = useBrowser()

let page: Page
afterEach(async () => {
  await page?.context().close()
})

async function open(viewport: ViewportName, pathname: string, javaScript = true): Promise<Page> {
  page = await openPage(browser(), viewport, { javaScriptEnabled: javaScript })
  if (javaScript) await gotoHydrated(page, pathname)
  else await page.goto(siteUrl(pathname))
  return page
}

const registerTabSelected = () => page.getByRole('tab', { name: 'Register', exact: true }).getAttribute('aria-selected')

/** Whether the top of the element is on screen, below the sticky header. */
const inView = (selector: string) =>
  page.locator(selector).evaluate((element) => {
    const top = element.getBoundingClientRect().top
    return top >= 0 && top < window.innerHeight / 2
  })

describe('the home page', () => {
  it('lists three open events below the hero, the conference first, then soonest first, each with its price from and Register', async () => {
    await open('phone', '/')
    const upcoming = page.getByRole('region', { name: 'Upcoming events' })
    const items = upcoming.getByRole('listitem')
    expect(await items.count()).toBe(3)
    expect(await items.getByRole('heading').allInnerTexts()).toEqual([
      'Economic Resilience Conference 2025',
      'Legal Secretary Workshop 2025',
      'Legal Opinion Writing 2025',
    ])
    const second = await items.nth(1).innerText()
    expect(second).toContain('25–26 June 2025')
    expect(second).toContain('Indaba Hotel, Fourways, Sandton, Johannesburg')
    expect(second).toMatch(/From\s+R 7 490\.00\s+excl\. VAT per delegate/)
    expect(second).toContain('Early-bird price until 25 April 2025')
    expect(await items.first().innerText()).toMatch(/From\s+R 5 490\.00/)
    const hero = page.locator('#hero')
    expect(await hero.getByRole('link', { name: 'See upcoming events' }).isVisible()).toBe(true)
  })

  it('a Register button takes the visitor to that event with its Register tab open', async () => {
    await open('phone', '/')
    await page.getByRole('link', { name: 'Register for Legal Opinion Writing 2025' }).click()
    await page.waitForURL(/\/workshop\/legalOpinion\?tab=register#event-sections$/)
    await expect.poll(registerTabSelected).toBe('true')
    await expect.poll(() => page.getByRole('heading', { name: 'Registration', exact: true }).isVisible()).toBe(true)
  })
})

describe('an event page hero', () => {
  it.each(['phone', 'desktop'] as const)('shows the price from, the early-bird deadline and Register in the first screen at the %s width', async (viewport) => {
    await open(viewport, '/conference/Resilience')
    const hero = page.locator('.event-hero')
    expect(await hero.innerText()).toMatch(/From\s+R 5 490\.00\s+excl\. VAT per delegate/)
    expect(await hero.innerText()).toContain('Early-bird price until 13 June 2025')
    const register = hero.getByRole('link', { name: 'Register now' })
    const box = await register.boundingBox()
    expect(box!.y + box!.height).toBeLessThanOrEqual(page.viewportSize()!.height)
  })

  it('Register now opens the Register tab and brings it into view', async () => {
    await open('desktop', '/conference/Resilience')
    expect(await registerTabSelected()).toBe('false')
    await page.getByRole('link', { name: 'Register now' }).click()
    await expect.poll(registerTabSelected).toBe('true')
    await expect.poll(() => inView('#event-sections')).toBe(true)
  })

  it('Register now opens the Register tab without JavaScript too', async () => {
    await open('phone', '/workshop/officeP', false)
    await page.getByRole('link', { name: 'Register now' }).click()
    await page.waitForURL(/\?tab=register#event-sections$/)
    expect(await registerTabSelected()).toBe('true')
    expect(await page.getByRole('button', { name: 'Submit Form' }).isVisible()).toBe(true)
    expect(await inView('#event-sections')).toBe(true)
  })

  it('on a phone keeps the five tabs in one row that scrolls sideways', async () => {
    await open('phone', '/conference/Resilience')
    const tabs = page.getByRole('tablist').first()
    const tops = await tabs.getByRole('tab').evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().top))
    expect(new Set(tops).size).toBe(1)
    const row = await tabs.evaluate((element) => ({
      scrollWidth: element.scrollWidth,
      clientWidth: element.clientWidth,
      overflowX: getComputedStyle(element).overflowX,
    }))
    expect(row.overflowX).toBe('auto')
    expect(row.scrollWidth).toBeGreaterThan(row.clientWidth)
  })
})
