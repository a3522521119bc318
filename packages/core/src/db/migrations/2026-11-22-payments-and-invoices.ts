import type { Kysely } from 'kysely'

// When registrations were paid, and gap-free tax invoice numbers. The card checkouts and webhooks this migration also
// created are the payments package's tables now, created by its own migration 2026-11-22-payment-tables: a database
// this ran on keeps them (that migration then finds them), a new one gets them there. Its other steps are unchanged.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('registrations').addColumn('paid_at', 'text').execute()

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
