import { TIME_ZONE } from '@events/pricing'
import { DateTime } from 'luxon'
import { sql, type Kysely } from 'kysely'

// Certificates a CPD body accepts: each keeps what it said (accreditation, venue, hours per day, ethics hours,
// signatory) as JSON, so a reissue or the verification page shows the same facts after the content changes; a
// certificate issued before has none (null) and shows what it always did. Staff's CPD hours become one figure per day
// of the event: the old single figure per day attended is copied onto each day of its event, so certificates issued
// from now on count what it meant. Additive only: the old table stays for the previous release during a deploy.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('certificates').addColumn('details', 'text').execute()
  await db.schema
    .createTable('event_cpd_day_hours')
    .addColumn('event_id', 'varchar(200)', (column) => column.notNull())
    .addColumn('date', 'varchar(10)', (column) => column.notNull())
    .addColumn('minutes', 'integer', (column) => column.notNull())
    .addColumn('updated_at', 'varchar(40)', (column) => column.notNull())
    .addColumn('updated_by_name', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('event_cpd_day_hours_pkey', ['event_id', 'date'])
    .execute()
  const overrides = await sql<{ event_id: string; minutes_per_day: number; updated_at: string; updated_by_name: string }>`
    select event_id, minutes_per_day, updated_at, updated_by_name from event_cpd_hours`.execute(db)
  for (const override of overrides.rows) {
    // The event's dates as its newest registration has them; an event key is its content id or `slug:` and its slug.
    const slug = override.event_id.startsWith('slug:') ? override.event_id.slice('slug:'.length) : null
    const event = await sql<{ event_start: string; event_end: string }>`
      select event_start, event_end from registrations
      where ${slug === null ? sql`event_id = ${override.event_id}` : sql`event_id is null and event_slug = ${slug}`}
      order by created_at desc limit 1`.execute(db)
    const dates = event.rows[0] ? datesOf(event.rows[0].event_start, event.rows[0].event_end) : []
    for (const date of dates) {
      await sql`insert into event_cpd_day_hours (event_id, date, minutes, updated_at, updated_by_name)
        values (${override.event_id}, ${date}, ${override.minutes_per_day}, ${override.updated_at}, ${override.updated_by_name})`.execute(db)
    }
  }
}

/** The days (YYYY-MM-DD, Johannesburg) from an event's start to its end, as the check-in counts them then. */
function datesOf(start: string, end: string): string[] {
  const first = DateTime.fromISO(start, { zone: TIME_ZONE }).startOf('day')
  const last = DateTime.fromISO(end, { zone: TIME_ZONE }).startOf('day')
  const dates: string[] = []
  for (let day = first; day <= last; day = day.plus({ days: 1 })) dates.push(day.toISODate()!)
  return dates.length > 0 ? dates : [first.toISODate()!]
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_cpd_day_hours').execute()
  await db.schema.alterTable('certificates').dropColumn('details').execute()
}
