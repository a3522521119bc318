import type { Kysely } from 'kysely'

// Joining instructions per event (staff's own text and meeting links, kept out of the content), and the online
// attendance the delegates' personal join links record: once per delegate and day (the primary key). Additive only.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_joining')
    .addColumn('event_id', 'varchar(200)', (column) => column.primaryKey())
    .addColumn('venue_instructions', 'text', (column) => column.notNull())
    .addColumn('meeting_url', 'text', (column) => column.notNull())
    .addColumn('day_meeting_urls', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'varchar(40)', (column) => column.notNull())
    .addColumn('updated_by_name', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createTable('online_attendance')
    .addColumn('delegate_id', 'varchar(36)', (column) => column.notNull().references('registration_delegates.id'))
    .addColumn('event_day', 'varchar(10)', (column) => column.notNull())
    .addColumn('joined_at', 'varchar(40)', (column) => column.notNull())
    .addPrimaryKeyConstraint('online_attendance_pkey', ['delegate_id', 'event_day'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('online_attendance').execute()
  await db.schema.dropTable('event_joining').execute()
}
