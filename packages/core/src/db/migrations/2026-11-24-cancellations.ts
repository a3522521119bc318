import type { Kysely } from 'kysely'

// Cancellations of whole registrations or single delegates, their credit notes and refunds. Nothing is deleted:
// a cancelled delegate keeps its row and points at its cancellation, a cancelled registration keeps its invoice.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cancellations')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('registration_id', 'text', (column) => column.notNull().references('registrations.id').onDelete('cascade'))
    .addColumn('whole_registration', 'integer', (column) => column.notNull())
    .addColumn('delegate_count', 'integer', (column) => column.notNull())
    .addColumn('cancelled_on', 'text', (column) => column.notNull())
    .addColumn('working_days_before', 'integer', (column) => column.notNull())
    .addColumn('proposed_fee_percent', 'integer', (column) => column.notNull())
    .addColumn('fee_percent', 'integer', (column) => column.notNull())
    .addColumn('fee_override_reason', 'text', (column) => column.notNull())
    .addColumn('cancelled_subtotal_cents', 'integer', (column) => column.notNull())
    .addColumn('fee_subtotal_cents', 'integer', (column) => column.notNull())
    .addColumn('credited_subtotal_cents', 'integer', (column) => column.notNull())
    .addColumn('credited_vat_cents', 'integer', (column) => column.notNull())
    .addColumn('credited_total_cents', 'integer', (column) => column.notNull())
    .addColumn('refundable_cents', 'integer', (column) => column.notNull())
    .addColumn('cancelled_by_id', 'text', (column) => column.notNull())
    .addColumn('cancelled_by_name', 'text', (column) => column.notNull())
    .addColumn('cancelled_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('cancellations_registration').on('cancellations').column('registration_id').execute()

  await db.schema.alterTable('registration_delegates').addColumn('cancellation_id', 'text').execute()
  await db.schema.alterTable('registrations').addColumn('cancelled_at', 'text').execute()

  await db.schema
    .createTable('credit_notes')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('cancellation_id', 'text', (column) => column.notNull().unique().references('cancellations.id').onDelete('cascade'))
    .addColumn('registration_id', 'text', (column) => column.notNull().references('registrations.id').onDelete('cascade'))
    .addColumn('invoice_id', 'text', (column) => column.notNull().references('invoices.id').onDelete('cascade'))
    // Unique so that the series can never hold a number twice, whatever happens to the counter.
    .addColumn('number', 'integer', (column) => column.notNull().unique())
    .addColumn('issued_at', 'text', (column) => column.notNull())
    .addColumn('pdf_base64', 'text', (column) => column.notNull())
    .addColumn('data_json', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('credit_notes_registration').on('credit_notes').column('registration_id').execute()

  await db.schema
    .createTable('refunds')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('cancellation_id', 'text', (column) => column.notNull().unique().references('cancellations.id').onDelete('cascade'))
    .addColumn('registration_id', 'text', (column) => column.notNull().references('registrations.id').onDelete('cascade'))
    .addColumn('method', 'text', (column) => column.notNull())
    .addColumn('amount_cents', 'integer', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('checkout_id', 'text')
    .addColumn('attempts', 'integer', (column) => column.notNull())
    .addColumn('provider_refund_id', 'text')
    .addColumn('outcome_message', 'text', (column) => column.notNull())
    .addColumn('paid_out_on', 'text')
    .addColumn('bank_reference', 'text')
    .addColumn('recorded_by_id', 'text')
    .addColumn('recorded_by_name', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('refunds_registration').on('refunds').column('registration_id').execute()
}
