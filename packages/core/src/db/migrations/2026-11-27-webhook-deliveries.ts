import type { Kysely } from 'kysely'

// The webhook deliveries acted on, shared by every instance: a delivery replayed to another instance than the one
// that received it is then recognised too. Additive only, so the previous release runs beside it during a deploy.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('key', 'varchar(600)', (column) => column.primaryKey())
    .addColumn('received_at', 'varchar(40)', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('webhook_deliveries_received_at').on('webhook_deliveries').column('received_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute()
}
