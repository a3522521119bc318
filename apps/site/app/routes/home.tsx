import { upcomingEventsQuery, type UpcomingEventsQueryResult } from '@events/content/browser'
import { fetchWholeContent } from '@events/content/whole-content'
import { eventDateLabel } from '@events/content/event-dates'
import { venueLabel } from '@events/content/venue'
import { Link, data, useSearchParams } from 'react-router'
import type { Route } from './+types/home'
import type { ContactValues } from '../components/ContactForm'
import { LazyContactForm as ContactForm } from '../components/LazyContactForm'
import { PriceHeadline } from '../components/PriceHeadline'
import { RichTextHtml } from '../components/RichTextHtml'
import { interestOptions } from '../lib/contact-interests'
import { eventHeadline, withSeatNotice, type PriceHeadlineText } from '../lib/event-headline'
import { submitContactForm } from '../lib/contact.server'
import { orNetworkFailure } from '../lib/form-outcome'
import { contentRequest, useContent, withLoaderContent } from '../lib/content'
import { prefetchContent } from '../lib/content.server'
import { pageMeta } from '../lib/meta'
import { socialImageOf } from '../lib/social-image.server'
import { registerTabHref } from '../lib/page-path'
import { seatNotice, seatStatusesOf } from '../lib/seats.server'
import { requestFactsContext, servicesContext } from '../lib/services.server'
import type { SeatStatus } from '@events/core/seats'

const homePage = contentRequest('page', { slug: 'home' })
const divisions = contentRequest('divisions')

/** How many upcoming events the home page shows below its hero. */
const UPCOMING_COUNT = 3

interface UpcomingEvent {
  id: string
  title: string
  kind: 'conference' | 'workshop'
  href: string
  dateLabel: string
  location: string
  headline: PriceHeadlineText | undefined
}

// The flagship leads: conferences come before workshops, each kind soonest first (the query's order).
const kindOrder: Record<UpcomingEvent['kind'], number> = { conference: 0, workshop: 1 }

// Priced here, at the business clock, so the page shows what the Register form will charge; only open events appear.
function upcomingEvents(events: UpcomingEventsQueryResult, now: Date, seats: Map<string, SeatStatus>): UpcomingEvent[] {
  return events
    .toSorted((first, second) => kindOrder[first.kind] - kindOrder[second.kind])
    .map((event) => ({
      id: event._id,
      title: event.title,
      kind: event.kind,
      href: `/${event.kind}/${event.slug}`,
      dateLabel: eventDateLabel(event.start, event.end),
      location: venueLabel(event.venue),
      headline: withSeatNotice(eventHeadline(event, now), seatNotice(seats.get(event._id)), seats.get(event._id)?.soldOut),
    }))
    .filter((event) => event.headline !== undefined)
    .slice(0, UPCOMING_COUNT)
}

export async function loader({ context }: Route.LoaderArgs) {
  const { content, config, core } = context.get(servicesContext)
  const { dehydratedState, results } = await prefetchContent(content, [homePage, divisions], context.get(requestFactsContext).log)
  const [page] = results
  if (!page) throw data('Home page content is missing', { status: 500 })
  const now = config.now()
  const events = await fetchWholeContent<UpcomingEventsQueryResult>(content, upcomingEventsQuery, { now: now.toISOString() })
  const upcoming = upcomingEvents(events, now, await seatStatusesOf(core.db, events))
  const image = await socialImageOf(content, page._id)
  return { dehydratedState, upcoming, meta: { title: page.title ?? 'Home', description: page.seoDescription ?? '', image }, siteUrl: config.siteUrl }
}

/** The contact form of the home page. */
export async function action({ request, context }: Route.ActionArgs) {
  return submitContactForm(request, context)
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orNetworkFailure<ContactValues>(serverAction)
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return []
  return pageMeta({ ...loaderData.meta, path: '/', siteUrl: loaderData.siteUrl })
}

export default withLoaderContent(function Home({ loaderData: { upcoming }, actionData: contactOutcome }: Route.ComponentProps) {
  const page = useContent(homePage)
  const divisionList = useContent(divisions)
  const [searchParams] = useSearchParams()
  const requestedInterest = searchParams.get('interest')
  const interest = interestOptions.find((option) => option.value === requestedInterest)?.value
  if (!page) return null
  return (
    <>
      <section id="hero" className="home-hero">
        <h1>{page.title}</h1>
        {page.subtitle && <p className="home-hero__subtitle">{page.subtitle}</p>}
        <p className="home-hero__actions">
          <a className="button button--accent" href="#upcoming-title">
            See upcoming events
          </a>
          <Link className="button button--on-brand" to="/inhouse-training">
            Training for your team
          </Link>
        </p>
      </section>
      {upcoming.length > 0 && <UpcomingEvents events={upcoming} />}
      <section id="about" className="section" aria-labelledby="about-title">
        <h2 id="about-title">About Us</h2>
        {page.intro?.html && <RichTextHtml className="lead" value={page.intro} />}
        <ul className="card-grid">
          {page.cards?.map((card) => (
            <li key={card._key} className="card">
              <h3>{card.title}</h3>
              <p>{card.text}</p>
              {card.href && (
                <Link to={card.href}>
                  Read more<span className="visually-hidden"> about {card.title}</span>
                </Link>
              )}
            </li>
          ))}
        </ul>
      </section>
      <section id="divisions" className="section section--alt" aria-labelledby="divisions-title">
        <h2 id="divisions-title">Our Divisions</h2>
        <ul className="card-grid">
          {divisionList.map((division) => (
            <li key={division._id} className="card">
              <h3>
                <Link to={division.href ?? '/'}>{division.title}</Link>
              </h3>
              <p>{division.description}</p>
            </li>
          ))}
        </ul>
      </section>
      <section className="section statistics" aria-labelledby="statistics-title">
        <h2 id="statistics-title">Our success in numbers</h2>
        <dl className="statistics__list">
          {page.statistics?.map((statistic) => (
            <div key={statistic._key} className="statistics__item">
              <dt>{statistic.label}</dt>
              <dd>{statistic.value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section id="contact" className="section section--alt" aria-labelledby="contact-title">
        <h2 id="contact-title">{page.contactTitle}</h2>
        <p>{page.contactSubtitle}</p>
        <ContactForm action="/?index#contact" interest={interest} outcome={contactOutcome} />
      </section>
    </>
  )
})

const kindNames = { conference: 'Conference', workshop: 'Workshop' } as const

function UpcomingEvents({ events }: { events: UpcomingEvent[] }) {
  return (
    <section className="section upcoming" aria-labelledby="upcoming-title">
      <div className="section-heading">
        <h2 id="upcoming-title">Upcoming events</h2>
        <p className="section-heading__links">
          <Link to="/conference">All conferences</Link>
          <Link to="/workshop">All workshops</Link>
        </p>
      </div>
      <ul className="upcoming__list">
        {events.map((event) => (
          <li key={event.id} className="upcoming__item">
            <p className="eyebrow">{kindNames[event.kind]}</p>
            <h3>
              <Link to={event.href}>{event.title}</Link>
            </h3>
            <p className="upcoming__facts">
              <span>{event.dateLabel}</span>
              <span>{event.location}</span>
            </p>
            {event.headline && <PriceHeadline headline={event.headline} />}
            <Link className="button button--accent" to={registerTabHref(event.href)}>
              Register<span className="visually-hidden"> for {event.title}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}
