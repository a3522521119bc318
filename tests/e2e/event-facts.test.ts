// An event's dates and venue are written one way wherever they appear: the home page's card, the listing's card and
// the event page's hero print the same strings, made from the event's start, end and venue. Every listing card
// shows its price from, as the home page's cards do.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { openPage, siteUrl, useBrowser } from '../support/browser.ts'

const browser = useBrowser()

let page: Page
afterEach(async () => {
  await page?.context().close()
})

interface Facts {
  dates: string
  venue: string
}

async function homeCards(): Promise<Map<string, Facts>> {
  await page.goto(siteUrl('/'))
  const items = page.getByRole('region', { name: 'Upcoming events' }).getByRole('listitem')
  const cards = new Map<string, Facts>()
  for (const item of await items.all()) {
    const [dates, venue] = await item.locator('.upcoming__facts span').allInnerTexts()
    cards.set(await item.getByRole('heading').innerText(), { dates: dates!, venue: venue! })
  }
  return cards
}

async function listingCards(pathname: string): Promise<Map<string, Facts & { price: string }>> {
  await page.goto(siteUrl(pathname))
  const cards = new Map<string, Facts & { price: string }>()
  for (const item of await page.locator('.event-card').all()) {
    const [dates, venue] = await item.locator('.event-card__meta span').allInnerTexts()
    const price = (await item.locator('.price-headline').count()) > 0 ? await item.locator('.price-headline__from').innerText() : ''
    cards.set(await item.getByRole('heading').innerText(), { dates: dates!, venue: venue!, price })
  }
  return cards
}

async function heroFacts(pathname: string): Promise<Facts> {
  await page.goto(siteUrl(pathname))
  const fact = (term: string) => page.locator('.event-facts div', { has: page.locator('dt', { hasText: term }) }).locator('dd')
  const dates = await fact('Date').evaluate((element) => element.firstChild?.textContent?.trim() ?? '')
  return { dates, venue: await fact('Venue').innerText() }
}

describe('one way to write an event’s dates and venue', () => {
  it('the home card, the listing card and the event hero print the same dates and venue', async () => {
    page = await openPage(browser(), 'desktop', { javaScriptEnabled: false })
    const home = await homeCards()
    const listings = new Map([...(await listingCards('/conference')), ...(await listingCards('/workshop'))])
    const heroes = new Map([
      ['Economic Resilience Conference 2025', await heroFacts('/conference/Resilience')],
      ['Legal Opinion Writing 2025', await heroFacts('/workshop/legalOpinion')],
      ['Legal Secretary Workshop 2025', await heroFacts('/workshop/legalSecreatary')],
    ])
    expect(heroes.get('Economic Resilience Conference 2025')).toEqual({ dates: '23–24 July 2025', venue: 'Indaba Hotel, Fourways, Sandton, Johannesburg' })
    expect(heroes.get('Legal Opinion Writing 2025')).toEqual({ dates: '3–4 July 2025', venue: 'Indaba Hotel, Fourways, Sandton, Johannesburg' })
    for (const [title, hero] of heroes) {
      expect(home.get(title), `${title} on the home page`).toEqual(hero)
      expect({ dates: listings.get(title)?.dates, venue: listings.get(title)?.venue }, `${title} on its listing`).toEqual(hero)
    }
  })

  it('every listing card shows its price from, as the home cards do', async () => {
    page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    const cards = [...(await listingCards('/conference')).entries(), ...(await listingCards('/workshop')).entries()]
    expect(cards.length).toBe(4)
    for (const [title, card] of cards) expect(card.price, title).toMatch(/^From\s+R\s[\d ]+\.\d\d\s+excl\. VAT per delegate$/)
    expect(new Map(cards).get('Economic Resilience Conference 2025')?.price).toContain('R 5 490.00')
  })
})

describe('the home page’s upcoming events', () => {
  it('lead with the flagship conference, then the workshops soonest first', async () => {
    page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    expect([...(await homeCards()).keys()]).toEqual(['Economic Resilience Conference 2025', 'Legal Secretary Workshop 2025', 'Legal Opinion Writing 2025'])
  })
})
