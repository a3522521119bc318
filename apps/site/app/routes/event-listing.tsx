import { eventCardsQuery, type EventCardsQueryResult } from '@events/content/browser'
import { Link } from 'react-router'
import type { Route } from './+types/event-listing'
import { ContentBoundary, contentRequest, useContent } from '../lib/content'
import { prefetchContent } from '../lib/content.server'
import { pageMeta } from '../lib/meta'
import { servicesContext } from '../lib/services.server'

const listings = {
  conference: {
    title: 'Conferences',
    description: 'Sector-focused business conferences in Johannesburg: agendas, speakers, sponsorship and delegate registration.',
  },
  workshop: {
    title: 'Workshops',
    description: 'Practical workshops for professionals in Sandton, Johannesburg: programmes, dates, prices and registration.',
  },
} as const

function kindOf(pathname: string): keyof typeof listings {
  return pathname.startsWith('/conference') ? 'conference' : 'workshop'
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { content, config } = context.get(servicesContext)
  const kind = kindOf(new URL(request.url).pathname)
  const { dehydratedState } = await prefetchContent(content, [contentRequest(eventCardsQuery, { kind })])
  return { dehydratedState, kind, siteUrl: config.siteUrl }
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return []
  const listing = listings[loaderData.kind]
  return pageMeta({ title: listing.title, description: listing.description, path: `/${loaderData.kind}`, siteUrl: loaderData.siteUrl })
}

export default function EventListing({ loaderData }: Route.ComponentProps) {
  return (
    <ContentBoundary state={loaderData.dehydratedState}>
      <Listing kind={loaderData.kind} />
    </ContentBoundary>
  )
}

function Listing({ kind }: { kind: keyof typeof listings }) {
  const cards = useContent<EventCardsQueryResult>(contentRequest(eventCardsQuery, { kind }))
  return (
    <>
      <section className="page-hero">
        <h1>{listings[kind].title}</h1>
        <p>Intelligent Business</p>
      </section>
      <section className="section" aria-label={`Upcoming ${listings[kind].title.toLowerCase()}`}>
        <ul className="event-cards">
          {cards.map((card) => (
            <li key={card._id} className="event-card">
              {card.image?.url && (
                <img src={card.image.url} alt={card.image.alt ?? ''} width={card.image.width ?? undefined} height={card.image.height ?? undefined} loading="lazy" />
              )}
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
