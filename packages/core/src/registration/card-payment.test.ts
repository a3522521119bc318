import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recordBankTransfer } from '../backoffice/bank-transfers.ts'
import {
  SITE_NOW,
  TEST_BACKENDS,
  TEST_STAFF,
  fixedCatalog,
  openTestDatabase,
  registrationInput,
  testAuditWriter,
  testSiteLinks,
  type TestDatabase,
} from '../test-support.ts'
import { cardChargeStanding, recordCardPayment, type CardPaymentInput } from './card-payment.ts'
import { createRegistration } from './commands.ts'
import type { RegistrationContext } from './model.ts'
import { findRegistrationByReferenceAndSecret } from './queries.ts'

const TOTAL_CENTS = 2_067_700

describe.each(TEST_BACKENDS)('card payments of registrations on %s', (backend) => {
  let testDb: TestDatabase
  let context: RegistrationContext

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    context = { db: testDb.db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => SITE_NOW }
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  async function cardRegistration() {
    const { receipt } = await createRegistration(context, registrationInput({ paymentMethod: 'Credit/Debit Card' }))
    const registration = await findRegistrationByReferenceAndSecret(testDb.db.kysely, receipt.reference.toLowerCase(), receipt.secret)
    if (!registration) throw new Error('expected the registration')
    return registration
  }

  const pay = (input: Omit<CardPaymentInput, 'at' | 'lock'>) =>
    testDb.db.writeTransaction((transaction) =>
      recordCardPayment(transaction, { ...input, at: new Date('2025-03-01T10:00:00Z'), lock: backend === 'postgres' }),
    )

  it('marks a registration paid once, for its total in its currency only', async () => {
    const registration = await cardRegistration()
    expect(await cardChargeStanding(testDb.db.kysely, registration)).toBe('owed')

    expect((await pay({ registrationId: registration.id, amountCents: 100, currency: 'ZAR' })).outcome).toBe('amount-mismatch')
    expect((await pay({ registrationId: registration.id, amountCents: TOTAL_CENTS, currency: 'USD' })).outcome).toBe('amount-mismatch')
    const paid = await pay({ registrationId: registration.id, amountCents: TOTAL_CENTS, currency: 'ZAR' })
    expect(paid).toMatchObject({ outcome: 'paid', paidCents: 0, outstandingCents: TOTAL_CENTS, invoiceNumber: 'INV-000001' })
    expect((await pay({ registrationId: registration.id, amountCents: TOTAL_CENTS, currency: 'ZAR' })).outcome).toBe('already-paid')

    const stored = await testDb.db.kysely.selectFrom('registrations').select(['status', 'paid_at']).where('id', '=', registration.id).executeTakeFirstOrThrow()
    expect(stored).toEqual({ status: 'paid', paid_at: '2025-03-01T10:00:00.000Z' })
    expect(await cardChargeStanding(testDb.db.kysely, { ...registration, status: 'paid' })).toBe('paid')
  })

  it('does not count the whole total once a bank transfer was recorded, and leaves the registration as it was', async () => {
    const registration = await cardRegistration()
    await recordBankTransfer(
      { ...context, audit: testAuditWriter },
      { reference: registration.reference, amount: '5000.00', receivedOn: '2025-03-01', bankReference: 'FNB 0042' },
      TEST_STAFF,
    )

    const refused = await pay({ registrationId: registration.id, amountCents: TOTAL_CENTS, currency: 'ZAR' })
    expect(refused).toMatchObject({ outcome: 'not-owed', paidCents: 500_000, outstandingCents: TOTAL_CENTS - 500_000 })
    const stored = await testDb.db.kysely.selectFrom('registrations').select(['status', 'paid_at']).where('id', '=', registration.id).executeTakeFirstOrThrow()
    expect(stored).toEqual({ status: 'part-paid', paid_at: null })
    expect(await cardChargeStanding(testDb.db.kysely, { ...registration, status: 'part-paid' })).toBe('not-owed')
  })
})
