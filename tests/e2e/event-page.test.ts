// The event page widgets: URL-backed tabs, the agenda's day tabs, the speakers carousel and the logo strip.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { gotoHydrated, openPage, useBrowser, type ViewportName } from '../support/browser.ts'

const resilience = '/conference/Resilience'
const firstSpeaker = 'Dr Naledi Mokoena'
const lastThreeSpeakers = ['Mandla Radebe', 'Rethabile Mokoena', 'Karabo Maseko']

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

const eventTabs = () => page.getByRole('tablist').first().getByRole('tab')
const tab = (name: string) => page.getByRole('tab', { name, exact: true })
const selected = (name: string) => tab(name).getAttribute('aria-selected')
const tabParameter = () => new URL(page.url()).searchParams.get('tab')

describe('event page tabs', () => {
  it('offers Overview, Agenda, Register, Speakers and Sponsor, with Overview selected', async () => {
    await open('desktop', resilience)
    expect(await eventTabs().allInnerTexts()).toEqual(['Overview', 'Agenda', 'Register', 'Speakers', 'Sponsor'])
    expect(await selected('Overview')).toBe('true')
    expect(await selected('Agenda')).toBe('false')
  })

  it('ArrowRight moves to the next tab and the URL follows', async () => {
    await open('desktop', resilience)
    await tab('Overview').focus()
    await page.keyboard.press('ArrowRight')
    expect(await tab('Agenda').evaluate((element) => element === document.activeElement)).toBe(true)
    await expect.poll(() => selected('Agenda')).toBe('true')
    await expect.poll(tabParameter).toBe('agenda')
  })

  it('a click selects a tab, and the back button returns to the previous one', async () => {
    await open('desktop', resilience)
    await tab('Agenda').click()
    await expect.poll(tabParameter).toBe('agenda')
    await tab('Speakers').click()
    await expect.poll(tabParameter).toBe('speakers')
    expect(await selected('Speakers')).toBe('true')
    // The panel's code may still be loading when the tab is chosen.
    await expect.poll(() => page.getByRole('heading', { name: 'Speakers' }).isVisible()).toBe(true)

    await page.goBack()
    await expect.poll(tabParameter).toBe('agenda')
    await expect.poll(() => selected('Agenda')).toBe('true')
    expect(await selected('Speakers')).toBe('false')
  })

  it('the agenda shows Day 1 first and switches to Day 2', async () => {
    await open('desktop', `${resilience}?tab=agenda`)
    expect(await selected('Day 1')).toBe('true')
    const agenda = page.locator('[role="tabpanel"]:visible [role="tabpanel"]:visible')
    const dayOne = await agenda.innerText()
    expect(dayOne).toContain('07:30')

    await tab('Day 2').click()
    await expect.poll(() => selected('Day 2')).toBe('true')
    expect(await selected('Day 1')).toBe('false')
    const dayTwo = await agenda.innerText()
    expect(dayTwo).toMatch(/public debt/i)
    expect(dayTwo).not.toEqual(dayOne)
  })
})

describe('speakers carousel on the Resilience page', () => {
  const visibleSpeakers = () => page.locator('[aria-roledescription="slide"]:visible h3').allInnerTexts()
  const next = () => page.getByRole('button', { name: 'Next speakers' })
  const previous = () => page.getByRole('button', { name: 'Previous speakers' })

  it('at 1280 px shows three speakers, Next six times wraps to the start, Previous from the start shows the last three', async () => {
    await open('desktop', `${resilience}?tab=speakers`)
    expect(await page.locator('[aria-roledescription="slide"]').count()).toBe(16)
    const start = await visibleSpeakers()
    expect(start).toHaveLength(3)
    expect(start[0]).toBe(firstSpeaker)

    const seen = new Set(start)
    for (let step = 0; step < 6; step++) {
      await next().click()
      const shown = await visibleSpeakers()
      expect(shown.length).toBeGreaterThanOrEqual(1)
      expect(shown.length).toBeLessThanOrEqual(3)
      shown.forEach((name) => seen.add(name))
    }
    expect(seen.size).toBe(16)
    expect(await visibleSpeakers()).toEqual(start)

    await previous().click()
    expect(await visibleSpeakers()).toEqual(lastThreeSpeakers)
  })

  it('at 390 px shows one speaker and wraps both ways', async () => {
    await open('phone', `${resilience}?tab=speakers`)
    expect(await visibleSpeakers()).toEqual([firstSpeaker])
    await previous().click()
    expect(await visibleSpeakers()).toEqual([lastThreeSpeakers[2]])
    await next().click()
    expect(await visibleSpeakers()).toEqual([firstSpeaker])
    await next().click()
    expect(await visibleSpeakers()).toHaveLength(1)
    expect(await visibleSpeakers()).not.toEqual([firstSpeaker])
  })

  it('See More shows the whole bio and See Less shortens it again', async () => {
    await open('desktop', `${resilience}?tab=speakers`)
    const card = page.locator('[aria-roledescription="slide"]:visible').first()
    const toggle = card.getByRole('button', { name: /See More/ })
    const shortBio = await card.locator('.speaker-card__bio').innerText()
    expect(shortBio.trim()).toMatch(/(…|\.\.\.)$/)

    await toggle.click()
    const seeLess = card.getByRole('button', { name: /See Less/ })
    expect(await seeLess.getAttribute('aria-expanded')).toBe('true')
    const fullBio = await card.locator('.speaker-card__bio').innerText()
    expect(fullBio.length).toBeGreaterThan(shortBio.length)

    await seeLess.click()
    expect(await card.getByRole('button', { name: /See More/ }).getAttribute('aria-expanded')).toBe('false')
    expect(await card.locator('.speaker-card__bio').innerText()).toBe(shortBio)
  })
})

describe('participating-company logo strip', () => {
  const strip = () => page.locator('.logo-strip')
  const track = () => page.locator('.logo-strip__track')
  const playState = () => track().evaluate((element) => element.getAnimations().map((animation) => animation.playState))

  async function openWithMotion(): Promise<void> {
    page = await openPage(browser(), 'desktop', { reducedMotion: 'no-preference' })
    await gotoHydrated(page, `${resilience}?tab=sponsor`)
    await strip().scrollIntoViewIfNeeded()
  }

  it('loops, and pauses while hovered, while it holds focus and after Pause', async () => {
    await openWithMotion()
    await page.mouse.move(0, 0)
    expect(await playState()).toEqual(['running'])

    // The moving track is never "stable" for Playwright; its fixed viewport is what the pointer rests on.
    await page.locator('.logo-strip__viewport').hover()
    await expect.poll(playState).toEqual(['paused'])
    await page.mouse.move(0, 0)
    await expect.poll(playState).toEqual(['running'])

    await page.getByRole('button', { name: 'Pause logo animation' }).focus()
    await expect.poll(playState).toEqual(['paused'])
    await page.getByRole('button', { name: 'Pause logo animation' }).press('Enter')
    expect(await page.getByRole('button', { name: 'Pause logo animation' }).getAttribute('aria-pressed')).toBe('true')
    await page.getByRole('button', { name: 'Pause logo animation' }).blur()
    await expect.poll(playState).toEqual(['paused'])
  })

  it('hides its looping copies from assistive technology', async () => {
    await openWithMotion()
    expect(await page.getByRole('list', { name: 'Participating companies' }).count()).toBe(1)
    expect(await page.locator('.logo-strip__list--copy').evaluateAll((lists) => lists.map((list) => list.getAttribute('aria-hidden')))).toEqual([
      'true',
      'true',
    ])
  })

  it('stands still in a wrapped row under prefers-reduced-motion', async () => {
    await open('phone', `${resilience}?tab=sponsor`)
    expect(await playState()).toEqual([])
    expect(await page.locator('.logo-strip__list--copy').first().isVisible()).toBe(false)
    expect(await page.getByRole('button', { name: 'Pause logo animation' }).isVisible()).toBe(false)
  })
})
