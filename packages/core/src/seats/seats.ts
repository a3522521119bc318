import type { OptionKey } from '@events/pricing'
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import { ValidationError } from '../errors.ts'

/** Where a delegate sits: in the room (venue, early-bird and table options) or online. */
export type SeatKind = 'venue' | 'online'

/** An event's limits: the seats in the room and the online places; null or absent means no limit. */
export interface EventCapacity {
  venueCapacity?: number | null
  onlineCapacity?: number | null
}

export type SeatCounts = Record<SeatKind, number>

/** The seats still free of each kind; null where the event sets no limit. */
export type SeatsLeft = Record<SeatKind, number | null>

/** When this many seats or fewer remain, visitors are told how many ("Only 4 seats left at the venue"). */
export const FEW_SEATS_LEFT = 10

/** An online delegate takes an online place; every other option (venue, early-bird, a table) takes a seat in the room. */
export function seatKindOf(optionKey: string): SeatKind {
  return optionKey === ('online' satisfies OptionKey) ? 'online' : 'venue'
}

export function capacityOf(event: EventCapacity, kind: SeatKind): number | null {
  return (kind === 'venue' ? event.venueCapacity : event.onlineCapacity) ?? null
}

export function seatsLeftOf(event: EventCapacity, taken: SeatCounts): SeatsLeft {
  const left = (kind: SeatKind) => {
    const capacity = capacityOf(event, kind)
    return capacity === null ? null : Math.max(0, capacity - taken[kind])
  }
  return { venue: left('venue'), online: left('online') }
}

type Queries = Kysely<Database> | Transaction<Database>

/**
 * The seats taken at each of these events: the delegates still attending (not cancelled, on a registration not
 * cancelled), paid or not, each of their own attendance, and the seats held by waiting-list offers not yet taken up
 * or expired. A substitution changes a delegate's name, not their seat.
 */
export async function seatsTakenAt(queries: Queries, eventIds: readonly string[]): Promise<Map<string, SeatCounts>> {
  const taken = new Map<string, SeatCounts>(eventIds.map((id) => [id, { venue: 0, online: 0 }]))
  if (eventIds.length === 0) return taken
  const rows = await queries
    .selectFrom('registrations')
    .innerJoin('registration_delegates', 'registration_delegates.registration_id', 'registrations.id')
    .select(['registrations.event_id', 'registration_delegates.attendance'])
    .select((eb) => eb.fn.countAll<number | string>().as('delegates'))
    .where('registrations.event_id', 'in', [...eventIds])
    .where('registrations.cancelled_at', 'is', null)
    .where('registration_delegates.cancellation_id', 'is', null)
    .groupBy(['registrations.event_id', 'registration_delegates.attendance'])
    .execute()
  const held = await queries
    .selectFrom('waiting_list_entries')
    .select(['event_id', 'attendance'])
    .select((eb) => eb.fn.sum<number | string>('seats').as('seats'))
    .where('event_id', 'in', [...eventIds])
    .where('state', '=', 'offered')
    .groupBy(['event_id', 'attendance'])
    .execute()
  for (const eventId of eventIds) {
    const counts: SeatCounts = { venue: 0, online: 0 }
    for (const row of rows) if (row.event_id === eventId) counts[row.attendance] += Number(row.delegates)
    for (const offer of held) if (offer.event_id === eventId) counts[offer.attendance] += Number(offer.seats)
    taken.set(eventId, counts)
  }
  return taken
}

export async function seatsTaken(queries: Queries, eventId: string): Promise<SeatCounts> {
  return (await seatsTakenAt(queries, [eventId])).get(eventId)!
}

/**
 * Takes the event's turn at its seats inside the caller's transaction: its row in event_seats is written, and on
 * PostgreSQL that row's lock makes every other transaction that changes the event's seats (a registration, a
 * waiting-list offer) wait here until this one ends, so a count made after it sees every seat committed before,
 * whichever instance took it.
 */
export async function lockEventSeats(transaction: Transaction<Database>, eventId: string, now: Date): Promise<void> {
  const claimedAt = now.toISOString()
  await transaction
    .insertInto('event_seats')
    .values({ event_id: eventId, claimed_at: claimedAt })
    .onConflict((conflict) => conflict.column('event_id').doUpdateSet({ claimed_at: claimedAt }))
    .execute()
}

/** The seats of each kind still free at an event, counted under its lock (lockEventSeats) by the caller. */
export async function seatsLeftAt(transaction: Transaction<Database>, event: EventCapacity & { id: string }): Promise<SeatsLeft> {
  return seatsLeftOf(event, await seatsTaken(transaction, event.id))
}

/**
 * Takes the seats of each kind a registration needs (`wanted`: its venue and its online delegates) inside its
 * transaction, or refuses the whole registration (`sold-out`, saying how many of that kind are left), the event's
 * seats locked first (lockEventSeats) so none is sold twice. `held` seats are the registrant's own, held for them by
 * a waiting-list offer they register through: they count as free for this registration only. A kind without a limit
 * at the event, or not wanted, takes no turn.
 */
export async function takeSeats(
  transaction: Transaction<Database>,
  event: EventCapacity & { id: string },
  wanted: SeatCounts,
  now: Date,
  held: Partial<SeatCounts> = {},
): Promise<void> {
  const limited = (['venue', 'online'] as const).filter((kind) => wanted[kind] > 0 && capacityOf(event, kind) !== null)
  if (limited.length === 0) return
  await lockEventSeats(transaction, event.id, now)
  const taken = await seatsTaken(transaction, event.id)
  for (const kind of limited) {
    const left = Math.max(0, capacityOf(event, kind)! - taken[kind] + (held[kind] ?? 0))
    if (wanted[kind] > left) {
      throw new ValidationError('sold-out', [{ path: 'attendanceOption', code: 'sold-out', seatsLeft: left, seatKind: kind, seatsWanted: wanted[kind] }])
    }
  }
}

/**
 * What visitors are told about an event's seats, from its limits, the options it offers and the seats taken: how many
 * remain of each kind it offers (null where there is no limit or the kind is not offered), and whether the room or
 * everything is sold out.
 */
export interface SeatStatus {
  venueLeft: number | null
  onlineLeft: number | null
  venueSoldOut: boolean
  soldOut: boolean
}

export function seatStatusOf(event: EventCapacity, optionKeys: ReadonlyArray<string | null | undefined>, taken: SeatCounts): SeatStatus {
  const offered = new Set(optionKeys.filter((key): key is string => typeof key === 'string').map(seatKindOf))
  const left = seatsLeftOf(event, taken)
  const venueLeft = offered.has('venue') ? left.venue : null
  const onlineLeft = offered.has('online') ? left.online : null
  const venueSoldOut = venueLeft === 0
  const soldOut = offered.size > 0 && [...offered].every((kind) => left[kind] === 0)
  return { venueLeft, onlineLeft, venueSoldOut, soldOut }
}

/**
 * The part of a seat status a page shows: the exact count once FEW_SEATS_LEFT or fewer remain, "many" above. Pages
 * are kept per this key, so a page changes exactly when what it says about seats would.
 */
export function visibleSeatsKey(status: SeatStatus): string {
  const shown = (left: number | null) => (left === null ? '-' : left > FEW_SEATS_LEFT ? 'many' : String(left))
  return `${shown(status.venueLeft)}/${shown(status.onlineLeft)}`
}
