import { describe, expect, it } from 'vitest'
import { eventStructuredData } from './event-structured-data'

type EventPage = Parameters<typeof eventStructuredData>[0]

const resilience = {
  title: 'Resilience Conference',
  start: '2025-07-03T08:30:00+02:00',
  end: '2025-07-04T16:00:00+02:00',
  registrationClosesAt: null,
  venue: { name: 'Gallagher Convention Centre', address: 'Midrand' },
  priceOptions: [
    { key: 'venue', label: 'Venue', amount: 8490, earlyBirdUntil: null },
    { key: 'early-bird', label: 'Early-bird', amount: 7490, earlyBirdUntil: '2025-06-13' },
    { key: 'table-5', label: 'Table of 5', amount: 34950, earlyBirdUntil: null },
  ],
} as unknown as EventPage

function availabilityAt(now: string): Record<string, string> {
  const { offers } = eventStructuredData(resilience, {
    url: 'https://e.test/conference/Resilience',
    siteUrl: 'https://e.test',
    organiser: 'Events',
    vatRate: 0.15,
    now: new Date(now),
  })
  return Object.fromEntries(offers.map((offer) => [offer.name, offer.availability.replace('https://schema.org/', '')]))
}

describe('eventStructuredData offers', () => {
  it('says LimitedAvailability from 10 seats left down and SoldOut when the seats of the offer are gone', () => {
    const withOnline = {
      ...resilience,
      priceOptions: [...(resilience.priceOptions ?? []), { key: 'online', label: 'Online', amount: 5490, earlyBirdUntil: null }],
    } as EventPage
    const at = (venueLeft: number | null, onlineLeft: number | null) => {
      const seats = { venueLeft, onlineLeft, venueSoldOut: venueLeft === 0, soldOut: venueLeft === 0 && onlineLeft === 0 }
      const { offers } = eventStructuredData(withOnline, {
        url: 'u',
        siteUrl: 'https://e.test',
        organiser: 'Events',
        vatRate: 0.15,
        now: new Date('2025-03-01T09:00:00+02:00'),
        seats,
      })
      return Object.fromEntries(offers.map((offer) => [offer.name, offer.availability.replace('https://schema.org/', '')]))
    }
    expect(at(11, null)).toEqual({ Venue: 'InStock', 'Early-bird': 'InStock', 'Table of 5': 'InStock', Online: 'InStock' })
    expect(at(10, 40)).toEqual({ Venue: 'LimitedAvailability', 'Early-bird': 'LimitedAvailability', 'Table of 5': 'LimitedAvailability', Online: 'InStock' })
    expect(at(0, 3)).toEqual({ Venue: 'SoldOut', 'Early-bird': 'SoldOut', 'Table of 5': 'SoldOut', Online: 'LimitedAvailability' })
    expect(at(0, 0)).toEqual({ Venue: 'SoldOut', 'Early-bird': 'SoldOut', 'Table of 5': 'SoldOut', Online: 'SoldOut' })
  })

  it('prices each option incl. VAT, a table at its flat price', () => {
    const { offers } = eventStructuredData(resilience, {
      url: 'u',
      siteUrl: 'https://e.test',
      organiser: 'Events',
      vatRate: 0.15,
      now: new Date('2025-03-01T09:00:00+02:00'),
    })
    expect(offers.map((offer) => [offer.name, offer.price, offer.priceCurrency])).toEqual([
      ['Venue', '9763.50', 'ZAR'],
      ['Early-bird', '8613.50', 'ZAR'],
      ['Table of 5', '40192.50', 'ZAR'],
    ])
  })

  it('puts every option on sale while registration is open and early-bird has not ended', () => {
    expect(availabilityAt('2025-03-01T09:00:00+02:00')).toEqual({ Venue: 'InStock', 'Early-bird': 'InStock', 'Table of 5': 'InStock' })
  })

  it('takes early-bird off sale after the end of its date in Johannesburg', () => {
    expect(availabilityAt('2025-06-13T23:59:00+02:00')['Early-bird']).toBe('InStock')
    expect(availabilityAt('2025-06-14T00:00:00+02:00')).toEqual({ Venue: 'InStock', 'Early-bird': 'Discontinued', 'Table of 5': 'InStock' })
  })

  it('takes every option off sale once registration has closed', () => {
    expect(availabilityAt('2025-07-03T08:30:00+02:00')).toEqual({ Venue: 'Discontinued', 'Early-bird': 'Discontinued', 'Table of 5': 'Discontinued' })
  })
})
