import type { Kysely } from 'kysely'

// The messages staff wrote to an event's delegates: what, to whom (the filters) and to how many, for the event's log.
// Each delegate's copy is an outbox e-mail under their registration. Additive only.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('delegate_messages')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('event_id', 'varchar(200)', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('body', 'text', (column) => column.notNull())
    .addColumn('filters_json', 'text', (column) => column.notNull())
    .addColumn('recipient_count', 'integer', (column) => column.notNull())
    .addColumn('sent_at', 'varchar(40)', (column) => column.notNull())
    .addColumn('sent_by_name', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('delegate_messages_event').on('delegate_messages').columns(['event_id', 'sent_at']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('delegate_messages').execute()
}
