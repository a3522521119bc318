// The header's small-screen menu and Events dropdown, by pointer and keyboard, and section links from other pages.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { gotoHydrated, openPage, useBrowser, type ViewportName } from '../support/browser.ts'

const eventLinks = ['Conferences', 'Workshops', 'In-House Training', 'Online Training']

const browser = useBrowser()

let page: Page
async function open(viewport: ViewportName, pathname: string): Promise<Page> {
  page = await openPage(browser(), viewport)
  await gotoHydrated(page, pathname)
  return page
}
afterEach(async () => {
  await page?.context().close()
})

const mainNavigation = () => page.getByRole('navigation', { name: 'Main' })
const menuButton = () => page.getByRole('button', { name: /Menu/ })
const eventsButton = () => mainNavigation().getByRole('button', { name: /Events/ })
const expanded = (button: ReturnType<typeof menuButton>) => button.getAttribute('aria-expanded')

/** Clicks a point of the page far from the header, as a visitor tapping the content would. */
async function clickOutsideHeader() {
  const viewport = page.viewportSize()!
  await page.mouse.click(viewport.width / 2, viewport.height - 20)
}

describe('small-screen menu at 390 px', () => {
  it('the Menu button opens and closes the navigation', async () => {
    await open('phone', '/terms')
    const aboutLink = mainNavigation().getByRole('link', { name: 'About Us' })
    expect(await expanded(menuButton())).toBe('false')
    expect(await aboutLink.isVisible()).toBe(false)

    await menuButton().click()
    expect(await expanded(menuButton())).toBe('true')
    await aboutLink.waitFor({ state: 'visible' })

    await menuButton().click()
    expect(await expanded(menuButton())).toBe('false')
    await aboutLink.waitFor({ state: 'hidden' })
  })

  it('Escape closes the menu and returns focus to the Menu button', async () => {
    await open('phone', '/terms')
    await menuButton().focus()
    await page.keyboard.press('Enter')
    expect(await expanded(menuButton())).toBe('true')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Escape')
    expect(await expanded(menuButton())).toBe('false')
    expect(await menuButton().evaluate((button) => button === document.activeElement)).toBe(true)
  })

  it('a click outside the header closes the menu', async () => {
    await open('phone', '/terms')
    await menuButton().click()
    expect(await expanded(menuButton())).toBe('true')
    await clickOutsideHeader()
    await expect.poll(() => expanded(menuButton())).toBe('false')
  })

  it('choosing a link in the Events list navigates and closes the menu', async () => {
    await open('phone', '/terms')
    await menuButton().click()
    await eventsButton().click()
    await mainNavigation().getByRole('link', { name: 'Conferences' }).click()
    await page.waitForURL('**/conference')
    await expect.poll(() => expanded(menuButton())).toBe('false')
    expect(await mainNavigation().getByRole('link', { name: 'About Us' }).isVisible()).toBe(false)
  })
})

describe('Events dropdown at 1280 px', () => {
  it('opens with the four event links and closes on Escape, keeping focus on the button', async () => {
    await open('desktop', '/terms')
    expect(await menuButton().isVisible()).toBe(false)
    expect(await expanded(eventsButton())).toBe('false')

    await eventsButton().click()
    expect(await expanded(eventsButton())).toBe('true')
    for (const name of eventLinks) {
      await mainNavigation().getByRole('link', { name }).waitFor({ state: 'visible' })
    }

    await page.keyboard.press('Escape')
    expect(await expanded(eventsButton())).toBe('false')
    await mainNavigation().getByRole('link', { name: 'Conferences' }).waitFor({ state: 'hidden' })
    expect(await eventsButton().evaluate((button) => button === document.activeElement)).toBe(true)
  })

  it('closes on a click outside the header', async () => {
    await open('desktop', '/terms')
    await eventsButton().click()
    expect(await expanded(eventsButton())).toBe('true')
    await clickOutsideHeader()
    await expect.poll(() => expanded(eventsButton())).toBe('false')
  })

  it('closes when keyboard focus leaves it, forwards past its last link or back before its button', async () => {
    await open('desktop', '/terms')
    await eventsButton().focus()
    await page.keyboard.press('Enter')
    expect(await expanded(eventsButton())).toBe('true')
    for (let step = 0; step < eventLinks.length; step++) await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Online Training')
    expect(await expanded(eventsButton())).toBe('true')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Contact Us')
    await expect.poll(() => expanded(eventsButton())).toBe('false')
    await mainNavigation().getByRole('link', { name: 'Conferences' }).waitFor({ state: 'hidden' })

    await eventsButton().focus()
    await page.keyboard.press('Enter')
    expect(await expanded(eventsButton())).toBe('true')
    await page.keyboard.press('Shift+Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Divisions')
    await expect.poll(() => expanded(eventsButton())).toBe('false')
  })

  it('works from the keyboard: Enter opens, Tab reaches the links, Enter follows one and closes the list', async () => {
    await open('desktop', '/terms')
    await eventsButton().focus()
    await page.keyboard.press('Enter')
    expect(await expanded(eventsButton())).toBe('true')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Workshops')
    await page.keyboard.press('Enter')
    await page.waitForURL('**/workshop')
    await expect.poll(() => expanded(eventsButton())).toBe('false')
  })
})

describe.each(['phone', 'desktop'] as const)('About Us from another page at the %s width', (viewport) => {
  it('lands on /#about with the section just below the 85 px header', async () => {
    await open(viewport, '/terms')
    if (viewport === 'phone') await menuButton().click()
    await mainNavigation().getByRole('link', { name: 'About Us' }).click()
    await page.waitForURL((url) => url.pathname === '/' && url.hash === '#about')
    const sectionTop = () => page.locator('#about').evaluate((section) => Math.round(section.getBoundingClientRect().top))
    await expect.poll(sectionTop, { timeout: 5_000 }).toSatisfy((top: number) => top >= 84 && top <= 100)
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
  })
})

describe('home sections from the open menu at 375 px', () => {
  const sections = [
    { name: 'About Us', id: 'about' },
    { name: 'Divisions', id: 'divisions' },
    { name: 'Contact Us', id: 'contact' },
  ]

  // Smooth scrolling on: an animated scroll keeps the target it measured when it started.
  it.each(['/', '/terms'])('from %s each section lands just below the 85 px header', async (startPath) => {
    page = await openPage(browser(), 'phone', { viewport: { width: 375, height: 812 }, reducedMotion: 'no-preference' })
    await gotoHydrated(page, startPath)
    for (const section of sections) {
      await menuButton().click()
      await mainNavigation().getByRole('link', { name: section.name }).click()
      await page.waitForURL((url) => url.pathname === '/' && url.hash === `#${section.id}`)
      const sectionTop = () => page.locator(`#${section.id}`).evaluate((element) => Math.round(element.getBoundingClientRect().top))
      await expect.poll(sectionTop, { timeout: 5_000 }).toSatisfy((top: number) => top >= 84 && top <= 86)
      expect(await expanded(menuButton())).toBe('false')
    }
  })
})

describe('route changes', () => {
  it('a link followed from far down a page opens the next page at its top', async () => {
    await open('desktop', '/')
    await page.getByRole('heading', { name: /success in numbers/i }).scrollIntoViewIfNeeded()
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
    await page.getByRole('contentinfo').getByRole('link', { name: 'Ts & Cs' }).click()
    await page.waitForURL('**/terms')
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
  })
})
