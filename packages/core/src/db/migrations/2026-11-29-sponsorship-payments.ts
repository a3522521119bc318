import type { Kysely } from 'kysely'

// Bank transfers recorded against sponsorship deals (typed in, or a statement line naming the deal's reference), kept
// apart from bank_payments because bank_payments.registration_id names a registration; a bank reference is recorded
// once across both (recordBankTransfer checks both tables). A deal may send its codes only once its invoice is paid:
// `codes_sent_at` is when the codes were first e-mailed, `paid_at` when the invoice was paid in full.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sponsorship_payments')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('deal_id', 'varchar(36)', (column) => column.notNull().references('sponsorship_deals.id'))
    .addColumn('amount_cents', 'integer', (column) => column.notNull())
    .addColumn('received_on', 'varchar(10)', (column) => column.notNull())
    .addColumn('bank_reference', 'text', (column) => column.notNull().unique())
    .addColumn('note', 'text', (column) => column.notNull())
    .addColumn('recorded_by_id', 'text', (column) => column.notNull())
    .addColumn('recorded_by_name', 'text', (column) => column.notNull())
    .addColumn('recorded_at', 'varchar(40)', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('sponsorship_payments_deal').on('sponsorship_payments').column('deal_id').execute()
  await db.schema
    .alterTable('sponsorship_deals')
    .addColumn('send_codes_when', 'varchar(20)', (column) => column.notNull().defaultTo('approved'))
    .execute()
  await db.schema.alterTable('sponsorship_deals').addColumn('codes_sent_at', 'varchar(40)').execute()
  await db.schema.alterTable('sponsorship_deals').addColumn('paid_at', 'varchar(40)').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sponsorship_deals').dropColumn('paid_at').execute()
  await db.schema.alterTable('sponsorship_deals').dropColumn('codes_sent_at').execute()
  await db.schema.alterTable('sponsorship_deals').dropColumn('send_codes_when').execute()
  await db.schema.dropTable('sponsorship_payments').execute()
}
