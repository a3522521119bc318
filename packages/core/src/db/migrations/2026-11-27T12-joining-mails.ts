import type { Kysely } from 'kysely'

// The joining e-mails each delegate was sent automatically: one per delegate and moment (days before the event, the
// day before each event day), the unique key keeping it to one however often the round runs and on however many
// instances. Additive only.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('joining_mails')
    .addColumn('delegate_id', 'varchar(36)', (column) => column.notNull().references('registration_delegates.id'))
    .addColumn('moment', 'varchar(40)', (column) => column.notNull())
    .addColumn('registration_id', 'varchar(36)', (column) => column.notNull().references('registrations.id'))
    .addColumn('business_day', 'varchar(10)', (column) => column.notNull())
    .addColumn('created_at', 'varchar(40)', (column) => column.notNull())
    .addPrimaryKeyConstraint('joining_mails_pkey', ['delegate_id', 'moment'])
    .execute()
  await db.schema.createIndex('joining_mails_registration').on('joining_mails').column('registration_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('joining_mails').execute()
}
