import { sql, type Kysely } from 'kysely'

// The payment reminders queued for a registration: the automatic ones (past its due date, a week before the event)
// at most once each, which the partial unique index holds even when two instances look at the same moment; staff's
// "remind now" as often as they choose. Additive only, so the previous release runs beside it during a rolling deploy.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_reminders')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('registration_id', 'varchar(36)', (column) => column.notNull().references('registrations.id'))
    .addColumn('kind', 'varchar(20)', (column) => column.notNull())
    .addColumn('outstanding_cents', 'integer', (column) => column.notNull())
    .addColumn('business_day', 'varchar(10)', (column) => column.notNull())
    .addColumn('sent_by_name', 'text')
    .addColumn('created_at', 'varchar(40)', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('payment_reminders_once_each')
    .on('payment_reminders')
    .columns(['registration_id', 'kind'])
    .unique()
    .where(sql<boolean>`kind <> 'staff'`)
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_reminders').execute()
}
