import type { Kysely } from 'kysely'

// Card checkouts and the webhooks received about them. The core's migration 2026-11-22-payments-and-invoices created
// these tables until they became this package's: a database it already ran on has them, with their rows, and this
// migration leaves them as they are; a new database gets them here, after the core's tables they refer to.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_checkouts')
    .ifNotExists()
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

  // Keyed by the webhook-id header: a redelivered webhook finds its row and changes nothing.
  await db.schema
    .createTable('payment_webhooks')
    .ifNotExists()
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
  await db.schema.createIndex('payment_webhooks_registration').ifNotExists().on('payment_webhooks').column('registration_id').execute()
}
