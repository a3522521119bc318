import { outboxHealth, type OutboxHealth } from '../outbox/health.ts'
import { businessClock, wallClock, type BackOfficeContext } from './context.ts'

export interface EventFigures {
  eventSlug: string
  eventTitle: string
  eventStart: string
  registrations: number
  delegates: number
  /** Incl. VAT: registrations paid in full plus the bank transfers of part-paid ones. */
  paidCents: number
  /** Incl. VAT: what the registrations still owe. */
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
  const [totals, partPayments, outbox] = await Promise.all([
    kysely
      .selectFrom('registrations')
      .select((eb) => [
        'event_slug',
        eb.fn.max('event_title').as('event_title'),
        eb.fn.min('event_start').as('event_start'),
        eb.fn.countAll<number | string>().as('registrations'),
        eb.fn.sum<number | string>('delegate_count').as('delegates'),
        eb.fn.sum<number | string>('total_cents').as('total_cents'),
        eb.fn.sum<number | string>(eb.case().when('status', '=', 'paid').then(eb.ref('total_cents')).else(0).end()).as('paid_in_full_cents'),
      ])
      .where('event_end', '>', now)
      .groupBy('event_slug')
      .execute(),
    kysely
      .selectFrom('bank_payments')
      .innerJoin('registrations', 'registrations.id', 'bank_payments.registration_id')
      .select((eb) => ['registrations.event_slug', eb.fn.sum<number | string>('bank_payments.amount_cents').as('received_cents')])
      .where('registrations.status', '=', 'part-paid')
      .where('registrations.event_end', '>', now)
      .groupBy('registrations.event_slug')
      .execute(),
    outboxHealth(context.db, wallClock(context)),
  ])
  const partPaidBy = new Map(partPayments.map((row) => [row.event_slug, Number(row.received_cents)]))
  const events = totals
    .map((row): EventFigures => {
      const paidCents = Number(row.paid_in_full_cents) + (partPaidBy.get(row.event_slug) ?? 0)
      return {
        eventSlug: row.event_slug,
        eventTitle: row.event_title,
        eventStart: row.event_start,
        registrations: Number(row.registrations),
        delegates: Number(row.delegates),
        paidCents,
        awaitingCents: Number(row.total_cents) - paidCents,
      }
    })
    .sort((a, b) => a.eventStart.localeCompare(b.eventStart) || a.eventSlug.localeCompare(b.eventSlug))
  return { events, outbox }
}
