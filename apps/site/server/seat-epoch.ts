import { seatStatusOf, seatsTakenAt, visibleSeatsKey, type CoreDatabase } from '@events/core'
import { availabilityScheduleQuery, fetchWholeContent, type AvailabilityScheduleQueryResult } from '@events/content'
import type { SanityClient } from '@sanity/client'
import type { ContentRevision } from './content-revision'

/**
 * How long a seat count is reused before the database is asked again. It bounds how long a kept page may show seats
 * that another instance (or a cancellation) has since taken or freed; this instance's own registrations end it at once.
 */
export const SEAT_EPOCH_MS = 2_000

export interface SeatEpochOptions {
  content: SanityClient
  revision: ContentRevision
  db: CoreDatabase
  now?: () => number
  onProblem?: (message: string) => void
}

export interface SeatEpoch {
  /** What every seat-limited event's page says about its seats (no database read when no event limits them). */
  current(): Promise<string>
  /** The seats changed here: the next page request counts them again. */
  changed(): void
}

/**
 * The seats part of a kept page's variant: for each event with a limit, the seats left as pages show them (the exact
 * number from FEW_SEATS_LEFT down, "many" above). A page kept under one value is rendered again once a count crosses
 * what it says, at most SEAT_EPOCH_MS later.
 */
export function seatEpoch({ content, revision, db, now = Date.now, onProblem }: SeatEpochOptions): SeatEpoch {
  let limits: { revision: number; events: Promise<AvailabilityScheduleQueryResult> } | undefined
  let known: { key: string; until: number; revision: number } | undefined
  let pending: Promise<string> | undefined
  const read = async (): Promise<string> => {
    const current = revision.current()
    if (limits?.revision !== current) {
      const events = fetchWholeContent<AvailabilityScheduleQueryResult>(content, availabilityScheduleQuery)
      limits = { revision: current, events }
      events.catch(() => {
        if (limits?.events === events) limits = undefined
      })
    }
    const limited = (await limits.events).filter((event) => event.venueCapacity != null || event.onlineCapacity != null)
    if (limited.length === 0) return ''
    const ids = limited.map((event) => event._id.replace(/^drafts\./, ''))
    const taken = await seatsTakenAt(db.kysely, ids)
    return limited
      .map(
        (event, index) =>
          `${ids[index]}=${visibleSeatsKey(
            seatStatusOf(
              event,
              (event.options ?? []).map((option) => option.key),
              taken.get(ids[index]!)!,
            ),
          )}`,
      )
      .join(',')
  }
  return {
    async current() {
      if (known && now() < known.until && known.revision === revision.current()) return known.key
      const forRevision = revision.current()
      pending ??= read()
        .then(
          (key) => {
            known = { key, until: now() + SEAT_EPOCH_MS, revision: forRevision }
            return key
          },
          (error: unknown) => {
            // Pages that need no database go on serving while it is away; their seats are counted once it is back.
            onProblem?.(`Seats could not be counted for the page cache: ${(error as Error).message}`)
            return 'seats-unknown'
          },
        )
        .finally(() => {
          pending = undefined
        })
      return pending
    },
    changed() {
      known = undefined
    },
  }
}
