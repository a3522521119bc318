// Platinum, Gold and Silver read as a ladder at a glance: from the top tier down, each card's title is smaller, its
// top edge thinner and its colours different, on the Sponsor tab and the Sponsorship page alike, readable (axe).
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { accessibilityViolations } from '../support/axe.ts'
import { gotoHydrated, openPage, useBrowser } from '../support/browser.ts'

const browser = useBrowser()

let page: Page
afterEach(async () => {
  await page?.context().close()
})

describe('the sponsor tiers', () => {
  it.each(['/sponsorship', '/conference/Resilience?tab=sponsor'])('read as a ladder on %s', async (pathname) => {
    page = await openPage(browser(), 'desktop')
    await gotoHydrated(page, pathname)
    const cards = page.locator('.sponsor-package')
    await cards.first().waitFor()
    const styles = await cards.evaluateAll((items) =>
      items.map((item) => {
        const card = getComputedStyle(item)
        const title = getComputedStyle(item.querySelector('h3')!)
        return {
          title: item.querySelector('h3')!.textContent,
          titleSize: parseFloat(title.fontSize),
          edge: parseFloat(card.borderTopWidth),
          background: card.backgroundColor,
        }
      }),
    )
    expect(styles.map((style) => style.title)).toEqual(['Platinum', 'Gold', 'Silver'])
    const [platinum, gold, silver] = styles
    expect(platinum!.titleSize).toBeGreaterThan(gold!.titleSize)
    expect(gold!.titleSize).toBeGreaterThan(silver!.titleSize)
    expect(platinum!.edge).toBeGreaterThan(gold!.edge)
    expect(gold!.edge).toBeGreaterThan(silver!.edge)
    expect(new Set(styles.map((style) => style.background)).size).toBe(3)
    expect(await accessibilityViolations(page)).toEqual([])
  })
})
