import { HONEYPOT_FIELD, seatKindOf, waitingListOfferOf, WAITING_LIST_OFFER_PARAM } from '@events/core'
import { data, type RouterContextProvider } from 'react-router'
import type { OfferShown } from '../components/RegisterPanel'
import type { WaitingListOutcome, WaitingListValues } from '../components/WaitingListForm'
import { countSubmission, handleForm } from './forms.server'
import { servicesContext } from './services.server'
import type { EventKind } from './event-kind'

const emptyValues: WaitingListValues = { name: '', companyName: '', email: '', tel: '', seats: '', attendance: '' }

/** The waiting-list form's action: the place goes to the core (`eventSlug` from the route, not the form). */
export function submitWaitingListForm(request: Request, context: Readonly<RouterContextProvider>, eventSlug: string) {
  return handleForm(request, context, 'waiting-list', emptyValues, async (values, form): Promise<WaitingListOutcome> => {
    await countSubmission(context)
    const { core } = context.get(servicesContext)
    const { position } = await core.joinWaitingList({ ...values, event: eventSlug, [HONEYPOT_FIELD]: form.get(HONEYPOT_FIELD) ?? '' })
    return {
      status: 'success',
      message: `Thank you: you are number ${position} on the waiting list. We have sent you an e-mail confirming your place, and will e-mail you a private link when seats are free for you.`,
    }
  })
}

/** The event a waiting-list page is for, with the ways of attending it offers (the venue first); 404 when unknown. */
export async function waitingListEvent(context: Readonly<RouterContextProvider>, kind: EventKind, slug: string) {
  const { core } = context.get(servicesContext)
  const event = await core.registrations.catalog.getEvent(slug)
  if (!event || event.kind !== kind) throw data('Event not found', { status: 404 })
  const kinds = new Set(event.priceOptions.map((option) => seatKindOf(option.key)))
  const attendances = (['venue', 'online'] as const).filter((attendance) => kinds.has(attendance))
  return { event, attendances }
}

const offeredUntilFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Johannesburg', dateStyle: 'long', timeStyle: 'short' })

/** The offer an event page's address names (its `offer` parameter), for this event (another event's holds nothing here). */
export async function offerShown(context: Readonly<RouterContextProvider>, url: URL, eventId: string): Promise<OfferShown | undefined> {
  const token = url.searchParams.get(WAITING_LIST_OFFER_PARAM)
  if (token === null) return undefined
  const { core } = context.get(servicesContext)
  const offer = await waitingListOfferOf(core.backOffice, token)
  if (offer.status !== 'held') return { status: offer.status }
  if (offer.eventId !== eventId) return { status: 'expired' }
  const { seats, attendance, name, companyName, email, tel } = offer
  return { status: 'held', token, seats, attendance, until: offeredUntilFormat.format(new Date(offer.offeredUntil)), name, companyName, email, tel }
}

/** A page answered for one visitor (an offer link's): never kept by the page cache, a CDN or the browser. */
export const privateHeaders = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' }
