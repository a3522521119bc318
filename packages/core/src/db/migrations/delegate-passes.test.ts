import { Migrator } from 'kysely/migration'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { register } from '../../backoffice/fixtures.ts'
import { TEST_BACKENDS, openTestDatabase, type TestDatabase } from '../../test-support.ts'
import { migrationProvider } from './index.ts'

describe.each(TEST_BACKENDS)('migration 2026-11-27T07-delegate-passes on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it('gives every delegate registered before passes existed a pass of their own', async () => {
    await register(testDb.db, {}, { delegates: [{ name: 'Sipho Dlamini', position: 'Director', email: 'sipho@example.com' }] })
    const kysely = testDb.db.kysely
    const schema = testDb.openOptions.schema
    const migrator = new Migrator({ db: kysely, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) })
    expect((await migrator.migrateTo('2026-11-27T04-quotes')).error).toBeUndefined()
    expect((await migrator.migrateToLatest()).error).toBeUndefined()

    const delegates = await kysely.selectFrom('registration_delegates').select(['id', 'registration_id']).orderBy('id').execute()
    const passes = await kysely.selectFrom('delegate_passes').selectAll().orderBy('delegate_id').execute()
    expect(passes.map((pass) => [pass.delegate_id, pass.registration_id])).toEqual(delegates.map((delegate) => [delegate.id, delegate.registration_id]))
    expect(new Set(passes.map((pass) => pass.code)).size).toBe(3)
    for (const pass of passes) {
      expect(pass.code).toMatch(/^[2-9A-HJ-NP-Z]{8}$/)
      expect(pass.token.length).toBeGreaterThanOrEqual(43)
    }
  })
})
