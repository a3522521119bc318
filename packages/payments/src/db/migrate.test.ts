import { createRegistration } from '@events/core'
import { SITE_NOW, TEST_BACKENDS, fixedCatalog, openTestDatabase, registrationInput, testSiteLinks, type TestDatabase } from '@events/core/test-support'
import { sql, type Kysely } from 'kysely'
import { Migrator } from 'kysely/migration'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migrationProvider as coreMigrationProvider } from '../../../core/src/db/migrations/index.ts'
import { cardPaymentActivity, cardPaymentFacts } from '../queries.ts'
import { createPaymentTablesAsCoreDid } from './__fixtures__/core-made-payment-tables.ts'
import { paymentQueries } from './database.ts'
import { migratePaymentTables } from './migrate.ts'

// The last core migration of the release in which the core created the payment tables.
const LAST_CORE_MIGRATION_BEFORE = '2026-11-26T05-statement-reconciliation'

describe.each(TEST_BACKENDS)('the payment tables’ own migrations on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  const coreMigrator = () => {
    const schema = testDb.openOptions.schema
    return new Migrator({ db: testDb.db.kysely, provider: coreMigrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) })
  }
  const migrationNames = async (table: string) =>
    (await sql<{ name: string }>`select name from ${sql.table(table)} order by name`.execute(testDb.db.kysely)).rows.map((row) => row.name)

  it('upgrades a database the core made the payment tables in: their rows kept, no migration run twice or lost', async () => {
    // The database as the release before left it: the core's migrations up to its last, the payment tables its own.
    expect((await coreMigrator().migrateTo(LAST_CORE_MIGRATION_BEFORE)).error).toBeUndefined()
    await createPaymentTablesAsCoreDid(testDb.db.kysely as unknown as Kysely<unknown>)
    const at = '2025-03-01T08:00:00.000Z'
    await paymentQueries(testDb.db.kysely)
      .insertInto('payment_webhooks')
      .values({
        webhook_id: 'msg_old',
        event_type: 'payment.succeeded',
        checkout_id: 'ch_old',
        registration_id: 'registration-old',
        amount_cents: 2_067_700,
        currency: 'ZAR',
        outcome: 'paid',
        body: '{}',
        received_at: at,
      })
      .execute()
    const coreBefore = await migrationNames('kysely_migration')

    // The new release starts: the core's pending migrations first; a card checkout is made before the payments
    // package's migration runs (an instance of the release before still taking payments); then that migration.
    expect((await coreMigrator().migrateToLatest()).error).toBeUndefined()
    const context = { db: testDb.db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => SITE_NOW }
    const { receipt } = await createRegistration(context, registrationInput({ paymentMethod: 'card' }))
    const { id } = await testDb.db.kysely.selectFrom('registrations').select('id').where('reference', '=', receipt.reference).executeTakeFirstOrThrow()
    await paymentQueries(testDb.db.kysely)
      .insertInto('payment_checkouts')
      .values({
        id: 'ch_old',
        registration_id: id,
        provider: 'yoco',
        attempt: 1,
        amount_cents: 2_067_700,
        currency: 'ZAR',
        redirect_url: 'https://pay.example/ch_old',
        status: 'succeeded',
        payment_id: 'p_old',
        created_at: at,
        updated_at: at,
      })
      .execute()
    await paymentQueries(testDb.db.kysely).updateTable('payment_webhooks').set({ registration_id: id }).where('webhook_id', '=', 'msg_old').execute()
    await migratePaymentTables(testDb.db)
    await migratePaymentTables(testDb.db)

    const coreAfter = await migrationNames('kysely_migration')
    expect(coreAfter.slice(0, coreBefore.length)).toEqual(coreBefore)
    expect(coreAfter.filter((name) => name === '2026-11-22-payments-and-invoices')).toHaveLength(1)
    expect(await migrationNames('payments_migrations')).toEqual(['2026-11-22-payment-tables'])
    expect(await cardPaymentActivity(testDb.db, receipt.reference)).toMatchObject({
      checkouts: [{ id: 'ch_old', status: 'succeeded', amountCents: 2_067_700 }],
      webhooks: [{ webhookId: 'msg_old', outcome: 'paid' }],
    })
    expect(await cardPaymentFacts.paidCheckoutOf(testDb.db.kysely, id)).toBe('ch_old')
  })

  it('creates the payment tables in a new database, after the core’s, and their key refuses a second attempt number', async () => {
    await expect(testDb.db.kysely.selectFrom('registrations').select('id').execute()).resolves.toEqual([])
    await expect(sql`select count(*) from payment_checkouts`.execute(testDb.db.kysely)).rejects.toThrow()
    // Left to `pnpm db:migrate`, a database without them is refused, in the words the core uses.
    await expect(migratePaymentTables(testDb.db, { apply: false })).rejects.toThrow(
      'the database lacks 1 migration(s) of this release (2026-11-22-payment-tables): run `pnpm db:migrate` first',
    )
    await migratePaymentTables(testDb.db)
    await migratePaymentTables(testDb.db, { apply: false })
    const context = { db: testDb.db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => SITE_NOW }
    const { receipt } = await createRegistration(context, registrationInput({ paymentMethod: 'card' }))
    const { id } = await testDb.db.kysely.selectFrom('registrations').select('id').where('reference', '=', receipt.reference).executeTakeFirstOrThrow()
    const checkout = {
      registration_id: id,
      provider: 'sandbox',
      attempt: 1,
      amount_cents: 100,
      currency: 'ZAR',
      redirect_url: 'x',
      status: 'open' as const,
      payment_id: null,
      created_at: 'x',
      updated_at: 'x',
    }
    await paymentQueries(testDb.db.kysely)
      .insertInto('payment_checkouts')
      .values({ id: 'ch_1', ...checkout })
      .execute()
    await expect(
      paymentQueries(testDb.db.kysely)
        .insertInto('payment_checkouts')
        .values({ id: 'ch_2', ...checkout })
        .execute(),
    ).rejects.toThrow()
    expect(await cardPaymentFacts.paidCheckoutOf(testDb.db.kysely, id)).toBeUndefined()
  })
})
