import { outboxHealth, type OutboxHealth } from '../outbox/health.ts'
import { eventKeyOf } from '../registration/event-ids.ts'
import { paidCentsOf } from '../registration/payment-state.ts'
import { capacityOf, seatsTakenAt, type SeatKind } from '../seats/seats.ts'
import { businessClock, wallClock, type BackOfficeContext } from './context.ts'

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
}

/** The seats an event's attending delegates take, and its limits now (null: no limit), at the venue and online. */
export type EventSeatFigures = Record<SeatKind, { taken: number; capacity: number | null }>

/** The seat figures of these events (by back-office key), their limits read from the content by slug. */
export async function eventSeatFigures(context: BackOfficeContext, events: ReadonlyArray<{ eventId: string; eventSlug: string }>): Promise<Map<string, EventSeatFigures>> {
  const taken = await seatsTakenAt(context.db.kysely, events.map((event) => event.eventId))
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
  const { kysely } = context.db
  const now = businessClock(context).toISOString()
  const [registrations, attending, outbox] = await Promise.all([
    // One row a registration, with what it received by transfer and what its cancellations credited.
    kysely
      .selectFrom('registrations')
      .leftJoin(
        (eb) => eb.selectFrom('bank_payments').select((inner) => ['registration_id', inner.fn.sum<number | string>('amount_cents').as('received_cents')]).groupBy('registration_id').as('received'),
        (join) => join.onRef('received.registration_id', '=', 'registrations.id'),
      )
      .leftJoin(
        (eb) =>
          eb
            .selectFrom('refunds')
            .select((inner) => ['registration_id', inner.fn.sum<number | string>('amount_cents').as('refunded_cents')])
            .where('status', 'in', ['succeeded', 'paid-out'])
            .groupBy('registration_id')
            .as('refunded'),
        (join) => join.onRef('refunded.registration_id', '=', 'registrations.id'),
      )
      .leftJoin(
        (eb) =>
          eb.selectFrom('cancellations').select((inner) => ['registration_id', inner.fn.sum<number | string>('credited_total_cents').as('credited_cents')]).groupBy('registration_id').as('credited'),
        (join) => join.onRef('credited.registration_id', '=', 'registrations.id'),
      )
      .select(['event_id', 'event_slug', 'event_title', 'event_start', 'created_at', 'status', 'total_cents', 'cancelled_at', 'received.received_cents', 'refunded.refunded_cents', 'credited.credited_cents'])
      .where('event_end', '>', now)
      .execute(),
    kysely
      .selectFrom('registration_delegates')
      .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
      .select((eb) => ['registrations.event_id', 'registrations.event_slug', eb.fn.countAll<number | string>().as('delegates')])
      .where('registration_delegates.cancellation_id', 'is', null)
      .where('registrations.event_end', '>', now)
      .groupBy(['registrations.event_id', 'registrations.event_slug'])
      .execute(),
    outboxHealth(context.db, wallClock(context)),
  ])
  const delegatesBy = new Map<string, number>()
  for (const row of attending) delegatesBy.set(eventKeyOf(row), (delegatesBy.get(eventKeyOf(row)) ?? 0) + Number(row.delegates))
  const figuresBy = new Map<string, EventFigures>()
  const newestBy = new Map<string, string>()
  for (const row of registrations) {
    const key = eventKeyOf(row)
    const figures = figuresBy.get(key) ?? {
      eventId: key,
      eventSlug: row.event_slug,
      eventTitle: row.event_title,
      eventStart: row.event_start,
      registrations: 0,
      delegates: delegatesBy.get(key) ?? 0,
      receivedCents: 0,
      refundedCents: 0,
      netCents: 0,
      awaitingCents: 0,
      seats: { venue: { taken: 0, capacity: null }, online: { taken: 0, capacity: null } },
    }
    // A renamed or re-dated event shows as its newest registration has it.
    if (row.created_at >= (newestBy.get(key) ?? '')) {
      Object.assign(figures, { eventSlug: row.event_slug, eventTitle: row.event_title, eventStart: row.event_start })
      newestBy.set(key, row.created_at)
    }
    const paidCents = paidCentsOf(row, Number(row.received_cents ?? 0))
    if (row.cancelled_at === null) figures.registrations += 1
    const refundedCents = Number(row.refunded_cents ?? 0)
    figures.receivedCents += paidCents
    figures.refundedCents += refundedCents
    figures.netCents += paidCents - refundedCents
    figures.awaitingCents += Math.max(0, row.total_cents - Number(row.credited_cents ?? 0) - paidCents)
    figuresBy.set(key, figures)
  }
  const seats = await eventSeatFigures(context, [...figuresBy.values()])
  for (const figures of figuresBy.values()) figures.seats = seats.get(figures.eventId)!
  const events = [...figuresBy.values()].sort((a, b) => a.eventStart.localeCompare(b.eventStart) || a.eventId.localeCompare(b.eventId))
  return { events, outbox }
}
