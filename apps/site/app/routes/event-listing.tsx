import { Link, data } from 'react-router'
import type { Route } from './+types/event-listing'
import { ContentImage } from '../components/ContentImage'
import { eventKindOfRoute, type EventKind } from '../lib/event-kind'
import { ContentBoundary, contentRequest, useContent } from '../lib/content'
import { prefetchContent } from '../lib/content.server'
import { pageMeta } from '../lib/meta'
import { servicesContext } from '../lib/services.server'
import { socialImageOf } from '../lib/social-image.server'

/** The cards fill a grid of columns at least 18rem wide within the page's width. */
const EVENT_CARD_SIZES = '(min-width: 75rem) 24rem, (min-width: 40rem) 50vw, 100vw'

// The listing's own page (its slug is the kind) holds the hero and the description; the cards come from the events.
const listingPage = (kind: EventKind) => contentRequest('page', { slug: kind })
const listingCards = (kind: EventKind) => contentRequest('eventCards', { kind })

export async function loader({ context, pattern }: Route.LoaderArgs) {
  const { content, config } = context.get(servicesContext)
  const kind = eventKindOfRoute(pattern)
  const { dehydratedState, results } = await prefetchContent(content, [listingPage(kind), listingCards(kind)])
  const [page] = results
  if (!page) throw data(`The ${kind} listing page content is missing`, { status: 500 })
  const image = await socialImageOf(content, page._id)
  return { dehydratedState, kind, meta: { title: page.title ?? '', description: page.seoDescription ?? '', image }, siteUrl: config.siteUrl }
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return []
  return pageMeta({ ...loaderData.meta, path: `/${loaderData.kind}`, siteUrl: loaderData.siteUrl })
}

export default function EventListing({ loaderData }: Route.ComponentProps) {
  return (
    <ContentBoundary state={loaderData.dehydratedState}>
      <Listing kind={loaderData.kind} />
    </ContentBoundary>
  )
}

function Listing({ kind }: { kind: EventKind }) {
  const page = useContent(listingPage(kind))
  const cards = useContent(listingCards(kind))
  if (!page) return null
  return (
    <>
      <section className="page-hero">
        <h1>{page.title}</h1>
        {page.subtitle && <p>{page.subtitle}</p>}
      </section>
      <section className="section" aria-label={`Upcoming ${(page.title ?? '').toLowerCase()}`}>
        <ul className="event-cards">
          {cards.map((card, index) => (
            <li key={card._id} className="event-card">
              {card.image && <ContentImage image={card.image} sizes={EVENT_CARD_SIZES} priority={index === 0} />}
              <div className="event-card__body">
                <h2>{card.title}</h2>
                <p className="event-card__meta">
                  <span>{card.dateLabel}</span>
                  <span>{card.location}</span>
                </p>
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
}
