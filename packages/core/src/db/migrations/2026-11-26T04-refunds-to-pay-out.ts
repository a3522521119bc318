import type { Kysely } from 'kysely'

// A bank transfer of more than was owed is recorded in full; what it paid beyond the registration's amount is a
// credit owed back to the registrant (`surplus_refunds`), paid out by staff like a cancellation's bank refund. The
// account a registrant's refunds are paid into is kept once per registration (`refund_bank_details`).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('surplus_refunds')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('registration_id', 'text', (column) => column.notNull().references('registrations.id'))
    .addColumn('bank_payment_id', 'text', (column) => column.notNull().unique().references('bank_payments.id'))
    .addColumn('amount_cents', 'integer', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('paid_out_on', 'text')
    .addColumn('bank_reference', 'text')
    .addColumn('paid_out_by_name', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('surplus_refunds_registration').on('surplus_refunds').column('registration_id').execute()
  await db.schema
    .createTable('refund_bank_details')
    .addColumn('registration_id', 'text', (column) => column.primaryKey().references('registrations.id'))
    .addColumn('account_holder', 'text', (column) => column.notNull())
    .addColumn('bank_name', 'text', (column) => column.notNull())
    .addColumn('branch_code', 'text', (column) => column.notNull())
    .addColumn('account_number', 'text', (column) => column.notNull())
    .addColumn('updated_by_name', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('refund_bank_details').execute()
  await db.schema.dropTable('surplus_refunds').execute()
}
