import type { ExpressionBuilder } from 'kysely'
import type { EventCatalog } from '../catalog.ts'
import type { CoreDatabase, Database } from '../db/database.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'

/** What filling the event ids did: rows given their event's id, and the slugs no event answers to any more. */
export interface EventIdFill {
  filled: number
  unresolved: string[]
}

/**
 * Gives the registrations stored before registrations.event_id existed (migration 2026-11-24T03-registration-event-ids)
 * their event's document id. A migration cannot read the content, so this runs where the catalog is, at startup:
 * each slug is looked up as a registration's is (the event's slug now, or an old slug a renamed event's redirect
 * documents lead from), one update a slug. A slug no event answers to (an event deleted from the content) stays
 * unfilled and is reported; its rows are grouped by that slug (eventKeyOf). Rows another instance filled meanwhile
 * are left alone, so instances starting together agree.
 */
export async function fillRegistrationEventIds(context: { db: CoreDatabase; catalog: EventCatalog }): Promise<EventIdFill> {
  const { kysely } = context.db
  const slugs = await kysely.selectFrom('registrations').select('event_slug').distinct().where('event_id', 'is', null).orderBy('event_slug').execute()
  const outcome: EventIdFill = { filled: 0, unresolved: [] }
  for (const { event_slug: slug } of slugs) {
    const event = await context.catalog.getEvent(slug)
    if (!event) {
      outcome.unresolved.push(slug)
      continue
    }
    const updated = await kysely
      .updateTable('registrations')
      .set({ event_id: event.id })
      .where('event_id', 'is', null)
      .where('event_slug', '=', slug)
      .executeTakeFirst()
    outcome.filled += Number(updated.numUpdatedRows)
  }
  return outcome
}

const SLUG_KEY_PREFIX = 'slug:'

/**
 * How the back office names a registration's event (in its filters and addresses): the event's document id or, for
 * a row whose event is not known by id (see fillRegistrationEventIds), `slug:` and the slug it was made under.
 */
export function eventKeyOf(row: Pick<RegistrationRow, 'event_id' | 'event_slug'>): string {
  return row.event_id ?? `${SLUG_KEY_PREFIX}${row.event_slug}`
}

/** The condition matching the registrations of the event an eventKeyOf key names. */
export function registrationsOfEvent(key: string) {
  return (eb: ExpressionBuilder<Database, 'registrations'>) =>
    key.startsWith(SLUG_KEY_PREFIX)
      ? eb.and([eb('registrations.event_id', 'is', null), eb('registrations.event_slug', '=', key.slice(SLUG_KEY_PREFIX.length))])
      : eb('registrations.event_id', '=', key)
}

export interface EventIdFiller {
  /** Stops retrying and waits for a fill under way, so the database can be closed after it. */
  stop(): Promise<void>
}

export interface EventIdFillerOptions {
  db: CoreDatabase
  catalog: EventCatalog
  log: (line: string) => void
  logProblem: (line: string) => void
  /** How long after a failed fill (the content source down, say) it is tried again. */
  retryMs?: number
}

const FILL_RETRY_MS = 60_000

/**
 * Runs fillRegistrationEventIds beside the site's startup, which does not wait for the content source: until it is
 * done the rows it fills are grouped by slug. A failure is logged and tried again after `retryMs`.
 */
export function startEventIdFiller(options: EventIdFillerOptions): EventIdFiller {
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  let running: Promise<void> = Promise.resolve()
  const attempt = () => {
    running = fillRegistrationEventIds(options).then(
      ({ filled, unresolved }) => {
        if (filled > 0) options.log(`Registrations: gave ${filled} registration(s) their event's document id`)
        if (unresolved.length > 0)
          options.logProblem(`Registrations: no event in the content has the slug ${unresolved.join(', ')}; their registrations stay grouped by slug`)
      },
      (error: unknown) => {
        options.logProblem(`Registrations: could not fill in event ids (${error instanceof Error ? error.message : String(error)}); trying again later`)
        if (!stopped) timer = setTimeout(attempt, options.retryMs ?? FILL_RETRY_MS).unref()
      },
    )
  }
  attempt()
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
