import type { Kysely } from 'kysely'

// Quotations made before registering, numbered in their own series (Q-000001, counted in invoice_counters): what each
// says (`data_json`) and its PDF once rendered. A quotation holds no seat and is linked to no registration.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('quotes')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('number', 'integer', (column) => column.notNull().unique())
    .addColumn('event_slug', 'text', (column) => column.notNull())
    .addColumn('event_title', 'text', (column) => column.notNull())
    .addColumn('company_name', 'text', (column) => column.notNull())
    .addColumn('total_cents', 'integer', (column) => column.notNull())
    .addColumn('valid_until', 'varchar(40)', (column) => column.notNull())
    .addColumn('issued_at', 'varchar(40)', (column) => column.notNull())
    .addColumn('data_json', 'text', (column) => column.notNull())
    .addColumn('pdf_base64', 'text', (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('quotes').execute()
}
