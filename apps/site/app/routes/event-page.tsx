import { eventSlugsQuery, siteSettingsQuery, type ContentQueryResults, type EventSlugsQueryResult, type SiteSettingsQueryResult } from '@events/content/browser'
import { fetchWholeContent } from '@events/content/whole-content'
import { eventDateLabel } from '@events/content/event-dates'
import { venueLabel } from '@events/content/venue'
import { lazy, useEffect } from 'react'
import { data, Link, redirect, useSearchParams } from 'react-router'
import type { Route } from './+types/event-page'
import { EventTabs } from '../components/EventTabs'
import { LogoStrip } from '../components/LogoStrip'
import { PriceHeadline } from '../components/PriceHeadline'
import { RichTextHtml } from '../components/RichTextHtml'
import { answerOr, NETWORK_FAILURE, REGISTRATION_SEND_FAILURE } from '../lib/form-outcome'
import { contentRequest, useContent, withLoaderContent } from '../lib/content'
import { prefetchContent } from '../lib/content.server'
import { eventHeadline, withSeatNotice, type PriceHeadlineText } from '../lib/event-headline'
import { SOLD_OUT_NOTICE } from '../lib/sold-out'
import { eventKindOfRoute, type EventKind } from '../lib/event-kind'
import { eventStructuredData } from '../lib/event-structured-data'
import { pageMeta } from '../lib/meta'
import { throwRedirectOrNotFound } from '../lib/redirects.server'
import { socialImageOf } from '../lib/social-image.server'
import { EVENT_SECTIONS_ID, registerTabHref } from '../lib/page-path'
import type { RegistrationOutcome } from '../lib/registration-draft'
import { discountLinkShown, quotationLinkShown, registrationAction } from '../lib/registration.server'
import { quoteRefusalMessage } from '../lib/refusals'
import { seatNotice, seatStatusesOf } from '../lib/seats.server'
import { requestFactsContext, servicesContext } from '../lib/services.server'
import { offerShown, privateHeaders } from '../lib/waiting-list.server'

// Only the chosen tab's panel is rendered, so the heavier panels load when they are shown rather than with every
// event page; once the page is idle they are fetched ahead, so choosing a tab rarely waits.
const panelModules = {
  register: () => import('../components/RegisterPanel'),
  agenda: () => import('../components/Agenda'),
  sponsor: () => import('../components/SponsorPackages'),
  speakers: () => import('../components/SpeakersCarousel'),
}
const RegisterPanel = lazy(() => panelModules.register().then((module) => ({ default: module.RegisterPanel })))
const Agenda = lazy(() => panelModules.agenda().then((module) => ({ default: module.Agenda })))
const SponsorPackages = lazy(() => panelModules.sponsor().then((module) => ({ default: module.SponsorPackages })))
const SpeakersCarousel = lazy(() => panelModules.speakers().then((module) => ({ default: module.SpeakersCarousel })))

function usePanelsFetchedWhenIdle() {
  useEffect(() => {
    const fetchAll = () => Object.values(panelModules).forEach((load) => void load())
    if ('requestIdleCallback' in window) {
      const handle = window.requestIdleCallback(fetchAll, { timeout: 3000 })
      return () => window.cancelIdleCallback(handle)
    }
    const timer = setTimeout(fetchAll, 1000)
    return () => clearTimeout(timer)
  }, [])
}

type EventPage = NonNullable<ContentQueryResults['eventPage']>

const tabLabels: Record<string, string> = {
  overview: 'Overview',
  agenda: 'Agenda',
  register: 'Register',
  speakers: 'Speakers',
  sponsor: 'Sponsor',
}

/** The legacy mixed-case slugs are canonical; any other casing of an existing event redirects permanently. */
export function findCanonicalSlug(events: EventSlugsQueryResult, kind: EventKind, slug: string): string | undefined {
  return events.find((event) => event.kind === kind && event.slug?.toLowerCase() === slug.toLowerCase())?.slug ?? undefined
}

export async function loader({ context, request, params, pattern }: Route.LoaderArgs) {
  const { content, config, core } = context.get(servicesContext)
  const url = new URL(request.url)
  const kind = eventKindOfRoute(pattern)
  const eventRequest = contentRequest('eventPage', { kind, slug: params.slug })
  const { dehydratedState, results } = await prefetchContent(content, [eventRequest], context.get(requestFactsContext).log)
  const [event] = results
  if (!event) {
    const canonical = findCanonicalSlug(await fetchWholeContent<EventSlugsQueryResult>(content, eventSlugsQuery), kind, params.slug)
    if (canonical) throw redirect(`/${kind}/${canonical}${url.search}`, 301)
    return throwRedirectOrNotFound(content, request, 'Event not found')
  }
  const [settings, image, seatStatuses, offer, discountLink, quotation] = await Promise.all([
    fetchWholeContent<SiteSettingsQueryResult>(content, siteSettingsQuery),
    socialImageOf(content, event._id),
    seatStatusesOf(core.db, [event]),
    offerShown(context, url, event._id.replace(/^drafts\./, '')),
    discountLinkShown(context, url, event.slug!),
    quotationLinkShown(context, url, event.slug!),
  ])
  const seatStatus = seatStatuses.get(event._id)
  const path = `/${kind}/${event.slug}`
  return data(
    {
      dehydratedState,
      kind,
      slug: event.slug!,
      siteUrl: config.siteUrl,
      // Priced on the server at the business clock: the availability rules stay out of the page's JavaScript.
      // Counted on the server like the price: what the hero and the Register tab (RegisterPanel reads `seats`) say.
      headline: withSeatNotice(eventHeadline(event, config.now()), seatNotice(seatStatus), seatStatus?.soldOut),
      // Written on the server, as on every card, so the date and venue formatters stay out of the page's JavaScript.
      facts: { dates: eventDateLabel(event.start, event.end), venue: venueLabel(event.venue) },
      seats: {
        notice: seatNotice(seatStatus),
        venueSoldOut: seatStatus?.venueSoldOut ?? false,
        onlineSoldOut: seatStatus?.onlineLeft === 0,
        soldOut: seatStatus?.soldOut ?? false,
      },
      // Why a quotation request was refused (its quote address sends the visitor back with ?quote=<code>), worded here so
      // the refusals stay out of the page's JavaScript.
      quoteRefusal: quoteRefusalMessage(url.searchParams.get('quote')),
      meta: { title: event.title ?? 'Event', description: event.summary ?? '', path, image },
      structuredData: eventStructuredData(event, {
        url: `${config.siteUrl}${path}`,
        siteUrl: config.siteUrl,
        organiser: settings?.siteName ?? '',
        vatRate: settings?.vatRate ?? 0.15,
        now: config.now(),
        seats: seatStatus,
      }),
      // A waiting-list offer link (RegisterPanel reads it): the seats it holds, or why it holds none. Such a page is the
      // visitor's own, never kept.
      offer,
      // An event link's `?code=` (RegisterPanel reads it): what the code gives, or why not. Also the visitor's own.
      discountLink,
      // A quotation's link (RegisterPanel reads it): the form starts with its number, company, option and delegates.
      quotation,
    },
    offer || discountLink || quotation ? { headers: privateHeaders } : undefined,
  )
}

// An offer link's page is private (the loader's headers); a failed load keeps the headers its failure carried, as root's.
export function headers({ loaderHeaders, errorHeaders }: Route.HeadersArgs) {
  return errorHeaders ?? loaderHeaders
}

/** The Register tab's form: delegate rows, 'Update total' and submit. */
export async function action({ context, request, params }: Route.ActionArgs) {
  return registrationAction(request, context, params.slug)
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return answerOr<RegistrationOutcome>(serverAction, { error: { code: NETWORK_FAILURE, message: REGISTRATION_SEND_FAILURE, fields: {} } })
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return []
  return [...pageMeta({ ...loaderData.meta, siteUrl: loaderData.siteUrl, type: 'article' }), { 'script:ld+json': loaderData.structuredData }]
}

export default withLoaderContent(function EventRoute({
  loaderData: { kind, slug, headline, facts, quoteRefusal },
  actionData: registration,
}: Route.ComponentProps) {
  const event = useContent(contentRequest('eventPage', { kind, slug }))
  const [searchParams] = useSearchParams()
  usePanelsFetchedWhenIdle()
  if (!event) return null
  const tabs = (event.tabs ?? ['overview']).filter((tab) => tab in tabLabels)
  const requested = searchParams.get('tab')
  const selected = requested && tabs.includes(requested) ? requested : tabs[0]!
  const hrefFor = (tab: string) => `?tab=${tab}`

  const panels: Record<string, React.ReactNode> = {
    overview: <Overview event={event} />,
    agenda: <Agenda days={event.agendaDays ?? []} selectedDay={searchParams.get('day') ?? undefined} hrefForDay={(day) => `?tab=agenda&day=${day}`} />,
    register: <RegisterPanel event={event} outcome={registration} quoteRefusal={quoteRefusal} />,
    speakers: <SpeakersCarousel speakers={event.speakers ?? []} />,
    sponsor: (
      <SponsorPackages
        heading={event.sponsorHeading ?? 'Sponsorship opportunities'}
        intro={event.sponsorIntro ?? ''}
        packages={event.sponsorPackages ?? []}
        contactHref={`/${kind}/${event.slug}/contact?interest=Sponsorship`}
      />
    ),
  }

  return (
    <>
      <EventHero
        event={event}
        facts={facts}
        headline={headline}
        registerHref={tabs.includes('register') ? registerTabHref(`/${kind}/${event.slug}`) : undefined}
      />
      <div id={EVENT_SECTIONS_ID} className="section event-body">
        <EventTabs
          label={`${event.title} information`}
          tabs={tabs.map((tab) => ({ id: tab, label: tabLabels[tab]!, panel: panels[tab] }))}
          selected={selected}
          hrefFor={hrefFor}
        />
      </div>
      {(event.participatingCompanies?.length ?? 0) > 0 && (
        <section className="section section--alt" aria-labelledby="companies-title">
          <h2 id="companies-title">Participating companies</h2>
          <LogoStrip logos={event.participatingCompanies ?? []} />
        </section>
      )}
    </>
  )
})

const formatNames = { 'in-person': 'In person', online: 'Online', hybrid: 'In person and online' } as const

const kindNames = { conference: 'Conference', workshop: 'Workshop' } as const

function EventHero({
  event,
  facts,
  headline,
  registerHref,
}: {
  event: EventPage
  facts: { dates: string; venue: string }
  headline: PriceHeadlineText | undefined
  registerHref: string | undefined
}) {
  return (
    <section className="page-hero event-hero">
      <div className="event-hero__inner">
        <div className="event-hero__main">
          <p className="eyebrow">{kindNames[event.kind]}</p>
          <h1>{event.title}</h1>
          <dl className="event-facts">
            <div>
              <dt>Date</dt>
              <dd>
                {facts.dates}{' '}
                <a href={`/${event.kind}/${event.slug}/calendar.ics`} download>
                  Add to calendar
                </a>
              </dd>
            </div>
            <div>
              <dt>Venue</dt>
              <dd>{facts.venue}</dd>
            </div>
            <div>
              <dt>Format</dt>
              <dd>{formatNames[(event.format ?? 'in-person') as keyof typeof formatNames]}</dd>
            </div>
            <div>
              <dt>Contact</dt>
              <dd>
                {event.contactPhone && <a href={`tel:${event.contactPhone.replace(/\s+/g, '')}`}>{event.contactPhone}</a>}
                {event.contactPhone && event.contactEmail && ' · '}
                {event.contactEmail && <a href={`mailto:${event.contactEmail}`}>{event.contactEmail}</a>}
              </dd>
            </div>
          </dl>
        </div>
        {registerHref && (
          <div className="event-hero__ticket">
            {headline ? (
              // A sold-out hero says so once, on its button to the waiting list.
              <PriceHeadline headline={headline.soldOut ? { ...headline, seats: undefined } : headline} />
            ) : (
              <p className="event-hero__closed">Registration is closed</p>
            )}
            {headline && (
              <Link className="button button--accent button--block" to={registerHref}>
                {headline.soldOut ? SOLD_OUT_NOTICE : 'Register now'}
              </Link>
            )}
          </div>
        )}
      </div>
    </section>
  )
}

function Overview({ event }: { event: EventPage }) {
  const overview = event.overview
  return (
    <div className="overview">
      {overview?.theme?.html && (
        <section aria-labelledby="overview-theme">
          <h2 id="overview-theme">Theme</h2>
          <RichTextHtml className="preserve-lines" value={overview.theme} />
        </section>
      )}
      {overview?.keyMessages?.html && (
        <section aria-labelledby="overview-messages">
          <h2 id="overview-messages">Key messages</h2>
          <RichTextHtml value={overview.keyMessages} />
        </section>
      )}
      {overview?.objectives?.html && (
        <section aria-labelledby="overview-objectives">
          <h2 id="overview-objectives">Objectives</h2>
          <RichTextHtml value={overview.objectives} />
        </section>
      )}
    </div>
  )
}
