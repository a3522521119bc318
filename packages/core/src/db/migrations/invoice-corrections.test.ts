import { Migrator } from 'kysely/migration'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cancelRegistration, cancellationProposal } from '../../cancellation/cancel.ts'
import { MANAGER, register, testContext } from '../../backoffice/fixtures.ts'
import { TEST_BACKENDS, openTestDatabase, type TestDatabase } from '../../test-support.ts'
import { migrationProvider } from './index.ts'

describe.each(TEST_BACKENDS)('migration 2026-11-27T01-invoice-corrections on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it('keeps the invoices and credit notes stored before it, their references intact, and lets a registration have a second invoice', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    const [pieter] = (await cancellationProposal(context, reference!)).delegates.filter((delegate) => delegate.name === 'Pieter van Wyk')
    await cancelRegistration(context, { reference: reference!, delegateIds: [pieter!.id] }, MANAGER)
    const kysely = testDb.db.kysely
    const schema = testDb.openOptions.schema
    const migrator = new Migrator({ db: kysely, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) })
    const invoicesBefore = await kysely.selectFrom('invoices').selectAll().execute()
    const notesBefore = await kysely.selectFrom('credit_notes').selectAll().execute()

    expect((await migrator.migrateTo('2026-11-26T05-statement-reconciliation')).error).toBeUndefined()
    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    expect(await kysely.selectFrom('invoices').selectAll().execute()).toEqual(invoicesBefore)
    expect(await kysely.selectFrom('credit_notes').selectAll().execute()).toEqual(notesBefore)

    const [invoice] = invoicesBefore
    await kysely
      .insertInto('invoices')
      .values({
        id: 'second',
        registration_id: invoice!.registration_id,
        number: 99,
        issued_at: invoice!.issued_at,
        pdf_base64: '',
        data_json: invoice!.data_json,
      })
      .execute()
    expect(await kysely.selectFrom('invoices').select('id').where('registration_id', '=', invoice!.registration_id).execute()).toHaveLength(2)
    // The references still hold: an invoice of no registration, or a credit note of no invoice, is refused.
    await expect(
      kysely
        .insertInto('invoices')
        .values({ id: 'orphan', registration_id: 'nobody', number: 100, issued_at: invoice!.issued_at, pdf_base64: '', data_json: null })
        .execute(),
    ).rejects.toThrow()
    const [note] = notesBefore
    await expect(
      kysely
        .insertInto('credit_notes')
        .values({ ...note!, id: 'orphan-note', number: 101, cancellation_id: null, invoice_id: 'none' })
        .execute(),
    ).rejects.toThrow()
    await kysely
      .insertInto('credit_notes')
      .values({ ...note!, id: 'correction-note', number: 102, cancellation_id: null, invoice_id: 'second' })
      .execute()
  })
})
