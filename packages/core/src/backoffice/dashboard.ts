import { outboxHealth, type OutboxHealth } from '../outbox/health.ts'
import { capacityOf, seatsTakenAt, type SeatKind } from '../seats/seats.ts'
import { waitingListLengths } from '../seats/waiting-list.ts'
import { businessClock, wallClock, type BackOfficeContext } from './context.ts'
import { byEvent, registrationMoney, sumOf } from './event-money.ts'

export interface EventFigures {
  /** The event's back-office key (eventKeyOf): its registrations stay together when its slug is renamed. */
  eventId: string
  /** The slug, title and start of its newest registration's copy of the event. */
  eventSlug: string
  eventTitle: string
  eventStart: string
  /** Registrations not cancelled as a whole. */
  registrations: number
  /** Delegates still attending: cancelled ones are left out. */
  delegates: number
  /** Incl. VAT: money received, refunded or not: registrations paid in full plus the bank transfers of the others. */
  receivedCents: number
  /** Incl. VAT: money given back, by card or paid out by transfer (refunds still waiting are not counted). */
  refundedCents: number
  /** Incl. VAT: what was received and kept, received less refunded. */
  netCents: number
  /** Incl. VAT: what the registrations still owe, after what their cancellations credited. */
  awaitingCents: number
  seats: EventSeatFigures
  /** Entries of its waiting list still waiting or holding an offer. */
  waitingList: number
}

/** The seats an event's attending delegates take, and its limits now (null: no limit), at the venue and online. */
export type EventSeatFigures = Record<SeatKind, { taken: number; capacity: number | null }>

/** The seat figures of these events (by back-office key), their limits read from the content by slug. */
export async function eventSeatFigures(
  context: BackOfficeContext,
  events: ReadonlyArray<{ eventId: string; eventSlug: string }>,
): Promise<Map<string, EventSeatFigures>> {
  const taken = await seatsTakenAt(
    context.db.kysely,
    events.map((event) => event.eventId),
  )
  const entries = await Promise.all(
    events.map(async ({ eventId, eventSlug }): Promise<[string, EventSeatFigures]> => {
      const event = await context.catalog.getEvent(eventSlug)
      const counts = taken.get(eventId) ?? { venue: 0, online: 0 }
      return [
        eventId,
        {
          venue: { taken: counts.venue, capacity: event ? capacityOf(event, 'venue') : null },
          online: { taken: counts.online, capacity: event ? capacityOf(event, 'online') : null },
        },
      ]
    }),
  )
  return new Map(entries)
}

export interface Dashboard {
  /** Events not yet over by the business clock that have registrations, soonest first. */
  events: EventFigures[]
  outbox: OutboxHealth
}

/** The back office's front page: registrations, delegates and money (received, refunded, net, awaited) per upcoming event, and the outbox's health. */
export async function dashboard(context: BackOfficeContext): Promise<Dashboard> {
  const [registrations, outbox] = await Promise.all([
    registrationMoney(context.db.kysely, { upcomingAt: businessClock(context).toISOString() }),
    outboxHealth(context.db, wallClock(context)),
  ])
  const perEvent = byEvent(registrations)
  const seats = await eventSeatFigures(
    context,
    perEvent.map((event) => ({ eventId: event.eventKey, eventSlug: event.eventSlug })),
  )
  const waiting = await waitingListLengths(
    context.db.kysely,
    perEvent.map((event) => event.eventKey),
  )
  const events = perEvent.map((event): EventFigures => {
    const receivedCents = sumOf(event.registrations, (registration) => registration.receivedCents)
    const refundedCents = sumOf(event.registrations, (registration) => registration.refundedCents)
    return {
      eventId: event.eventKey,
      eventSlug: event.eventSlug,
      eventTitle: event.eventTitle,
      eventStart: event.eventStart,
      registrations: event.registrations.filter((registration) => registration.standing).length,
      delegates: sumOf(event.registrations, (registration) => registration.delegatesAttending),
      receivedCents,
      refundedCents,
      netCents: receivedCents - refundedCents,
      awaitingCents: sumOf(event.registrations, (registration) => registration.outstandingCents),
      seats: seats.get(event.eventKey)!,
      waitingList: waiting.get(event.eventKey) ?? 0,
    }
  })
  return { events, outbox }
}
