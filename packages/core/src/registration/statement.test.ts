import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recordBankTransfer } from '../backoffice/bank-transfers.ts'
import { MANAGER, register, STAFF, testContext } from '../backoffice/fixtures.ts'
import { cancelRegistration, recordRefundPaidOut } from '../cancellation/cancel.ts'
import { TEST_BACKENDS, openTestDatabase, type TestDatabase } from '../test-support.ts'
import { markRegistrationPaid, paymentStateOf } from './payment-state.ts'
import { registrationStatement } from './statement.ts'

// Legal Opinion (Thursday 3 July 2025), venue, two delegates: 2 × R 8 990 + 15% VAT = R 20 677.00.
const TOTAL_CENTS = 2_067_700
// The 50% cancellation fee applies from 12 June 2025.
const IN_HALF_FEE_WINDOW = new Date('2025-06-20T10:00:00+02:00')

describe.each(TEST_BACKENDS)('registrationStatement on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  const registrationRow = (reference: string) =>
    testDb.db.kysely.selectFrom('registrations').selectAll().where('reference', '=', reference).executeTakeFirstOrThrow()

  it('lists the invoice, a part-payment and a cancelled delegate’s credit note, adding up to what is outstanding', async () => {
    const [reference] = await register(testDb.db, {})
    await recordBankTransfer(testContext(testDb.db), { reference: reference!, amount: '1500.00', receivedOn: '2025-03-01', bankReference: 'FNB 15' }, STAFF)
    const context = { ...testContext(testDb.db), siteNow: () => IN_HALF_FEE_WINDOW }
    const pieter = await testDb.db.kysely
      .selectFrom('registration_delegates')
      .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
      .select('registration_delegates.id')
      .where('registrations.reference', '=', reference!)
      .where('registration_delegates.name', '=', 'Pieter van Wyk')
      .executeTakeFirstOrThrow()
    const { cancellation } = await cancelRegistration(context, { reference: reference!, delegateIds: [pieter.id] }, MANAGER)
    expect(cancellation.creditedTotalCents).toBe(516_925)

    const row = await registrationRow(reference!)
    const statement = await registrationStatement(testDb.db.kysely, row)

    expect(statement.lines).toEqual([
      { kind: 'invoice', on: '2025-02-03', reference: 'INV-000001', amountCents: TOTAL_CENTS },
      { kind: 'bank-transfer', on: '2025-03-01', reference: 'FNB 15', amountCents: -150_000 },
      { kind: 'credit-note', on: '2025-06-20', reference: 'CN-000001', amountCents: -516_925 },
    ])
    expect(statement.balanceCents).toBe(TOTAL_CENTS - 150_000 - 516_925)
    expect(statement).toMatchObject({ outstandingCents: 1_400_775, owedToRegistrantCents: 0 })
    expect(statement.outstandingCents).toBe((await paymentStateOf(testDb.db.kysely, row)).outstandingCents)
  })

  it('shows a cancelled, refunded registration owing nothing once the refund is paid out, and owed its refund before', async () => {
    const [reference] = await register(testDb.db, {})
    await recordBankTransfer(testContext(testDb.db), { reference: reference!, amount: '20677.00', receivedOn: '2025-03-01', bankReference: 'FNB 1' }, STAFF)
    const context = { ...testContext(testDb.db), siteNow: () => IN_HALF_FEE_WINDOW }
    const { cancellation } = await cancelRegistration(context, { reference: reference!, delegateIds: 'all' }, MANAGER)

    const owed = await registrationStatement(testDb.db.kysely, await registrationRow(reference!))
    expect(owed).toMatchObject({ balanceCents: -1_033_850, outstandingCents: 0, owedToRegistrantCents: 1_033_850 })
    expect(owed.lines.map((line) => line.kind)).toEqual(['invoice', 'bank-transfer', 'credit-note'])

    await recordRefundPaidOut(
      context,
      { reference: reference!, refundId: cancellation.refund!.id, paidOutOn: '2025-06-20', bankReference: 'REFUND 7' },
      MANAGER,
    )
    const settled = await registrationStatement(testDb.db.kysely, await registrationRow(reference!))
    expect(settled.lines.at(-1)).toEqual({ kind: 'refund-paid-out', on: '2025-06-20', reference: 'REFUND 7', amountCents: 1_033_850 })
    expect(settled).toMatchObject({ balanceCents: 0, outstandingCents: 0, owedToRegistrantCents: 0 })
  })

  it('counts a card payment of the whole total on the day it was paid', async () => {
    const [reference] = await register(testDb.db, { paymentMethod: 'Credit/Debit Card' })
    const { id } = await registrationRow(reference!)
    await testDb.db.writeTransaction((transaction) => markRegistrationPaid(transaction, id, new Date('2025-02-04T10:00:00Z')))

    const statement = await registrationStatement(testDb.db.kysely, await registrationRow(reference!))
    expect(statement.lines).toEqual([
      { kind: 'invoice', on: '2025-02-03', reference: 'INV-000001', amountCents: TOTAL_CENTS },
      { kind: 'card-payment', on: '2025-02-04', reference: '', amountCents: -TOTAL_CENTS },
    ])
    expect(statement).toMatchObject({ balanceCents: 0, outstandingCents: 0, owedToRegistrantCents: 0 })
  })
})
