// What visitors see of an event's seats at phone width, as registrations fill it: the last seats counted down on the
// hero, the cards and the Register tab; the venue sold out with online attendance still offered; then sold out, with
// no form. Kept pages change as soon as a registration crosses what they say.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openPage, useBrowser } from '../support/browser.ts'
import { registrationBody } from '../support/registrations.ts'
import { repoRoot, startSite, type RunningSite } from '../support/site-server.ts'

const browser = useBrowser()
let workDir: string
let site: RunningSite
let page: Page

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'seats-e2e-'))
  await cp(path.join(repoRoot, 'packages/content/dataset'), workDir, { recursive: true })
  const datasetPath = path.join(workDir, 'production.ndjson')
  const documents = (await readFile(datasetPath, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  for (const document of documents) {
    if (document._id === 'event-legal-opinion') Object.assign(document, { venueCapacity: 12, onlineCapacity: 1 })
  }
  await writeFile(datasetPath, documents.map((document) => JSON.stringify(document)).join('\n') + '\n')
  site = await startSite({ env: { CONTENT_DATASET_PATH: datasetPath, FORM_RATE_LIMIT: '0' } })
})

afterAll(async () => {
  await site?.stop()
  await rm(workDir, { recursive: true, force: true })
})

afterEach(async () => {
  await page?.context().close()
})

async function register(attendanceOption: string, delegates: number): Promise<void> {
  const unique = Math.random().toString(36).slice(2, 8)
  const body = registrationBody({
    attendanceOption,
    delegates: Array.from({ length: delegates }, (_, index) => ({
      name: `Delegate ${index + 1}`,
      position: 'Attorney',
      email: `d${index}-${unique}@acme.test`,
    })),
  })
  const response = await fetch(`${site.baseUrl}/api/registrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status, await response.clone().text()).toBe(201)
}

async function open(pathname: string): Promise<Page> {
  page = await openPage(browser(), 'phone')
  await page.goto(`${site.baseUrl}${pathname}`)
  return page
}

async function offers(): Promise<Record<string, string>> {
  const json = await page.locator('script[type="application/ld+json"]').first().textContent()
  const { offers: list } = JSON.parse(json ?? '{}') as { offers: Array<{ name: string; availability: string }> }
  return Object.fromEntries(list.map((offer) => [offer.name.split(':')[0], offer.availability.replace('https://schema.org/', '')]))
}

describe('seats as visitors see them', () => {
  it('counts down the last seats, then sells out the venue with online still offered, then sells out', async () => {
    await open('/workshop/legalOpinion')
    // Plenty of seats in the room says nothing of them; the one online place is counted as the venue's last seats are.
    expect(await page.locator('.event-hero .price-headline__seats').innerText()).toBe('Only 1 online place left')

    await register('venue', 2)
    await open('/workshop/legalOpinion')
    expect(await page.locator('.event-hero .price-headline__seats').innerText()).toBe('Only 10 seats left at the venue; only 1 online place left')
    expect(Object.values(await offers())).toContain('LimitedAvailability')
    await page.goto(`${site.baseUrl}/workshop`)
    const card = page.locator('.event-card', { hasText: 'Legal Opinion' })
    // A listing card words its seats in its price headline, as the home page's cards and the event's hero do.
    expect(await card.locator('.price-headline__seats').innerText()).toBe('Only 10 seats left at the venue; only 1 online place left')
    await page.goto(`${site.baseUrl}/workshop/legalOpinion?tab=register`)
    const panel = page.getByRole('tabpanel')
    expect(await panel.locator('.seat-notice').innerText()).toBe('Only 10 seats left at the venue; only 1 online place left')

    await register('venue', 10)
    await page.goto(`${site.baseUrl}/workshop/legalOpinion?tab=register`)
    // The last online place is counted where the venue's seats are.
    expect(await page.locator('.event-hero .price-headline__seats').innerText()).toBe('Sold out at the venue; only 1 online place left')
    expect(await panel.locator('.seat-notice').innerText()).toBe('Sold out at the venue; only 1 online place left')
    expect(await panel.locator('input[name="attendanceOption"][value="venue"]').isDisabled()).toBe(true)
    // A room that is full reads "sold out"; "(closed)" is kept for an early-bird whose days have passed.
    const venueChoice = panel.locator('label[for="register-option-venue"]')
    expect(await venueChoice.innerText()).toMatch(/\(sold out\)$/)
    expect(await panel.locator('input[name="attendanceOption"][value="online"]').isDisabled()).toBe(false)
    const soldOutVenue = await offers()
    expect(soldOutVenue.Venue).toBe('SoldOut')
    expect(soldOutVenue.Online).toBe('LimitedAvailability')

    await register('online', 1)
    await page.goto(`${site.baseUrl}/workshop/legalOpinion?tab=register`)
    // The hero's call to act is the waiting list, said once, with no early-bird line any more.
    const hero = page.locator('.event-hero')
    expect(await hero.getByRole('link', { name: 'Sold out: join the waiting list' }).isVisible()).toBe(true)
    expect(await hero.getByRole('link', { name: 'Register now' }).count()).toBe(0)
    expect(await hero.locator('.price-headline__seats, .price-headline__early-bird').count()).toBe(0)
    expect(await panel.getByRole('heading', { name: 'Sold out' }).isVisible()).toBe(true)
    expect(await panel.locator('form.registration-form').count()).toBe(0)
    expect(new Set(Object.values(await offers()))).toEqual(new Set(['SoldOut']))
    await page.goto(`${site.baseUrl}/workshop`)
    const soldOutCard = page.locator('.event-card', { hasText: 'Legal Opinion' })
    expect(await soldOutCard.locator('.price-headline__seats').innerText()).toBe('Sold out: join the waiting list')
    expect(await soldOutCard.locator('.price-headline__early-bird').count()).toBe(0)
    // The other cards keep their early-bird line: only the sold-out event lost it.
    expect(await page.locator('.event-card .price-headline__early-bird').count()).toBeGreaterThan(0)
  })
})
