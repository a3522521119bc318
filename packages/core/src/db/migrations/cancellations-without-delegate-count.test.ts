import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cancelRegistration, cancellationProposal } from '../../cancellation/cancel.ts'
import { MANAGER, register, testContext } from '../../backoffice/fixtures.ts'
import { TEST_BACKENDS, openTestDatabase, type TestDatabase } from '../../test-support.ts'
import { migrationProvider } from './index.ts'

describe.each(TEST_BACKENDS)('migration 2026-11-24T01-cancellations-without-delegate-count on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it('drops the column from cancellations stored before it and keeps everything else they hold', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    const [pieter] = (await cancellationProposal(context, reference!)).delegates.filter((delegate) => delegate.name === 'Pieter van Wyk')
    await cancelRegistration(context, { reference: reference!, delegateIds: [pieter!.id] }, MANAGER)
    const kysely = testDb.db.kysely
    const schema = testDb.openOptions.schema
    const migrator = new Migrator({ db: kysely, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) })
    const before = await kysely.selectFrom('cancellations').selectAll().executeTakeFirstOrThrow()

    // The database as it was before the migration: the column back, counted from the delegates the cancellation marked.
    expect((await migrator.migrateTo('2026-11-24-registrations-without-subject')).error).toBeUndefined()
    const restored = await sql<{ delegate_count: number | string }>`select delegate_count from cancellations`.execute(kysely)
    expect(restored.rows.map((row) => Number(row.delegate_count))).toEqual([1])

    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    const after = await kysely.selectFrom('cancellations').selectAll().executeTakeFirstOrThrow()
    expect(after).toEqual(before)
    expect(Object.keys(after)).not.toContain('delegate_count')
  })
})
