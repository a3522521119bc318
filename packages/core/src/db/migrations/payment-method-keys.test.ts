import { Migrator } from 'kysely/migration'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRegistration } from '../../registration/commands.ts'
import { SITE_NOW, TEST_BACKENDS, fixedCatalog, openTestDatabase, registrationInput, testSiteLinks, type TestDatabase } from '../../test-support.ts'
import { migrationProvider } from './index.ts'

describe.each(TEST_BACKENDS)('migration 2026-11-24T02-payment-method-keys on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it('turns the stored labels into keys, in the registrations and in what their e-mails say', async () => {
    const context = { db: testDb.db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => SITE_NOW }
    const bank = (await createRegistration(context, registrationInput({ paymentMethod: 'bank-transfer' }))).receipt.reference
    const card = (await createRegistration(context, registrationInput({ paymentMethod: 'card', companyName: 'Card Payer Ltd' }))).receipt.reference
    const kysely = testDb.db.kysely
    const schema = testDb.openOptions.schema
    const migrator = new Migrator({ db: kysely, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) })
    const methods = async () => {
      const rows = await kysely
        .selectFrom('registrations')
        .innerJoin('registration_mail_data', 'registration_mail_data.registration_id', 'registrations.id')
        .select(['reference', 'payment_method', 'context_json'])
        .execute()
      const byReference = new Map(rows.map((row) => [row.reference, [row.payment_method, JSON.parse(row.context_json).submission.paymentMethod]]))
      return [byReference.get(bank), byReference.get(card)]
    }

    // The database as it was before the migration: the specification's labels everywhere.
    expect((await migrator.migrateTo('2026-11-24-registrations-without-subject')).error).toBeUndefined()
    expect(await methods()).toEqual([
      ['Bank Transfer', 'Bank Transfer'],
      ['Credit/Debit Card', 'Credit/Debit Card'],
    ])

    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    expect(await methods()).toEqual([
      ['bank-transfer', 'bank-transfer'],
      ['card', 'card'],
    ])
  })
})
