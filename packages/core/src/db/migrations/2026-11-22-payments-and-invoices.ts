import type { Kysely } from 'kysely'

// Card checkouts, the webhooks received about them, and gap-free tax invoice numbers.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('registrations').addColumn('paid_at', 'text').execute()

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

  // Keyed by the webhook-id header: a redelivered webhook finds its row and changes nothing.
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

  await db.schema
    .createTable('invoice_counters')
    .addColumn('series', 'text', (column) => column.primaryKey())
    .addColumn('last_number', 'integer', (column) => column.notNull())
    .execute()

  await db.schema
    .createTable('invoices')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('registration_id', 'text', (column) => column.notNull().unique().references('registrations.id').onDelete('cascade'))
    .addColumn('number', 'integer', (column) => column.notNull().unique())
    .addColumn('issued_at', 'text', (column) => column.notNull())
    .addColumn('pdf_base64', 'text', (column) => column.notNull())
    .execute()
}
