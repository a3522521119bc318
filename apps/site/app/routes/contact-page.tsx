import { eventSlugsQuery, pageQuery, type EventSlugsQueryResult, type PageQueryResult } from '@events/content/browser'
import { fetchWholeContent } from '@events/content/whole-content'
import { redirect } from 'react-router'
import type { Route } from './+types/contact-page'
import type { SanityClient } from '@sanity/client'
import type { ContactValues } from '../components/ContactForm'
import { LazyContactForm as ContactForm } from '../components/LazyContactForm'
import { interestOptions } from '../lib/contact-interests'
import { eventKindOfRoute } from '../lib/event-kind'
import { submitContactForm } from '../lib/contact.server'
import { orNetworkFailure } from '../lib/form-outcome'
import { pageMeta } from '../lib/meta'
import { pagePathname } from '../lib/page-path'
import { throwRedirectOrNotFound } from '../lib/redirects.server'
import { servicesContext } from '../lib/services.server'
import { PageHero } from '../components/PageHero'

/** Which enquiry a contact sub-route is about: sponsorship, or a named event (legacy slug casing is canonical). */
async function enquirySubject(content: SanityClient, request: Request, pattern: string, slug: string | undefined) {
  if (!slug) return { interest: 'Sponsorship', context: 'Sponsorship', about: 'sponsorship' }
  const kind = eventKindOfRoute(pattern)
  const events = await fetchWholeContent<EventSlugsQueryResult>(content, eventSlugsQuery)
  const event = events.find((candidate) => candidate.kind === kind && candidate.slug?.toLowerCase() === slug.toLowerCase())
  if (!event?.slug) return throwRedirectOrNotFound(content, request, 'Event not found')
  if (event.slug !== slug) throw redirect(`/${kind}/${event.slug}/contact`, 301)
  const title = event.title ?? event.slug
  return { interest: kind === 'conference' ? 'Conference' : 'Workshop', context: title, about: title }
}

/**
 * The interest a link asks for (the Sponsor tab's 'Become a Sponsor' asks for `?interest=Sponsorship`), when it is
 * one of the form's options; the event stays the subject.
 */
function requestedInterest(request: Request): string | undefined {
  const asked = new URL(request.url).searchParams.get('interest')
  return interestOptions.find((option) => option.value === asked)?.value
}

export async function loader({ context, request, params, pattern }: Route.LoaderArgs) {
  const { content, config } = context.get(servicesContext)
  const pathname = pagePathname(request)
  const home = await fetchWholeContent<PageQueryResult>(content, pageQuery, { slug: 'home' })
  const heading = { title: home?.contactTitle ?? 'Contact us', subtitle: home?.contactSubtitle ?? 'Fill in the form below' }
  const subject = await enquirySubject(content, request, pattern, params.slug)
  return { ...heading, ...subject, interest: requestedInterest(request) ?? subject.interest, path: pathname, siteUrl: config.siteUrl }
}

/** The enquiry, with its subject (the event or sponsorship) named from the route rather than from the form. */
export async function action({ context, request, params, pattern }: Route.ActionArgs) {
  const { content } = context.get(servicesContext)
  const subject = await enquirySubject(content, request, pattern, params.slug)
  return submitContactForm(request, context, subject.context)
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orNetworkFailure<ContactValues>(serverAction)
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return []
  return pageMeta({
    title: `Contact us about ${loaderData.about}`,
    description: `Send us an enquiry about ${loaderData.about}; we answer within one working day.`,
    path: loaderData.path,
    siteUrl: loaderData.siteUrl,
  })
}

export default function ContactPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHero title={loaderData.title} subtitle={loaderData.subtitle} />
      <div className="section">
        <p className="lead">Your enquiry is about: {loaderData.about}</p>
        <ContactForm action={loaderData.path} interest={loaderData.interest} context={loaderData.context} outcome={actionData} />
      </div>
    </>
  )
}
