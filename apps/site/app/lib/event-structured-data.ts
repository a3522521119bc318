import type { ContentQueryResults } from '@events/content/browser'
import { FEW_SEATS_LEFT, seatKindOf, type SeatStatus } from '@events/core/seats'
import { formatAmount, isOptionKey, optionAvailability, quote, randsToCents } from '@events/pricing'

const attendanceModes = {
  'in-person': 'https://schema.org/OfflineEventAttendanceMode',
  online: 'https://schema.org/OnlineEventAttendanceMode',
  hybrid: 'https://schema.org/MixedEventAttendanceMode',
} as const

type EventPage = NonNullable<ContentQueryResults['eventPage']>

interface StructuredDataOptions {
  url: string
  siteUrl: string
  organiser: string
  vatRate: number
  /** The site's "now" (SITE_DATE aware): an offer past its early-bird date, or after registration closed, is not on sale. */
  now: Date
  /** The event's seats, when it limits them: an offer whose seats are gone is sold out, one with few left limited. */
  seats?: SeatStatus | undefined
}

/** How schema.org names an offer's stock: none of its kind left, a few (FEW_SEATS_LEFT or fewer), or plenty. */
function seatAvailability(seats: SeatStatus | undefined, optionKey: string): string {
  const left = seats ? (seatKindOf(optionKey) === 'venue' ? seats.venueLeft : seats.onlineLeft) : null
  if (left === 0) return 'https://schema.org/SoldOut'
  if (left !== null && left <= FEW_SEATS_LEFT) return 'https://schema.org/LimitedAvailability'
  return 'https://schema.org/InStock'
}

/** schema.org Event for an event page, with offers priced incl. VAT by packages/pricing. */
export function eventStructuredData(event: EventPage, { url, siteUrl, organiser, vatRate, now, seats }: StructuredDataOptions) {
  const place = event.venue?.name ? { '@type': 'Place', name: event.venue.name, address: event.venue.address ?? undefined } : undefined
  const virtual = { '@type': 'VirtualLocation', url }
  const format = (event.format ?? 'in-person') as keyof typeof attendanceModes
  const location = format === 'online' ? virtual : format === 'hybrid' && place ? [place, virtual] : place
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.title,
    description: event.summary ?? undefined,
    startDate: event.start,
    endDate: event.end,
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: attendanceModes[format],
    location,
    image: event.card?.image?.url ? [new URL(event.card.image.url, siteUrl).toString()] : undefined,
    url,
    organizer: { '@type': 'Organization', name: organiser, url: siteUrl },
    performer: event.speakers?.length ? event.speakers.map((speaker) => ({ '@type': 'Person', name: speaker.name })) : undefined,
    offers: (event.priceOptions ?? [])
      .filter((option) => isOptionKey(option.key))
      .map((option) => ({
        '@type': 'Offer',
        name: option.label,
        price: formatAmount(quote({ key: option.key!, amountCents: randsToCents(option.amount ?? 0) }, 1, vatRate).totalCents),
        priceCurrency: 'ZAR',
        url: `${url}?tab=register`,
        availability:
          event.start &&
          optionAvailability(
            { key: option.key!, earlyBirdUntil: option.earlyBirdUntil },
            { start: event.start, registrationClosesAt: event.registrationClosesAt },
            now,
          ).available
            ? seatAvailability(seats, option.key!)
            : 'https://schema.org/Discontinued',
        ...(option.key === 'early-bird' && option.earlyBirdUntil ? { validThrough: `${option.earlyBirdUntil}T23:59:59+02:00` } : {}),
      })),
  }
}
