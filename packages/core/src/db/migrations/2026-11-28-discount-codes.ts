import type { Kysely } from 'kysely'

// Discount codes (staff's own and those a sponsorship deal gives) and the code each registration used. A code's uses
// are the registrations using it that are not cancelled, counted under the code's own row lock (claimed_at), as
// event_seats does for seats, so a cancelled registration gives its use back without a counter to keep right.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('discount_codes')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('code', 'varchar(40)', (column) => column.notNull().unique())
    .addColumn('kind', 'varchar(20)', (column) => column.notNull())
    .addColumn('percent', 'integer')
    .addColumn('amount_cents', 'integer')
    .addColumn('event_id', 'text')
    .addColumn('event_title', 'text')
    .addColumn('max_uses', 'integer')
    .addColumn('valid_from', 'varchar(10)')
    .addColumn('valid_until', 'varchar(10)')
    .addColumn('option_keys', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('includes_tables', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('source_label', 'text', (column) => column.notNull())
    .addColumn('deal_id', 'varchar(36)')
    .addColumn('voided_at', 'varchar(40)')
    .addColumn('claimed_at', 'varchar(40)')
    .addColumn('created_at', 'varchar(40)', (column) => column.notNull())
    .addColumn('created_by', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('discount_codes_deal_id').on('discount_codes').column('deal_id').execute()
  await db.schema
    .createTable('registration_discounts')
    .addColumn('registration_id', 'varchar(36)', (column) => column.primaryKey().references('registrations.id'))
    .addColumn('discount_code_id', 'varchar(36)', (column) => column.notNull().references('discount_codes.id'))
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('complimentary', 'integer', (column) => column.notNull())
    .addColumn('full_subtotal_cents', 'integer', (column) => column.notNull())
    .addColumn('discount_cents', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'varchar(40)', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('registration_discounts_code').on('registration_discounts').column('discount_code_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('registration_discounts').execute()
  await db.schema.dropTable('discount_codes').execute()
}
