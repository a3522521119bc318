// Grids leave no orphan gap at any width, a lone listing card is laid out as a feature, an opened speaker bio
// lengthens only its own card, and partner logos are tall enough to read.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { gotoHydrated, openPage, useBrowser } from '../support/browser.ts'

const browser = useBrowser()

let page: Page
afterEach(async () => {
  await page?.context().close()
})

async function open(width: number, pathname: string): Promise<Page> {
  page = await openPage(browser(), 'desktop', { viewport: { width, height: 900 } })
  await gotoHydrated(page, pathname)
  return page
}

/** For each row of the grid's items: how far its last item's right edge stops short of the grid's right edge. */
function rowGaps(selector: string): Promise<number[]> {
  return page.locator(selector).evaluate((grid) => {
    const right = grid.getBoundingClientRect().right - parseFloat(getComputedStyle(grid).paddingRight)
    const rows = new Map<number, number>()
    for (const item of Array.from(grid.children)) {
      const box = item.getBoundingClientRect()
      const top = Math.round(box.top)
      rows.set(top, Math.max(rows.get(top) ?? 0, box.right))
    }
    return [...rows.values()].map((rowRight) => Math.round(right - rowRight))
  })
}

describe('card grids', () => {
  it.each([390, 700, 1024, 1280])('fill every row of the About cards and the divisions at %i px', async (width) => {
    await open(width, '/')
    const aboutGaps = await rowGaps('#about .card-grid')
    const divisionGaps = await rowGaps('#divisions .card-grid')
    expect(
      aboutGaps.every((gap) => gap === 0),
      `About rows: ${aboutGaps}`,
    ).toBe(true)
    expect(
      divisionGaps.every((gap) => gap === 0),
      `division rows: ${divisionGaps}`,
    ).toBe(true)
  })

  it.each([390, 700, 1280])('fill every row of the workshop listing at %i px', async (width) => {
    await open(width, '/workshop')
    const gaps = await rowGaps('.event-cards')
    expect(
      gaps.every((gap) => gap === 0),
      `workshop rows: ${gaps}`,
    ).toBe(true)
  })

  it('lay the lone conference card out across the row, its picture beside its text', async () => {
    await open(1280, '/conference')
    expect(await rowGaps('.event-cards')).toEqual([0])
    const card = page.locator('.event-card')
    const [image, body] = await Promise.all([card.locator('img').boundingBox(), card.locator('.event-card__body').boundingBox()])
    expect(body!.x).toBeGreaterThanOrEqual(image!.x + image!.width - 1)
    expect(Math.abs(body!.y - image!.y)).toBeLessThan(2)
  })
})

describe('speaker cards', () => {
  it('an opened bio lengthens its own card and leaves the others in the row as they were', async () => {
    await open(1280, '/conference/Resilience?tab=speakers')
    const cards = page.locator('.speakers__slide--visible .speaker-card')
    await expect.poll(() => cards.count()).toBe(3)
    const heightsBefore = await cards.evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().height))
    const opened = await cards.evaluateAll((elements) => elements.findIndex((element) => element.querySelector('.speaker-card__toggle')))
    expect(opened, 'a card in the first window has a bio to open').toBeGreaterThanOrEqual(0)
    await cards
      .nth(opened)
      .getByRole('button', { name: /See More/ })
      .click()
    await expect.poll(() => page.getByRole('button', { name: /See Less/ }).count()).toBe(1)
    const heightsAfter = await cards.evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().height))
    expect(heightsAfter[opened]).toBeGreaterThan(heightsBefore[opened]!)
    expect(heightsAfter.filter((_, index) => index !== opened)).toEqual(heightsBefore.filter((_, index) => index !== opened))
  })
})

describe('partner logos', () => {
  it('show each company name whole, inside its artwork', async () => {
    await open(390, '/conference/Resilience')
    const sources = await page
      .locator('.logo-strip__list:not(.logo-strip__list--copy) .logo-strip__item img')
      .evaluateAll((images) => [...new Set(images.map((image) => new URL(image.getAttribute('src')!, document.baseURI).href))])
    expect(sources.length).toBeGreaterThan(0)
    for (const source of sources) {
      await page.goto(source)
      // Every line of lettering lies within the drawing, with a margin on the right.
      const overhang = await page.evaluate(() => {
        const drawing = document.querySelector('svg')!
        const width = drawing.viewBox.baseVal.width
        return Math.max(...Array.from(document.querySelectorAll('text')).map((text) => text.getBBox().x + text.getBBox().width - (width - 12)))
      })
      expect(overhang, source).toBeLessThanOrEqual(0)
    }
  })

  it('are drawn at least 64 px tall on a white tile', async () => {
    await open(390, '/conference/Resilience')
    const logo = page.locator('.logo-strip__item img').first()
    const box = await logo.boundingBox()
    expect(box!.height).toBeGreaterThanOrEqual(64)
    expect(
      await page
        .locator('.logo-strip__item')
        .first()
        .evaluate((element) => getComputedStyle(element).backgroundColor),
    ).toBe('rgb(255, 255, 255)')
  })
})

describe('the footer on a phone', () => {
  it('keeps its links and details in a compact layout at 375 px: well under 1,200 px tall', async () => {
    page = await openPage(browser(), 'phone', { viewport: { width: 375, height: 812 } })
    await gotoHydrated(page, '/terms')
    const height = await page.locator('footer.site-footer').evaluate((footer) => footer.getBoundingClientRect().height)
    expect(height).toBeLessThanOrEqual(900)
    // Nothing is cut or runs out sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    for (const name of ['Home', 'Privacy', 'LinkedIn']) expect(await page.locator('footer').getByRole('link', { name, exact: true }).isVisible()).toBe(true)
  })
})
