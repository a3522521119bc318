import type { Kysely } from 'kysely'

// Sponsorship deals staff record (a manager approves a price below the package's), with the package's benefits as
// they were when agreed, what has been delivered of them, and their tax invoices. A deal's invoice is numbered from
// the same counter as the registrations' (invoice_counters, series 'invoice'), so the series stays gapless; it is kept
// here because invoices.registration_id names a registration.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sponsorship_deals')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('reference', 'varchar(20)', (column) => column.notNull().unique())
    .addColumn('status', 'varchar(30)', (column) => column.notNull())
    .addColumn('event_id', 'text', (column) => column.notNull())
    .addColumn('event_slug', 'text', (column) => column.notNull())
    .addColumn('event_title', 'text', (column) => column.notNull())
    .addColumn('event_start', 'varchar(40)', (column) => column.notNull())
    .addColumn('codes_valid_until', 'varchar(10)', (column) => column.notNull())
    .addColumn('package_id', 'text', (column) => column.notNull())
    .addColumn('package_title', 'text', (column) => column.notNull())
    .addColumn('package_price_cents', 'integer')
    .addColumn('complimentary_seats', 'integer', (column) => column.notNull())
    .addColumn('participant_discount_percent', 'integer', (column) => column.notNull())
    .addColumn('promotional_text_words', 'integer', (column) => column.notNull())
    .addColumn('literature_pages', 'integer', (column) => column.notNull())
    .addColumn('speaking_slot', 'text', (column) => column.notNull())
    .addColumn('company_name', 'text', (column) => column.notNull())
    .addColumn('address', 'text', (column) => column.notNull())
    .addColumn('vat_number', 'text', (column) => column.notNull())
    .addColumn('purchase_order_number', 'text', (column) => column.notNull())
    .addColumn('contact_name', 'text', (column) => column.notNull())
    .addColumn('contact_email', 'text', (column) => column.notNull())
    .addColumn('contact_tel', 'text', (column) => column.notNull())
    .addColumn('agreed_price_cents', 'integer', (column) => column.notNull())
    .addColumn('vat_rate', 'real', (column) => column.notNull())
    .addColumn('vat_cents', 'integer', (column) => column.notNull())
    .addColumn('total_cents', 'integer', (column) => column.notNull())
    .addColumn('recorded_by', 'text', (column) => column.notNull())
    .addColumn('recorded_at', 'varchar(40)', (column) => column.notNull())
    .addColumn('approved_by', 'text')
    .addColumn('approved_at', 'varchar(40)')
    .addColumn('cancelled_at', 'varchar(40)')
    .addColumn('promo_text', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('promo_text_received_at', 'varchar(40)')
    .addColumn('literature_received_at', 'varchar(40)')
    .addColumn('slot_scheduled_for', 'text', (column) => column.notNull().defaultTo(''))
    .execute()
  await db.schema
    .createTable('sponsorship_invoices')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('deal_id', 'varchar(36)', (column) => column.notNull().references('sponsorship_deals.id'))
    .addColumn('number', 'integer', (column) => column.notNull().unique())
    .addColumn('issued_at', 'varchar(40)', (column) => column.notNull())
    .addColumn('pdf_base64', 'text', (column) => column.notNull())
    .addColumn('data_json', 'text', (column) => column.notNull())
    .execute()
  // A cancelled deal's credit note, numbered in the registrations' credit note series (CN-…).
  await db.schema
    .createTable('sponsorship_credit_notes')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('deal_id', 'varchar(36)', (column) => column.notNull().references('sponsorship_deals.id'))
    .addColumn('number', 'integer', (column) => column.notNull().unique())
    .addColumn('issued_at', 'varchar(40)', (column) => column.notNull())
    .addColumn('pdf_base64', 'text', (column) => column.notNull())
    .addColumn('data_json', 'text', (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sponsorship_credit_notes').execute()
  await db.schema.dropTable('sponsorship_invoices').execute()
  await db.schema.dropTable('sponsorship_deals').execute()
}
