import { outboxHealth, type OutboxHealth } from '../outbox/health.ts'
import { paidCentsOf } from '../registration/payment-state.ts'
import { businessClock, wallClock, type BackOfficeContext } from './context.ts'

export interface EventFigures {
  eventSlug: string
  eventTitle: string
  eventStart: string
  /** Registrations not cancelled as a whole. */
  registrations: number
  /** Delegates still attending: cancelled ones are left out. */
  delegates: number
  /** Incl. VAT: registrations paid in full plus the bank transfers of the others. */
  paidCents: number
  /** Incl. VAT: what the registrations still owe, after what their cancellations credited. */
  awaitingCents: number
}

export interface Dashboard {
  /** Events not yet over by the business clock that have registrations, soonest first. */
  events: EventFigures[]
  outbox: OutboxHealth
}

/** The back office's front page: registrations, delegates and money per upcoming event, and the outbox's health. */
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
          eb.selectFrom('cancellations').select((inner) => ['registration_id', inner.fn.sum<number | string>('credited_total_cents').as('credited_cents')]).groupBy('registration_id').as('credited'),
        (join) => join.onRef('credited.registration_id', '=', 'registrations.id'),
      )
      .select(['event_slug', 'event_title', 'event_start', 'status', 'total_cents', 'cancelled_at', 'received.received_cents', 'credited.credited_cents'])
      .where('event_end', '>', now)
      .execute(),
    kysely
      .selectFrom('registration_delegates')
      .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
      .select((eb) => ['registrations.event_slug', eb.fn.countAll<number | string>().as('delegates')])
      .where('registration_delegates.cancellation_id', 'is', null)
      .where('registrations.event_end', '>', now)
      .groupBy('registrations.event_slug')
      .execute(),
    outboxHealth(context.db, wallClock(context)),
  ])
  const delegatesBy = new Map(attending.map((row) => [row.event_slug, Number(row.delegates)]))
  const figuresBy = new Map<string, EventFigures>()
  for (const row of registrations) {
    const figures = figuresBy.get(row.event_slug) ?? {
      eventSlug: row.event_slug,
      eventTitle: row.event_title,
      eventStart: row.event_start,
      registrations: 0,
      delegates: delegatesBy.get(row.event_slug) ?? 0,
      paidCents: 0,
      awaitingCents: 0,
    }
    const paidCents = paidCentsOf(row, Number(row.received_cents ?? 0))
    if (row.cancelled_at === null) figures.registrations += 1
    figures.paidCents += paidCents
    figures.awaitingCents += Math.max(0, row.total_cents - Number(row.credited_cents ?? 0) - paidCents)
    figuresBy.set(row.event_slug, figures)
  }
  const events = [...figuresBy.values()].sort((a, b) => a.eventStart.localeCompare(b.eventStart) || a.eventSlug.localeCompare(b.eventSlug))
  return { events, outbox }
}
