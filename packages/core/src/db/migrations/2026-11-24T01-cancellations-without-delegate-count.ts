import { sql, type Kysely } from 'kysely'

// cancellations.delegate_count was written with each cancellation and never read: what a cancellation covered is read
// from its delegates (registration_delegates.cancellation_id). registrations.delegate_count stays: the back office's
// registration list and events screen read it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cancellations').dropColumn('delegate_count').execute()
}

// Counted again from the delegates each cancellation marked.
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('cancellations')
    .addColumn('delegate_count', 'integer', (column) => column.notNull().defaultTo(0))
    .execute()
  await sql`update cancellations set delegate_count = (select count(*) from registration_delegates where registration_delegates.cancellation_id = cancellations.id)`.execute(
    db,
  )
}
