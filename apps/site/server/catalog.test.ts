import type { SanityClient } from '@sanity/client'
import type { SiteSettingsQueryResult } from '@events/content'
import { describe, expect, it, vi } from 'vitest'
import { createContentCatalog, settingsForMail } from './catalog'

const event = {
  _id: 'event-legal-opinion',
  kind: 'workshop',
  title: 'Legal Opinion Writing 2025',
  slug: 'legalOpinion',
  code: 'LOW2025',
  start: '2025-07-03T08:00:00+02:00',
  end: '2025-07-04T16:00:00+02:00',
  registrationClosesAt: null,
  registrationSubject: 'Legal Opinion Delegate Registration',
  venue: { name: 'Indaba Hotel', address: 'Sandton' },
  contactEmail: 'events@example.com',
  contactPhone: '+27 11 000 0000',
  priceOptions: [{ key: 'venue', label: 'Venue', amount: 8990, earlyBirdUntil: null, cap: null }],
  agendaDays: [
    {
      date: '2025-07-03',
      sessions: [
        { start: '08:00', end: '08:30', isBreak: true },
        { start: '08:30', end: '10:30', isBreak: null },
      ],
    },
    { date: null, sessions: null },
  ],
}

function contentReturning(answer: (params: Record<string, unknown> | undefined) => unknown) {
  const fetch = vi.fn(async (_query: string, params?: Record<string, unknown>) => answer(params))
  return { client: { fetch } as unknown as SanityClient, fetch }
}

describe('createContentCatalog', () => {
  it('maps an event onto the registration facts with its absolute URL, and reuses a fresh read', async () => {
    const { client, fetch } = contentReturning((params) => (params === undefined ? [] : params.slug === 'legalOpinion' ? event : null))
    const catalog = createContentCatalog(client, 'https://events.example')
    const found = await catalog.getEvent('legalOpinion')
    expect(found).toMatchObject({
      id: 'event-legal-opinion',
      slug: 'legalOpinion',
      kind: 'workshop',
      url: 'https://events.example/workshop/legalOpinion',
      priceOptions: [{ key: 'venue', amount: 8990 }],
      // The certificates' CPD hours count the sessions; a day without a date is left out.
      agendaDays: [
        {
          date: '2025-07-03',
          sessions: [
            { start: '08:00', end: '08:30', isBreak: true },
            { start: '08:30', end: '10:30', isBreak: false },
          ],
        },
      ],
    })
    await catalog.getEvent('legalOpinion')
    expect(fetch).toHaveBeenCalledTimes(1)
    // A slug no event has is looked for among the redirects too.
    expect(await catalog.getEvent('nothing')).toBeUndefined()
    expect(fetch).toHaveBeenCalledTimes(3)
  })

  it('finds a renamed event by its old slug through the redirect documents, with its document id', async () => {
    const { client } = contentReturning((params) => {
      if (params === undefined)
        return [
          { from: '/workshop/LegalOpinion2024', to: '/workshop/legalOpinion' },
          { from: null, to: '/nowhere' },
        ]
      return params.slug === 'legalOpinion' ? event : null
    })
    const catalog = createContentCatalog(client, 'https://events.example')
    expect(await catalog.getEvent('LegalOpinion2024')).toMatchObject({ id: 'event-legal-opinion', slug: 'legalOpinion' })
    expect(await catalog.getEvent('neverAnEvent')).toBeUndefined()
  })

  it('asks again after a failed read', async () => {
    let calls = 0
    const { client } = contentReturning(() => {
      calls += 1
      if (calls === 1) throw new Error('content source down')
      return event
    })
    const catalog = createContentCatalog(client, 'https://events.example')
    await expect(catalog.getEvent('legalOpinion')).rejects.toThrow('content source down')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(await catalog.getEvent('legalOpinion')).toBeDefined()
  })
})

describe('settingsForMail', () => {
  it('reads missing settings as empty, with the default VAT rate and payment terms', () => {
    expect(settingsForMail(null)).toMatchObject({ siteName: '', vatRate: 0.15, paymentTermsDays: 5, addresses: [], informationOfficer: null })
  })

  it('sends sponsors’ codes on approval unless the settings say once paid', () => {
    expect(settingsForMail(null).sponsorCodesOncePaid).toBe(false)
    expect(settingsForMail({ sponsorCodesOncePaid: true } as NonNullable<SiteSettingsQueryResult>).sponsorCodesOncePaid).toBe(true)
  })
})
