import { sql, type Kysely } from 'kysely'

// Check-in at the door, per delegate and event day. The partial unique index lets only one check-in per delegate and
// day stand, so two staff devices scanning the same pass at once record it once; an undone check-in stays as history.
// Additive only, so the previous release runs beside it during a rolling deploy.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('check_ins')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('delegate_id', 'varchar(36)', (column) => column.notNull().references('registration_delegates.id'))
    .addColumn('event_day', 'varchar(10)', (column) => column.notNull())
    .addColumn('checked_in_at', 'varchar(40)', (column) => column.notNull())
    .addColumn('checked_in_by_id', 'varchar(64)', (column) => column.notNull())
    .addColumn('checked_in_by_name', 'text', (column) => column.notNull())
    .addColumn('undone_at', 'varchar(40)')
    .addColumn('undone_by_name', 'text')
    .execute()
  await db.schema
    .createIndex('check_ins_once_a_day')
    .on('check_ins')
    .columns(['delegate_id', 'event_day'])
    .unique()
    .where(sql<boolean>`undone_at is null`)
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('check_ins').execute()
}
