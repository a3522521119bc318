import type { SanityDocument } from '@events/content'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useStudioHarness } from './support/harness.ts'

const harness = useStudioHarness((documents) => {
  const seeded = documents.map((document) =>
    // An early-bird price above the venue price (R 7 990): the PFAS event breaks a rule.
    document._id === 'price-pfas-early-bird' ? { ...document, amount: 8000 } : document,
  )
  const legalOpinion = seeded.find((document) => document._id === 'event-legal-opinion')!
  return [
    ...seeded,
    // A rename waiting for Publish.
    { ...legalOpinion, _id: 'drafts.event-legal-opinion', slug: { _type: 'slug', current: 'legal-opinion-writing' } },
    // A new conference without price options yet.
    { _id: 'drafts.event-water-summit', _type: 'event', kind: 'conference', title: 'Water Summit 2026', slug: { _type: 'slug', current: 'water-summit' } },
  ]
})

function storedDocuments(): SanityDocument[] {
  return [...harness.lake().documents.values()]
}

async function waitForLake<T>(what: string, find: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const found = find()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`The studio never wrote ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function openEvent(eventId: string): Promise<Page> {
  const page = await harness.open(`structure/events;${eventId};event`)
  await page.getByTestId('action-publish').waitFor()
  return page
}

async function runDocumentAction(page: Page, label: string): Promise<void> {
  await page.getByTestId('action-menu-button').click()
  await page.getByRole('menuitem', { name: label }).click()
}

describe('the studio, offline, on the shipped dataset', () => {
  it('shows the desk and opens an event from the list', async () => {
    const page = await harness.open('structure/events')
    await page.getByText('PFAS Conference 2025').click()
    await page.getByTestId('pane-item-Event').click()
    await expect.poll(() => page.locator('input#title').inputValue(), { timeout: 30_000 }).toBe('PFAS Conference 2025')
    for (const part of ['Agenda sessions', 'Price options', 'Speakers', 'Sponsor packages']) {
      expect(await page.getByTestId(`pane-item-${part}`).count()).toBe(1)
    }
    await page.context().close()
  })

  it('previews events with their kind and dates, and prices with VAT', async () => {
    const page = await harness.open('structure/events')
    await page.getByText('Conference · 21 - 22 May 2025').waitFor()
    await page.goto(page.url().replace(/structure\/events$/, 'structure/events;event-resilience;prices;price-resilience-venue'))
    await page.getByText('R 8 490.00 excl. VAT · R 9 763.50 incl. VAT').waitFor()
    await page.context().close()
  })

  it('marks an early-bird price above the venue price as an error on the event', async () => {
    const page = await openEvent('event-pfas')
    await page.getByTestId('group-tab-registration').click()
    // The event's price options, each previewed with its amount excl. and incl. VAT.
    await page.getByText('R 8 000.00 excl. VAT · R 9 200.00 incl. VAT').waitFor()
    await page.getByRole('button', { name: 'Validation' }).click()
    await page.getByText('The early-bird price (R 8 000.00) must be below the venue price (R 7 990.00)').first().waitFor()
    await page.context().close()
  })

  it('checks an amount as it is typed, and saves the edit as a draft', async () => {
    const page = await harness.open('structure/events;event-resilience;prices;price-resilience-online')
    const amount = page.locator('input#amount')
    await expect.poll(() => amount.inputValue(), { timeout: 30_000 }).toBe('5490')
    await amount.fill('0')
    await page.getByRole('button', { name: 'Validation' }).click()
    await page.getByText('The amount must be above zero').first().waitFor()
    await amount.fill('5990')
    await page.getByText('R 5 990.00 excl. VAT · R 6 888.50 incl. VAT').waitFor()
    await waitForLake('the edited draft', () => (harness.lake().documents.get('drafts.price-resilience-online')?.amount === 5990 ? true : undefined))
    expect(harness.lake().documents.get('price-resilience-online')?.amount).toBe(5490)
    await page.context().close()
  })

  it('duplicates an event for next year: a new draft with its own price options, its entry opened in the desk', async () => {
    const priceOptionsBefore = storedDocuments().filter((document) => document._type === 'priceOption').length
    const page = await openEvent('event-resilience')
    await runDocumentAction(page, 'Duplicate for next year')

    // The studio opens the new event's entry in the desk: the event and its parts.
    await page.waitForURL(/structure\/events;(?!event-resilience)[^;]+$/)
    await page.getByTestId('pane-item-Event').click()
    await expect.poll(() => page.locator('input#title').inputValue(), { timeout: 30_000 }).toBe('Economic Resilience Conference 2026')
    const copy = await waitForLake('next year’s event', () =>
      storedDocuments().find((document) => document._id.startsWith('drafts.') && document.title === 'Economic Resilience Conference 2026'),
    )
    expect(copy.start).toBe('2026-07-23T07:30:00+02:00')
    const copiedOptionIds = (copy.priceOptions as { _ref: string }[]).map((reference) => reference._ref)
    expect(copiedOptionIds).toHaveLength(5)
    expect(copiedOptionIds.some((id) => id.startsWith('price-resilience-'))).toBe(false)
    expect(storedDocuments().filter((document) => document._type === 'priceOption')).toHaveLength(priceOptionsBefore + 5)
    await page.context().close()
  })

  it('adds the standard price options to a new conference', async () => {
    const page = await openEvent('event-water-summit')
    await runDocumentAction(page, 'Add standard price options')

    const event = await waitForLake('the price options into the event', () => {
      const draft = harness.lake().documents.get('drafts.event-water-summit')
      return (draft?.priceOptions as unknown[] | undefined)?.length === 5 ? draft : undefined
    })
    const options = (event.priceOptions as { _ref: string }[]).map((reference) => harness.lake().documents.get(reference._ref))
    expect(options.map((option) => [option?.key, option?.amount])).toEqual([
      ['venue', 7990],
      ['early-bird', 6990],
      ['online', 5490],
      ['table-5', 34950],
      ['table-10', 59900],
    ])
    await page.context().close()
  })

  it('publishes a renamed event with a redirect from its old address', async () => {
    const page = await openEvent('event-legal-opinion')
    await page.getByTestId('action-publish').click()

    const redirect = await waitForLake('the redirect', () => storedDocuments().find((document) => document._type === 'redirect' && document.from === '/workshop/legalOpinion'))
    expect(redirect.to).toBe('/workshop/legal-opinion-writing')
    await waitForLake('the published rename', () =>
      (harness.lake().documents.get('event-legal-opinion')?.slug as { current?: string } | undefined)?.current === 'legal-opinion-writing' ? true : undefined,
    )
    expect(harness.lake().documents.has('drafts.event-legal-opinion')).toBe(false)
    await page.context().close()
  })

  it('needed nothing the stand-in does not answer, but presence’s WebSocket', () => {
    expect(harness.lake().unanswered.filter((request) => !request.includes('/socket/'))).toEqual([])
  })
})
