import type { Kysely } from 'kysely'

// Bank transfers recorded by staff against a registration; several may add up to its total (status 'part-paid').
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bank_payments')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('registration_id', 'text', (column) => column.notNull().references('registrations.id').onDelete('cascade'))
    .addColumn('amount_cents', 'integer', (column) => column.notNull())
    .addColumn('received_on', 'text', (column) => column.notNull())
    // Kept upper-cased and with single spaces, so the same transfer typed twice meets the unique index.
    .addColumn('bank_reference', 'text', (column) => column.notNull().unique())
    .addColumn('note', 'text', (column) => column.notNull())
    .addColumn('recorded_by_id', 'text', (column) => column.notNull())
    .addColumn('recorded_by_name', 'text', (column) => column.notNull())
    .addColumn('recorded_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('bank_payments_registration').on('bank_payments').column('registration_id').execute()
}
