import { divisionsQuery, pageQuery, type DivisionsQueryResult, type PageQueryResult } from '@events/content/browser'
import { Link, data, useSearchParams } from 'react-router'
import type { Route } from './+types/home'
import type { ContactValues } from '../components/ContactForm'
import { LazyContactForm as ContactForm } from '../components/LazyContactForm'
import { interestOptions } from '../lib/contact-interests'
import { submitContactForm } from '../lib/contact.server'
import { orNetworkFailure } from '../lib/form-outcome'
import { ContentBoundary, contentRequest, useContent } from '../lib/content'
import { prefetchContent } from '../lib/content.server'
import { pageMeta } from '../lib/meta'
import { servicesContext } from '../lib/services.server'

const homePage = contentRequest(pageQuery, { slug: 'home' })
const divisions = contentRequest(divisionsQuery)

export async function loader({ context }: Route.LoaderArgs) {
  const { content, config } = context.get(servicesContext)
  const { dehydratedState, results } = await prefetchContent(content, [homePage, divisions])
  const page = results[0] as PageQueryResult
  if (!page) throw data('Home page content is missing', { status: 500 })
  return { dehydratedState, meta: { title: page.title ?? 'Home', description: page.seoDescription ?? '' }, siteUrl: config.siteUrl }
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

export default function Home({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <ContentBoundary state={loaderData.dehydratedState}>
      <HomeContent contactOutcome={actionData} />
    </ContentBoundary>
  )
}

function HomeContent({ contactOutcome }: { contactOutcome: Route.ComponentProps['actionData'] }) {
  const page = useContent<PageQueryResult>(homePage)
  const divisionList = useContent<DivisionsQueryResult>(divisions)
  const [searchParams] = useSearchParams()
  const requestedInterest = searchParams.get('interest')
  const interest = interestOptions.find((option) => option.value === requestedInterest)?.value
  if (!page) return null
  return (
    <>
      <section id="hero" className="home-hero">
        <h1>{page.title}</h1>
        {page.subtitle && <p className="home-hero__subtitle">{page.subtitle}</p>}
      </section>
      <section id="about" className="section" aria-labelledby="about-title">
        <h2 id="about-title">About Us</h2>
        {page.intro && <p className="lead">{page.intro}</p>}
        <ul className="card-grid">
          {page.cards?.map((card) => (
            <li key={card._key} className="card">
              <h3>{card.title}</h3>
              <p>{card.text}</p>
              {card.href && <Link to={card.href}>Read more<span className="visually-hidden"> about {card.title}</span></Link>}
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
}
