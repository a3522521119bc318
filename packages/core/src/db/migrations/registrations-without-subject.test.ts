import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRegistration } from '../../registration/commands.ts'
import { SITE_NOW, TEST_BACKENDS, fixedCatalog, openTestDatabase, registrationInput, testSiteLinks, type TestDatabase } from '../../test-support.ts'
import { migrationProvider } from './index.ts'

describe.each(TEST_BACKENDS)('migration 2026-11-24-registrations-without-subject on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it('drops the column from registrations stored before it and keeps everything else they hold', async () => {
    const { receipt } = await createRegistration(
      { db: testDb.db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => SITE_NOW },
      registrationInput(),
    )
    const kysely = testDb.db.kysely
    const schema = testDb.openOptions.schema
    const migrator = new Migrator({ db: kysely, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) })
    const before = await kysely.selectFrom('registrations').selectAll().where('reference', '=', receipt.reference).executeTakeFirstOrThrow()

    // The database as it was before the migration, its row holding the subject as registrations stored it then.
    expect((await migrator.migrateTo('2026-11-24-enquiry-inbox')).error).toBeUndefined()
    await sql`update registrations set registration_subject = ${'Legal Opinion Delegate Registration'}`.execute(kysely)

    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    const after = await kysely.selectFrom('registrations').selectAll().where('reference', '=', receipt.reference).executeTakeFirstOrThrow()
    // Going back before it dropped the later event id too; startup fills that in again (registration/event-ids.ts).
    expect(after).toEqual({ ...before, event_id: null })
    expect(Object.keys(after)).not.toContain('registration_subject')
    expect(await kysely.selectFrom('registration_delegates').select('name').execute()).toHaveLength(2)
  })
})
