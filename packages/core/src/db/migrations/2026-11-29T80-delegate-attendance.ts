import { sql, type Kysely } from 'kysely'

// Each delegate of a booking attends at the venue or online and has their own price, so one registration can send
// some delegates to the room and some online. The rows stored before take their registration's option: online for
// an online registration, the venue otherwise; the registration's price per delegate, and none for a table (priced
// flat on the registration). The defaults keep the previous release's inserts valid during a rolling deploy.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('registration_delegates')
    .addColumn('attendance', 'varchar(10)', (column) => column.notNull().defaultTo('venue'))
    .execute()
  await db.schema
    .alterTable('registration_delegates')
    .addColumn('unit_amount_cents', 'integer', (column) => column.notNull().defaultTo(0))
    .execute()
  await sql`
    update registration_delegates set
      attendance = case when (select attendance_option from registrations where registrations.id = registration_delegates.registration_id) = 'online' then 'online' else 'venue' end,
      unit_amount_cents = coalesce((
        select unit_amount_cents from registrations
        where registrations.id = registration_delegates.registration_id and registrations.attendance_option not in ('table-5', 'table-10')
      ), 0)
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('registration_delegates').dropColumn('unit_amount_cents').execute()
  await db.schema.alterTable('registration_delegates').dropColumn('attendance').execute()
}
