import type { Kysely } from 'kysely'

// Registrations name their event by its content document id, which a slug rename leaves as it is; event_slug stays
// the slug it had when they were made, like event_title. The rows stored before hold only a slug, and a migration
// cannot ask the content which event that is now: they are left null here and filled where the catalog is, at
// startup (fillRegistrationEventIds in src/registration/event-ids.ts), by slug or through a renamed event's redirects.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('registrations').addColumn('event_id', 'text').execute()
  // The back office filters by event newest first, by id now rather than by slug; the rows not yet filled are found
  // by this index too (event_id null), so the slug's index has no reader left.
  await db.schema.createIndex('registrations_event_id_created').on('registrations').columns(['event_id', 'created_at', 'id']).execute()
  await db.schema.dropIndex('registrations_event_created').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('registrations_event_created').on('registrations').columns(['event_slug', 'created_at', 'id']).execute()
  await db.schema.dropIndex('registrations_event_id_created').execute()
  await db.schema.alterTable('registrations').dropColumn('event_id').execute()
}
