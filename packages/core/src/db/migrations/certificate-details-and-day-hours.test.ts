import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { register } from '../../backoffice/fixtures.ts'
import { eventKeyOf } from '../../registration/event-ids.ts'
import { TEST_BACKENDS, openTestDatabase, type TestDatabase } from '../../test-support.ts'
import { migrationProvider } from './index.ts'

describe.each(TEST_BACKENDS)('migration 2026-11-29T10-certificate-details-and-day-hours on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it('copies staff’s one figure per day attended onto each day of its event, and leaves an event without registrations alone', async () => {
    await register(testDb.db, {})
    const kysely = testDb.db.kysely
    const eventId = eventKeyOf(await kysely.selectFrom('registrations').select(['event_id', 'event_slug']).executeTakeFirstOrThrow())
    const schema = testDb.openOptions.schema
    const migrator = new Migrator({ db: kysely, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) })
    expect((await migrator.migrateTo('2026-11-29-sponsorship-payments')).error).toBeUndefined()
    for (const [event, minutes] of [
      [eventId, 390],
      ['event-gone', 300],
    ] as const) {
      await sql`insert into event_cpd_hours (event_id, minutes_per_day, updated_at, updated_by_name)
        values (${event}, ${minutes}, '2025-06-01T08:00:00.000Z', 'Staff Member')`.execute(kysely)
    }
    expect((await migrator.migrateToLatest()).error).toBeUndefined()

    const rows = await kysely.selectFrom('event_cpd_day_hours').selectAll().orderBy('date').execute()
    expect(rows.map((row) => [row.event_id, row.date, row.minutes, row.updated_by_name])).toEqual([
      [eventId, '2025-07-03', 390, 'Staff Member'],
      [eventId, '2025-07-04', 390, 'Staff Member'],
    ])
  })
})
