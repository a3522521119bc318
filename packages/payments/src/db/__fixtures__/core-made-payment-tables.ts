import type { Kysely } from 'kysely'

// The payment tables as the core's migration 2026-11-22-payments-and-invoices created them until the payments package
// took them over: its statements for these two tables, as they landed. The upgrade test builds a database of that
// release with them.
export async function createPaymentTablesAsCoreDid(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_checkouts')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('registration_id', 'text', (column) => column.notNull().references('registrations.id').onDelete('cascade'))
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('attempt', 'integer', (column) => column.notNull())
    .addColumn('amount_cents', 'integer', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('redirect_url', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('payment_id', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('payment_checkouts_attempt', ['registration_id', 'attempt'])
    .execute()

  await db.schema
    .createTable('payment_webhooks')
    .addColumn('webhook_id', 'text', (column) => column.primaryKey())
    .addColumn('event_type', 'text', (column) => column.notNull())
    .addColumn('checkout_id', 'text')
    .addColumn('registration_id', 'text')
    .addColumn('amount_cents', 'integer')
    .addColumn('currency', 'text')
    .addColumn('outcome', 'text', (column) => column.notNull())
    .addColumn('body', 'text', (column) => column.notNull())
    .addColumn('received_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('payment_webhooks_registration').on('payment_webhooks').column('registration_id').execute()
}
