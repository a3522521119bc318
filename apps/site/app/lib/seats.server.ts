import { SOLD_OUT_NOTICE } from './sold-out'
import { FEW_SEATS_LEFT, seatStatusOf, seatsTakenAt, type CoreDatabase, type EventCapacity, type SeatStatus } from '@events/core'

/** An event as the content describes it, with what its seat status needs. */
export interface SeatedEvent extends EventCapacity {
  _id: string
  priceOptions?: ReadonlyArray<{ key?: string | null }> | null
}

/** A draft's id read as its published event's: registrations name the published one. */
const publishedId = (id: string) => id.replace(/^drafts\./, '')

export function hasSeatLimit(event: EventCapacity): boolean {
  return event.venueCapacity != null || event.onlineCapacity != null
}

/**
 * The seat status of each of these events that limits its seats, by content id, counted in the database now. An
 * event without limits has none: nothing is ever said about its seats, and nothing is read for it.
 */
export async function seatStatusesOf(db: CoreDatabase, events: readonly SeatedEvent[]): Promise<Map<string, SeatStatus>> {
  const limited = events.filter(hasSeatLimit)
  if (limited.length === 0) return new Map()
  const taken = await seatsTakenAt(
    db.kysely,
    limited.map((event) => publishedId(event._id)),
  )
  return new Map(
    limited.map((event) => [
      event._id,
      seatStatusOf(
        event,
        (event.priceOptions ?? []).map((option) => option.key),
        taken.get(publishedId(event._id))!,
      ),
    ]),
  )
}

const isFew = (left: number | null): left is number => left !== null && left > 0 && left <= FEW_SEATS_LEFT

/**
 * What the hero, the cards and the Register tab say about seats, or nothing while plenty remain: the venue's last
 * seats and the last online places alike ("Sold out at the venue; only 1 online place left").
 */
export function seatNotice(status: SeatStatus | undefined): string | undefined {
  if (!status) return undefined
  if (status.soldOut) return SOLD_OUT_NOTICE
  const venue = status.venueSoldOut
    ? 'Sold out at the venue'
    : isFew(status.venueLeft)
      ? `Only ${status.venueLeft} ${status.venueLeft === 1 ? 'seat' : 'seats'} left at the venue`
      : undefined
  const online =
    status.onlineLeft === 0
      ? 'sold out online'
      : isFew(status.onlineLeft)
        ? `only ${status.onlineLeft} online ${status.onlineLeft === 1 ? 'place' : 'places'} left`
        : undefined
  if (venue && online) return `${venue}; ${online}`
  return venue ?? (online && online.charAt(0).toUpperCase() + online.slice(1))
}
