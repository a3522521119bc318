import { describe, expect, it } from 'vitest'
import { eventLocations, pageLocations, siteSettingsLocations } from './previewLocations.ts'

describe('eventLocations', () => {
  it.each([
    [
      'a listed conference: its page and the conference listing',
      { title: 'PFAS Conference 2025', kind: 'conference', slug: 'pfas', listed: true },
      {
        locations: [
          { title: 'PFAS Conference 2025', href: '/conference/pfas' },
          { title: 'Conferences', href: '/conference' },
        ],
      },
    ],
    [
      'a workshop kept off its listing: its page only',
      { title: 'Board Management', kind: 'workshop', slug: 'boardManagement', listed: false },
      { locations: [{ title: 'Board Management', href: '/workshop/boardManagement' }] },
    ],
    [
      'an untitled workshop with the listing flag not yet set',
      { title: null, kind: 'workshop', slug: 'legalOpinion', listed: null },
      { locations: [{ title: 'Untitled event', href: '/workshop/legalOpinion' }] },
    ],
    [
      'an event without a slug yet',
      { title: 'New', kind: 'conference', slug: null, listed: true },
      { message: 'Give the event a slug to preview its page.', tone: 'caution' },
    ],
    ['an event of no kind the site knows', { title: 'Gala', kind: 'gala', slug: 'gala', listed: true }, null],
    ['nothing selected yet', null, null],
  ])('%s', (_name, event, expected) => {
    expect(eventLocations(event)).toEqual(expected)
  })
})

describe('pageLocations', () => {
  it.each([
    [{ title: 'Strategic business platforms', slug: 'home' }, '/'],
    [{ title: 'Our mission', slug: 'mission' }, '/mission'],
    [{ title: 'Conferences', slug: 'conference' }, '/conference'],
    [{ title: null, slug: 'inhouse-training' }, '/inhouse-training'],
  ])('%j opens %s', (page, href) => {
    expect(pageLocations(page)).toEqual({ locations: [{ title: page.title ?? page.slug, href }] })
  })

  it('has no location without a slug', () => {
    expect(pageLocations({ title: 'Draft', slug: null })).toBeNull()
    expect(pageLocations(null)).toBeNull()
  })
})

it('the site settings open the home page', () => {
  expect(siteSettingsLocations().locations).toEqual([{ title: 'Home', href: '/' }])
})
