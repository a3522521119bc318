import type { Kysely } from 'kysely'

// The waiting list of sold-out events: one row per visitor waiting for seats, in the order they joined (`position`,
// per event). An entry in state `offered` holds its seats until `offered_until` (the business clock): the seat count
// adds them to the delegates, so they are never sold to someone else. Only the hash of the offer link's token is kept.
// Every change of an entry is kept in waiting_list_changes. Additive only.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('waiting_list_entries')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('event_id', 'varchar(200)', (column) => column.notNull())
    .addColumn('event_slug', 'text', (column) => column.notNull())
    .addColumn('event_title', 'text', (column) => column.notNull())
    .addColumn('position', 'integer', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('company_name', 'text', (column) => column.notNull())
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('tel', 'text', (column) => column.notNull())
    .addColumn('seats', 'integer', (column) => column.notNull())
    .addColumn('attendance', 'varchar(10)', (column) => column.notNull())
    .addColumn('state', 'varchar(20)', (column) => column.notNull())
    .addColumn('offer_token_hash', 'varchar(64)', (column) => column.unique())
    .addColumn('offered_until', 'varchar(40)')
    .addColumn('registration_id', 'varchar(36)')
    .addColumn('created_at', 'varchar(40)', (column) => column.notNull())
    .addColumn('updated_at', 'varchar(40)', (column) => column.notNull())
    .addUniqueConstraint('waiting_list_entries_event_position', ['event_id', 'position'])
    .execute()
  await db.schema.createIndex('waiting_list_entries_state').on('waiting_list_entries').columns(['state', 'event_id']).execute()
  await db.schema
    .createTable('waiting_list_changes')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('entry_id', 'varchar(36)', (column) => column.notNull())
    .addColumn('action', 'varchar(40)', (column) => column.notNull())
    .addColumn('actor_name', 'text')
    .addColumn('details_json', 'text', (column) => column.notNull())
    .addColumn('at', 'varchar(40)', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('waiting_list_changes_entry').on('waiting_list_changes').column('entry_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('waiting_list_changes').execute()
  await db.schema.dropTable('waiting_list_entries').execute()
}
