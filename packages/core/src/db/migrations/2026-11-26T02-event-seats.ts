import type { Kysely } from 'kysely'

// One row per event whose seats are limited: a registration's transaction writes it before counting the seats taken,
// so registrations for the same event take their seats one after the other, on every instance sharing the database
// (PostgreSQL holds the row's lock until the commit; SQLite has a single writer anyway). The seats themselves are
// counted from the delegates, never kept here, so a cancellation gives them back by itself. Additive only.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_seats')
    .addColumn('event_id', 'varchar(200)', (column) => column.primaryKey())
    .addColumn('claimed_at', 'varchar(40)', (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_seats').execute()
}
