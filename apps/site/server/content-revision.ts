import { availabilityScheduleQuery, fetchWholeContent, type AvailabilityScheduleQueryResult } from '@events/content'
import { nextAvailabilityChange } from '@events/pricing'
import type { SanityClient } from '@sanity/client'

/**
 * The revision of the content this process serves: a number bumped whenever the content changes (the dataset file,
 * a Sanity webhook, another instance's notice), and the listeners that drop what was made from the previous one.
 */
export interface ContentRevision {
  current(): number
  /** The content changed: a new revision, and every listener told. */
  bump(): void
  onChange(listener: () => void): void
}

export function createContentRevision(): ContentRevision {
  let revision = 0
  const listeners: (() => void)[] = []
  return {
    current: () => revision,
    bump() {
      revision += 1
      for (const listener of listeners) listener()
    },
    onChange(listener) {
      listeners.push(listener)
    },
  }
}

export interface AvailabilityEpochOptions {
  content: SanityClient
  revision: ContentRevision
  /** The business clock (SITE_DATE aware). */
  now: () => Date
}

/**
 * The availability epoch at the business clock's now: the next instant at which an early-bird window ends, a
 * registration closes or an event starts ("never" when none is left). A page rendered in one epoch shows the same
 * availability until it ends. The events' moments are read once per content revision.
 */
export function availabilityEpoch({ content, revision, now }: AvailabilityEpochOptions): () => Promise<string> {
  let schedule: { revision: number; events: Promise<AvailabilityScheduleQueryResult> } | undefined
  // Every public page request asks; the answer is worked out again only once its epoch has ended (or the clock went
  // back, or the events changed), rather than parsing every event's dates per request.
  let known: { events: AvailabilityScheduleQueryResult; from: number; until: number; epoch: string } | undefined
  return async () => {
    const current = revision.current()
    if (schedule?.revision !== current) {
      const events = fetchWholeContent<AvailabilityScheduleQueryResult>(content, availabilityScheduleQuery)
      schedule = { revision: current, events }
      // A failed read is not kept: the next request asks again.
      events.catch(() => {
        if (schedule?.events === events) schedule = undefined
      })
    }
    const events = await schedule.events
    const instant = now().getTime()
    if (known?.events !== events || instant < known.from || instant >= known.until) {
      const change = nextAvailabilityChange(events, new Date(instant))
      known = { events, from: instant, until: change?.getTime() ?? Number.POSITIVE_INFINITY, epoch: change?.toISOString() ?? 'never' }
    }
    return known.epoch
  }
}
