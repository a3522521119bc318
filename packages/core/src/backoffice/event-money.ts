import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { dayIn } from './fields.ts'
import { firstInvoicedOn } from '../invoice/ageing.ts'
import { eventKeyOf } from '../registration/event-ids.ts'
import { paidCentsOf } from '../registration/payment-state.ts'

/** One registration's money, in cents incl. VAT unless named otherwise. */
export interface RegistrationMoney {
  eventKey: string
  eventSlug: string
  eventTitle: string
  eventStart: string
  /** Whether it still stands: not cancelled as a whole. */
  standing: boolean
  /** Its delegates still attending. */
  delegatesAttending: number
  /** Its tax invoice: the total as registered, excl. VAT, VAT and incl. VAT. */
  invoicedExclVatCents: number
  invoicedVatCents: number
  invoicedCents: number
  /** What its cancellations' credit notes credited, excl. VAT, VAT and incl. VAT. */
  creditedExclVatCents: number
  creditedVatCents: number
  creditedCents: number
  /** Money received, refunded or not: its bank transfers, or the card payment of the whole (`paidCentsOf`). */
  receivedCents: number
  /** Money given back: card refunds made and bank refunds paid out (refunds still owed are not counted). */
  refundedCents: number
  /** What it still owes: invoiced less credited less received, never below nothing. */
  outstandingCents: number
  /** The day its first tax invoice was issued (YYYY-MM-DD), from which what it owes is aged. */
  invoicedOn: string
  createdAt: string
}

/**
 * Every registration's money, in one query with its transfers, refunds, credits and attending delegates summed beside
 * it; `upcomingAt` keeps the events not over at that instant. The dashboard and the finance report both add these up.
 */
export async function registrationMoney(kysely: Kysely<Database>, options: { upcomingAt?: string } = {}): Promise<RegistrationMoney[]> {
  const rows = await kysely
    .selectFrom('registrations')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('bank_payments')
          .select((inner) => ['registration_id', inner.fn.sum<number | string>('amount_cents').as('received_cents')])
          .groupBy('registration_id')
          .as('received'),
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
        eb
          .selectFrom('cancellations')
          .select((inner) => [
            'registration_id',
            inner.fn.sum<number | string>('credited_subtotal_cents').as('credited_subtotal_cents'),
            inner.fn.sum<number | string>('credited_vat_cents').as('credited_vat_cents'),
            inner.fn.sum<number | string>('credited_total_cents').as('credited_cents'),
          ])
          .groupBy('registration_id')
          .as('credited'),
      (join) => join.onRef('credited.registration_id', '=', 'registrations.id'),
    )
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('registration_delegates')
          .select((inner) => ['registration_id', inner.fn.countAll<number | string>().as('attending')])
          .where('cancellation_id', 'is', null)
          .groupBy('registration_id')
          .as('delegates'),
      (join) => join.onRef('delegates.registration_id', '=', 'registrations.id'),
    )
    .select([
      'id',
      'event_id',
      'event_slug',
      'event_title',
      'event_start',
      'created_at',
      'status',
      'subtotal_cents',
      'vat_cents',
      'total_cents',
      'cancelled_at',
    ])
    .select([
      'received.received_cents',
      'refunded.refunded_cents',
      'credited.credited_subtotal_cents',
      'credited.credited_vat_cents',
      'credited.credited_cents',
      'delegates.attending',
    ])
    .$if(options.upcomingAt !== undefined, (query) => query.where('event_end', '>', options.upcomingAt!))
    .execute()
  const invoicedOn = await firstInvoicedOn(
    kysely,
    rows.map((row) => row.id),
  )
  return rows.map((row) => {
    const receivedCents = paidCentsOf(row, Number(row.received_cents ?? 0))
    const creditedCents = Number(row.credited_cents ?? 0)
    return {
      eventKey: eventKeyOf(row),
      eventSlug: row.event_slug,
      eventTitle: row.event_title,
      eventStart: row.event_start,
      standing: row.cancelled_at === null,
      delegatesAttending: Number(row.attending ?? 0),
      invoicedExclVatCents: row.subtotal_cents,
      invoicedVatCents: row.vat_cents,
      invoicedCents: row.total_cents,
      creditedExclVatCents: Number(row.credited_subtotal_cents ?? 0),
      creditedVatCents: Number(row.credited_vat_cents ?? 0),
      creditedCents,
      receivedCents,
      refundedCents: Number(row.refunded_cents ?? 0),
      outstandingCents: Math.max(0, row.total_cents - creditedCents - receivedCents),
      invoicedOn: invoicedOn.get(row.id) ?? dayIn(new Date(row.created_at)),
      createdAt: row.created_at,
    }
  })
}

/**
 * Registrations grouped by event (their back-office key), each group named as its newest registration has the event
 * (a renamed or re-dated event shows as it is now), soonest first.
 */
export function byEvent(
  registrations: readonly RegistrationMoney[],
): Array<{ eventKey: string; eventSlug: string; eventTitle: string; eventStart: string; registrations: RegistrationMoney[] }> {
  const groups = new Map<
    string,
    { eventKey: string; eventSlug: string; eventTitle: string; eventStart: string; newest: string; registrations: RegistrationMoney[] }
  >()
  for (const registration of registrations) {
    const { eventKey, eventSlug, eventTitle, eventStart } = registration
    const group = groups.get(eventKey) ?? { eventKey, eventSlug, eventTitle, eventStart, newest: '', registrations: [] }
    if (registration.createdAt >= group.newest)
      Object.assign(group, {
        eventSlug: registration.eventSlug,
        eventTitle: registration.eventTitle,
        eventStart: registration.eventStart,
        newest: registration.createdAt,
      })
    group.registrations.push(registration)
    groups.set(eventKey, group)
  }
  return [...groups.values()]
    .map(({ newest: _newest, ...group }) => group)
    .sort((a, b) => a.eventStart.localeCompare(b.eventStart) || a.eventKey.localeCompare(b.eventKey))
}

/** The sum of one figure over registrations. */
export function sumOf(registrations: readonly RegistrationMoney[], figure: (registration: RegistrationMoney) => number): number {
  return registrations.reduce((sum, registration) => sum + figure(registration), 0)
}
