import { sql, type Kysely } from 'kysely'

// The payment reminders queued for a sponsorship deal's tax invoice, kept apart from payment_reminders because its
// registration_id names a registration: the automatic ones (past the invoice's due date, a week before the event) at
// most once each per deal, which the partial unique index holds even when two instances look at the same moment;
// staff's "remind now" as often as they choose. And what a transfer paid beyond a deal's invoice, owed back to the
// sponsor until staff pay it out, with the account to pay it into, like surplus_refunds and refund_bank_details (whose
// registration_id names a registration). Additive only, so the previous release runs beside it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sponsorship_payment_reminders')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('deal_id', 'varchar(36)', (column) => column.notNull().references('sponsorship_deals.id'))
    .addColumn('kind', 'varchar(20)', (column) => column.notNull())
    .addColumn('outstanding_cents', 'integer', (column) => column.notNull())
    .addColumn('business_day', 'varchar(10)', (column) => column.notNull())
    .addColumn('sent_by_name', 'text')
    .addColumn('created_at', 'varchar(40)', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('sponsorship_payment_reminders_once_each')
    .on('sponsorship_payment_reminders')
    .columns(['deal_id', 'kind'])
    .unique()
    .where(sql<boolean>`kind <> 'staff'`)
    .execute()
  await db.schema
    .createTable('sponsorship_surplus_refunds')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('deal_id', 'varchar(36)', (column) => column.notNull().references('sponsorship_deals.id'))
    .addColumn('payment_id', 'varchar(36)', (column) => column.notNull().unique().references('sponsorship_payments.id'))
    .addColumn('amount_cents', 'integer', (column) => column.notNull())
    .addColumn('status', 'varchar(20)', (column) => column.notNull())
    .addColumn('paid_out_on', 'varchar(10)')
    .addColumn('bank_reference', 'text')
    .addColumn('paid_out_by_name', 'text')
    .addColumn('created_at', 'varchar(40)', (column) => column.notNull())
    .addColumn('updated_at', 'varchar(40)', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('sponsorship_surplus_refunds_deal').on('sponsorship_surplus_refunds').column('deal_id').execute()
  await db.schema
    .createTable('sponsorship_refund_bank_details')
    .addColumn('deal_id', 'varchar(36)', (column) => column.primaryKey().references('sponsorship_deals.id'))
    .addColumn('account_holder', 'text', (column) => column.notNull())
    .addColumn('bank_name', 'text', (column) => column.notNull())
    .addColumn('branch_code', 'varchar(10)', (column) => column.notNull())
    .addColumn('account_number', 'varchar(20)', (column) => column.notNull())
    .addColumn('updated_by_name', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'varchar(40)', (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sponsorship_refund_bank_details').execute()
  await db.schema.dropTable('sponsorship_surplus_refunds').execute()
  await db.schema.dropTable('sponsorship_payment_reminders').execute()
}
