import { parse } from 'csv-parse/sync'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cancelRegistration } from '../cancellation/cancel.ts'
import { getRegistrationDetail } from './registration-detail.ts'
import { TEST_BACKENDS, openTestDatabase, type TestDatabase } from '../test-support.ts'
import { recordBankTransfer } from './bank-transfers.ts'
import { register, STAFF, testContext } from './fixtures.ts'
import { recordRefundPayout, refundsPaidOut, refundsToPay, refundsToPayCsv, saveRefundBankDetails } from './refunds-to-pay.ts'
import type { CommandAuditEntry, CommandStaff } from './staff-command.ts'

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

  function audited(entries: CommandAuditEntry[]): CommandStaff {
    return { ...STAFF, audit: async (_transaction, entry) => void entries.push(entry) }
  }

  it('lists a transfer’s surplus and a cancellation’s credit in one list, with the account to pay, and records each paid out', async () => {
    const [overpaid, cancelled] = await register(testDb.db, {}, { companyName: 'Cancelled Ltd', email: 'accounts@cancelled.example.com' })
    const context = testContext(testDb.db)
    await recordBankTransfer(context, { reference: overpaid!, amountCents: 2_100_000, receivedOn: '2025-02-25', bankReference: 'FNB OVER' }, STAFF)
    await recordBankTransfer(context, { reference: cancelled!, amountCents: TOTAL_CENTS, receivedOn: '2025-02-26', bankReference: 'FNB FULL' }, STAFF)
    await cancelRegistration({ ...context, siteNow: () => IN_FREE_WINDOW }, { reference: cancelled!, delegateIds: 'all' }, STAFF)

    // Oldest first; the test's clock stands still, so by kind then.
    const owed = await refundsToPay(context)
    expect(owed.map((refund) => [refund.kind, refund.registrationReference, refund.amountCents, refund.reason, refund.bankDetails])).toEqual([
      ['cancellation', cancelled, TOTAL_CENTS, 'Cancellation credit (credit note CN-000001)', null],
      ['surplus', overpaid, 32_300, 'Overpaid: a transfer of R 21 000.00 received 2025-02-25 (FNB OVER)', null],
    ])
    // The surplus shows on the registration too.
    const detail = await getRegistrationDetail(context, overpaid!)
    expect(detail?.surplusRefunds).toEqual([{ amountCents: 32_300, status: 'awaiting-payout', paidOutOn: null, bankReference: null }])

    await expect(saveRefundBankDetails(context, { reference: overpaid!, accountHolder: 'Acme', bankName: 'FNB', branchCode: '2506', accountNumber: '62000000000' }, STAFF)).rejects.toMatchObject({
      message: 'Enter the branch code: 6 digits (universal branch codes too, e.g. 250655).',
      field: 'branchCode',
    })
    const entries: CommandAuditEntry[] = []
    await saveRefundBankDetails(context, { reference: overpaid!.toLowerCase(), accountHolder: ' Acme Legal Services ', bankName: 'FNB', branchCode: '250 655', accountNumber: '6200-000-0000' }, audited(entries))
    expect(entries).toEqual([
      {
        action: 'refund-bank-details-saved',
        subjectType: 'registration',
        subjectId: overpaid,
        before: null,
        after: { accountHolder: 'Acme Legal Services', bankName: 'FNB', branchCode: '250655', accountNumber: '62000000000' },
      },
    ])
    // A formula-like name is exported as text.
    await saveRefundBankDetails(context, { reference: cancelled!, accountHolder: '=Cancelled Ltd', bankName: 'Absa', branchCode: '632005', accountNumber: '4070000000' }, STAFF)

    const csv = parse(refundsToPayCsv(await refundsToPay(context)), { bom: true }) as string[][]
    expect(csv).toEqual([
      ['Beneficiary name', 'Bank', 'Branch code', 'Account number', 'Amount', 'Beneficiary reference', 'Own reference'],
      ["'=Cancelled Ltd", 'Absa', '632005', '4070000000', '20677.00', `REFUND ${cancelled}`, `REFUND ${cancelled}`],
      ['Acme Legal Services', 'FNB', '250655', '62000000000', '323.00', `REFUND ${overpaid}`, `REFUND ${overpaid}`],
    ])

    const [credit, surplus] = await refundsToPay(context)
    await expect(recordRefundPayout(context, { refundId: surplus!.id, paidOutOn: '2025-03-02', bankReference: 'X' }, STAFF)).rejects.toMatchObject({ field: 'paidOutOn' })
    await expect(recordRefundPayout(context, { refundId: surplus!.id, paidOutOn: '2025-02-28', bankReference: ' ' }, STAFF)).rejects.toMatchObject({ field: 'bankReference' })
    const paidEntries: CommandAuditEntry[] = []
    await recordRefundPayout(context, { refundId: surplus!.id, paidOutOn: '2025-02-28', bankReference: 'fnb refund 1' }, audited(paidEntries))
    await recordRefundPayout(context, { refundId: credit!.id, paidOutOn: '2025-03-01', bankReference: 'FNB REFUND 2' }, audited(paidEntries))
    expect(paidEntries.map((entry) => [entry.action, entry.subjectId])).toEqual([
      ['refund-paid-out', overpaid],
      ['refund-paid-out', cancelled],
    ])
    await expect(recordRefundPayout(context, { refundId: surplus!.id, paidOutOn: '2025-02-28', bankReference: 'AGAIN' }, STAFF)).rejects.toThrow('already recorded as paid out')

    expect(await refundsToPay(context)).toEqual([])
    expect((await refundsPaidOut(context)).map((refund) => [refund.kind, refund.paidOutOn, refund.bankReference])).toEqual([
      ['cancellation', '2025-03-01', 'FNB REFUND 2'],
      ['surplus', '2025-02-28', 'FNB REFUND 1'],
    ])
  })

  it('refunds on cancellation only what the surplus did not already give back', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    await recordBankTransfer(context, { reference: reference!, amountCents: 2_500_000, receivedOn: '2025-02-25', bankReference: 'FNB OVER' }, STAFF)
    const outcome = await cancelRegistration({ ...context, siteNow: () => IN_FREE_WINDOW }, { reference: reference!, delegateIds: 'all' }, STAFF)
    // R 25 000 arrived: R 4 323 is owed back as the surplus, the cancelled R 20 677 as the cancellation's refund.
    expect(outcome.cancellation.refund).toMatchObject({ amountCents: TOTAL_CENTS })
    expect((await refundsToPay(context)).reduce((sum, refund) => sum + refund.amountCents, 0)).toBe(2_500_000)
  })
})
