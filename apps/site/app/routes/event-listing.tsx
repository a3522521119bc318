import { eventDateLabel } from '@events/content/event-dates'
import { venueLabel } from '@events/content/venue'
import { Link } from 'react-router'
import type { Route } from './+types/event-listing'
import { ContentImage } from '../components/ContentImage'
import { eventKindOfRoute, type EventKind } from '../lib/event-kind'
import { contentRequest, useContent, withLoaderContent } from '../lib/content'
import { loadContentPage } from '../lib/content-page.server'
import { loaderPageMeta } from '../lib/meta'
import { PageHero } from '../components/PageHero'
import { PriceHeadline } from '../components/PriceHeadline'
import { eventHeadline, withSeatNotice, type PriceHeadlineText } from '../lib/event-headline'
import { seatNotice, seatStatusesOf } from '../lib/seats.server'
import { servicesContext } from '../lib/services.server'
import { eventCardsQuery, type EventCardsQueryResult } from '@events/content/browser'
import { fetchWholeContent } from '@events/content/whole-content'

/** The cards fill a grid of columns at least 18rem wide within the page's width. */
const EVENT_CARD_SIZES = '(min-width: 75rem) 24rem, (min-width: 40rem) 50vw, 100vw'

// The listing's own page (its slug is the kind) holds the hero and the description; the cards come from the events.
const listingPage = (kind: EventKind) => contentRequest('page', { slug: kind })
const listingCards = (kind: EventKind) => contentRequest('eventCards', { kind })

// The listing's path is its kind ('/conference'), the slug of its page.
export async function loader({ context, request, pattern }: Route.LoaderArgs) {
  const kind = eventKindOfRoute(pattern)
  const { content, config, core } = context.get(servicesContext)
  const [page, cards] = await Promise.all([
    loadContentPage(context, request, [listingCards(kind)]),
    fetchWholeContent<EventCardsQueryResult>(content, eventCardsQuery, { kind }),
  ])
  const seats = await seatStatusesOf(core.db, cards)
  const now = config.now()
  // Priced and counted on the server, as the home page's cards: "From R …" with the seats' notice ("Only 4 seats
  // left at the venue", "Sold out"), by event id; a card whose registration has closed shows the notice alone. The
  // dates and venue are written here too, so their formatters stay out of the page's JavaScript.
  const headlines: Record<string, PriceHeadlineText> = {}
  const seatNotices: Record<string, string> = {}
  const facts: Record<string, { dates: string; venue: string }> = {}
  for (const card of cards) {
    facts[card._id] = { dates: eventDateLabel(card.start, card.end), venue: venueLabel(card.venue) }
    const notice = seatNotice(seats.get(card._id))
    const headline = withSeatNotice(eventHeadline(card, now), notice, seats.get(card._id)?.soldOut)
    if (headline) headlines[card._id] = headline
    else if (notice) seatNotices[card._id] = notice
  }
  return { ...page, kind, facts, headlines, seatNotices }
}

export const meta = loaderPageMeta

export default withLoaderContent(function EventListing({ loaderData: { kind, facts, headlines, seatNotices } }: Route.ComponentProps) {
  const page = useContent(listingPage(kind))
  const cards = useContent(listingCards(kind))
  if (!page) return null
  return (
    <>
      <PageHero title={page.title} subtitle={page.subtitle} />
      <section className="section" aria-label={`Upcoming ${(page.title ?? '').toLowerCase()}`}>
        <ul className="event-cards">
          {cards.map((card, index) => (
            <li key={card._id} className="event-card">
              {card.image && <ContentImage image={card.image} sizes={EVENT_CARD_SIZES} priority={index === 0} />}
              <div className="event-card__body">
                <h2>{card.title}</h2>
                <p className="event-card__meta">
                  <span>{facts[card._id]?.dates}</span>
                  <span>{facts[card._id]?.venue}</span>
                </p>
                {headlines[card._id] && <PriceHeadline headline={headlines[card._id]!} />}
                {seatNotices[card._id] && <p className="seat-notice">{seatNotices[card._id]}</p>}
                <Link className="button" to={`/${kind}/${card.slug}`}>
                  More-Info<span className="visually-hidden"> about {card.title}</span>
                </Link>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </>
  )
})
