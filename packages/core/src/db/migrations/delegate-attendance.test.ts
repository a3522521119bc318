import { Migrator } from 'kysely/migration'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { register } from '../../backoffice/fixtures.ts'
import { TEST_BACKENDS, openTestDatabase, type TestDatabase } from '../../test-support.ts'
import { migrationProvider } from './index.ts'

describe.each(TEST_BACKENDS)('migration 2026-11-29T80-delegate-attendance on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it("gives every delegate registered before their registration's attendance and price per delegate, none at a table", async () => {
    const [venue, online, table] = await register(
      testDb.db,
      {},
      { attendanceOption: 'online', companyName: 'Online Co' },
      { event: 'Resilience', code: 'ERC2025', attendanceOption: 'table-5', companyName: 'Table Co' },
    )
    const kysely = testDb.db.kysely
    const schema = testDb.openOptions.schema
    const migrator = new Migrator({ db: kysely, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) })
    expect((await migrator.migrateTo('2026-11-29T30-sponsorship-reminders-and-surplus')).error).toBeUndefined()
    expect((await migrator.migrateToLatest()).error).toBeUndefined()

    const rows = await kysely
      .selectFrom('registration_delegates')
      .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
      .select(['registrations.reference', 'registration_delegates.attendance', 'registration_delegates.unit_amount_cents'])
      .orderBy('registrations.reference')
      .orderBy('registration_delegates.ordinal')
      .execute()
    const of = (reference: string | undefined) => rows.filter((row) => row.reference === reference).map((row) => [row.attendance, row.unit_amount_cents])
    expect(of(venue)).toEqual([
      ['venue', 899_000],
      ['venue', 899_000],
    ])
    expect(of(online)).toEqual([
      ['online', 599_000],
      ['online', 599_000],
    ])
    expect(of(table)).toEqual([
      ['venue', 0],
      ['venue', 0],
    ])
  })
})
