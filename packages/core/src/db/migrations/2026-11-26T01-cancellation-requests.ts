import type { Kysely } from 'kysely'

// Staff ask for a cancellation, a manager approves or declines it: the requests, each with who asked and who decided.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cancellation_requests')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('registration_id', 'text', (column) => column.notNull().references('registrations.id'))
    .addColumn('delegate_ids_json', 'text', (column) => column.notNull())
    .addColumn('fee_percent', 'integer')
    .addColumn('override_reason', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('requested_by_id', 'text', (column) => column.notNull())
    .addColumn('requested_by_name', 'text', (column) => column.notNull())
    .addColumn('requested_at', 'text', (column) => column.notNull())
    .addColumn('decided_by_id', 'text')
    .addColumn('decided_by_name', 'text')
    .addColumn('decided_at', 'text')
    .execute()
  await db.schema.createIndex('cancellation_requests_registration').on('cancellation_requests').columns(['registration_id', 'requested_at']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cancellation_requests').execute()
}
