import { parse } from 'csv-parse/sync'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cancelRegistration } from '../cancellation/cancel.ts'
import { getRegistrationDetail } from './registration-detail.ts'
import { TEST_BACKENDS, openTestDatabase, testAuditRows, type TestDatabase } from '../test-support.ts'
import { recordBankTransfer } from './bank-transfers.ts'
import { MANAGER, register, STAFF, testContext } from './fixtures.ts'
import { recordRefundPayout, refundsPaidOut, refundsToPay, refundsToPayCsv, saveRefundBankDetails } from './refunds-to-pay.ts'

// Legal Opinion, venue, two delegates: R 20 677.00 incl. VAT.
const TOTAL_CENTS = 2_067_700
const IN_FREE_WINDOW = new Date('2025-03-10T09:00:00+02:00')

describe.each(TEST_BACKENDS)('refunds to pay out on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  it('lists a transfer’s surplus and a cancellation’s credit in one list, with the account to pay, and records each paid out', async () => {
    const [overpaid, cancelled] = await register(testDb.db, {}, { companyName: 'Cancelled Ltd', email: 'accounts@cancelled.example.com' })
    const context = testContext(testDb.db)
    await recordBankTransfer(context, { reference: overpaid!, amount: '21 000.00', receivedOn: '2025-02-25', bankReference: 'FNB OVER' }, STAFF)
    await recordBankTransfer(context, { reference: cancelled!, amount: '20 677.00', receivedOn: '2025-02-26', bankReference: 'FNB FULL' }, STAFF)
    await cancelRegistration({ ...context, siteNow: () => IN_FREE_WINDOW }, { reference: cancelled!, delegateIds: 'all' }, MANAGER)

    // Oldest first; the test's clock stands still, so by kind then.
    const owed = await refundsToPay(context)
    expect(owed.map((refund) => [refund.kind, refund.registrationReference, refund.amountCents, refund.reason, refund.bankDetails])).toEqual([
      ['cancellation', cancelled, TOTAL_CENTS, 'Cancellation credit (credit note CN-000001)', null],
      ['surplus', overpaid, 32_300, 'Overpaid: a transfer of R 21 000.00 received 2025-02-25 (FNB OVER)', null],
    ])
    // The surplus shows on the registration too.
    const detail = await getRegistrationDetail(context, overpaid!)
    expect(detail?.surplusRefunds).toEqual([{ amountCents: 32_300, status: 'awaiting-payout', paidOutOn: null, bankReference: null }])

    await expect(
      saveRefundBankDetails(context, { reference: overpaid!, accountHolder: 'Acme', bankName: 'FNB', branchCode: '2506', accountNumber: '62000000000' }, STAFF),
    ).rejects.toMatchObject({ issues: [{ path: 'branchCode', code: 'invalid-branch-code' }] })
    const auditedBefore = (await testAuditRows(testDb.db)).length
    await saveRefundBankDetails(
      context,
      { reference: overpaid!.toLowerCase(), accountHolder: ' Acme Legal Services ', bankName: 'FNB', branchCode: '250 655', accountNumber: '6200-000-0000' },
      STAFF,
    )
    expect(
      (await testAuditRows(testDb.db))
        .slice(auditedBefore)
        .map(({ action, subjectType, subjectId, before, after }) => ({ action, subjectType, subjectId, before, after })),
    ).toEqual([
      {
        action: 'refund-bank-details-saved',
        subjectType: 'registration',
        subjectId: overpaid,
        before: null,
        after: { accountHolder: 'Acme Legal Services', bankName: 'FNB', branchCode: '250655', accountNumber: '62000000000' },
      },
    ])
    // A formula-like name is exported as text.
    await saveRefundBankDetails(
      context,
      { reference: cancelled!, accountHolder: '=Cancelled Ltd', bankName: 'Absa', branchCode: '632005', accountNumber: '4070000000' },
      STAFF,
    )

    const csv = parse(refundsToPayCsv(await refundsToPay(context)), { bom: true }) as string[][]
    expect(csv).toEqual([
      ['Beneficiary name', 'Bank', 'Branch code', 'Account number', 'Amount', 'Beneficiary reference', 'Own reference'],
      ["'=Cancelled Ltd", 'Absa', '632005', '4070000000', '20677.00', `REFUND ${cancelled}`, `REFUND ${cancelled}`],
      ['Acme Legal Services', 'FNB', '250655', '62000000000', '323.00', `REFUND ${overpaid}`, `REFUND ${overpaid}`],
    ])

    const [credit, surplus] = await refundsToPay(context)
    // Paid out after the cancellation of 10 March, by the business clock of the 12th.
    const payouts = { ...context, siteNow: () => new Date('2025-03-12T09:00:00+02:00') }
    await expect(recordRefundPayout(payouts, { refundId: surplus!.id, paidOutOn: '2025-03-13', bankReference: 'X' }, MANAGER)).rejects.toMatchObject({
      issues: [{ path: 'paidOutOn', code: 'date-in-future' }],
    })
    await expect(recordRefundPayout(payouts, { refundId: surplus!.id, paidOutOn: '2025-02-24', bankReference: 'X' }, MANAGER)).rejects.toMatchObject({
      issues: [{ path: 'paidOutOn', code: 'date-before-transfer' }],
    })
    await expect(recordRefundPayout(payouts, { refundId: credit!.id, paidOutOn: '2025-03-09', bankReference: 'X' }, MANAGER)).rejects.toMatchObject({
      issues: [{ path: 'paidOutOn', code: 'date-before-cancellation' }],
    })
    await expect(recordRefundPayout(payouts, { refundId: surplus!.id, paidOutOn: '2025-03-11', bankReference: ' ' }, MANAGER)).rejects.toMatchObject({
      issues: [{ path: 'bankReference', code: 'required' }],
    })
    // Refunds are a manager's to approve: a staff member's payout is refused before anything is read.
    await expect(recordRefundPayout(payouts, { refundId: surplus!.id, paidOutOn: '2025-03-11', bankReference: 'fnb refund 1' }, STAFF)).rejects.toMatchObject({
      code: 'role-required',
    })
    const auditedBeforePayouts = (await testAuditRows(testDb.db)).length
    await recordRefundPayout(payouts, { refundId: surplus!.id, paidOutOn: '2025-03-11', bankReference: 'fnb refund 1' }, MANAGER)
    await recordRefundPayout(payouts, { refundId: credit!.id, paidOutOn: '2025-03-12', bankReference: 'FNB REFUND 2' }, MANAGER)
    expect((await testAuditRows(testDb.db)).slice(auditedBeforePayouts).map((row) => [row.action, row.subjectType, row.subjectId])).toEqual([
      ['refund-paid-out', 'surplus-refund', surplus!.id.slice('surplus:'.length)],
      ['refund-paid-out', 'refund', credit!.id.slice('cancellation:'.length)],
    ])
    await expect(recordRefundPayout(payouts, { refundId: surplus!.id, paidOutOn: '2025-03-11', bankReference: 'AGAIN' }, MANAGER)).rejects.toMatchObject({
      code: 'nothing-to-pay-out',
    })

    expect(await refundsToPay(context)).toEqual([])
    expect((await refundsPaidOut(context)).map((refund) => [refund.kind, refund.paidOutOn, refund.bankReference])).toEqual([
      ['cancellation', '2025-03-12', 'FNB REFUND 2'],
      ['surplus', '2025-03-11', 'FNB REFUND 1'],
    ])
  })

  it('refunds on cancellation only what the surplus did not already give back', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    await recordBankTransfer(context, { reference: reference!, amount: '25 000.00', receivedOn: '2025-02-25', bankReference: 'FNB OVER' }, STAFF)
    const outcome = await cancelRegistration({ ...context, siteNow: () => IN_FREE_WINDOW }, { reference: reference!, delegateIds: 'all' }, MANAGER)
    // R 25 000 arrived: R 4 323 is owed back as the surplus, the cancelled R 20 677 as the cancellation's refund.
    expect(outcome.cancellation.refund).toMatchObject({ amountCents: TOTAL_CENTS })
    expect((await refundsToPay(context)).reduce((sum, refund) => sum + refund.amountCents, 0)).toBe(2_500_000)
  })
})
