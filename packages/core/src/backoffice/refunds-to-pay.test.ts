import { parse } from 'csv-parse/sync'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cancelRegistration } from '../cancellation/cancel.ts'
import { getRegistrationDetail } from './registration-detail.ts'
import { fixedCatalog, LEGAL_OPINION, RESILIENCE, TEST_BACKENDS, openTestDatabase, testAuditRows, type TestDatabase } from '../test-support.ts'
import { cancelSponsorshipDeal, recordSponsorshipDeal } from '../sponsorship/deals.ts'
import { isBackOfficeError } from './errors.ts'
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
  it('lists a sponsorship deal’s overpayment among the refunds to pay, takes the sponsor’s account and records it paid out', async () => {
    const gold = {
      id: 'sponsor-gold',
      title: 'Gold',
      complimentarySeats: 2,
      participantDiscountPercent: 30,
      promotionalTextWords: 70,
      literaturePages: 10,
      speakingSlot: '40-minute case study',
      priceExclVat: null,
    }
    const context = { ...testContext(testDb.db), catalog: { ...fixedCatalog([LEGAL_OPINION, RESILIENCE]), getSponsorPackage: async () => gold } }
    const dealInput = {
      event: 'Resilience',
      packageId: 'sponsor-gold',
      companyName: 'Gold Mining Ltd',
      address: '1 Commissioner Street',
      contactName: 'Pieter Goud',
      contactEmail: 'pieter@gold.example.com',
      contactTel: '011 555 0200',
      agreedPrice: '80 000',
    }
    // R 92 000.00 owed: a part payment, then one paying R 1 000.00 too much.
    const deal = await recordSponsorshipDeal(context, dealInput, STAFF)
    await recordBankTransfer(context, { reference: deal.reference, amount: '50 000.00', receivedOn: '2025-03-01', bankReference: 'GOLD 1' }, STAFF)
    expect(await refundsToPay(context)).toEqual([])
    const over = await recordBankTransfer(context, { reference: deal.reference, amount: '43 000.00', receivedOn: '2025-03-01', bankReference: 'GOLD 2' }, STAFF)
    expect(over).toMatchObject({ surplusCents: 100_000, after: { status: 'paid' } })
    // A cancelled deal owes nothing: what arrives for it is all surplus.
    const cancelled = await recordSponsorshipDeal(context, { ...dealInput, companyName: 'Cancelled Sponsor Ltd', contactEmail: 'c@sponsor.example.com' }, STAFF)
    await cancelSponsorshipDeal(context, { dealId: cancelled.id }, MANAGER)
    await recordBankTransfer(context, { reference: cancelled.reference, amount: '5 000.00', receivedOn: '2025-03-01', bankReference: 'GOLD 3' }, STAFF)

    const owed = await refundsToPay(context)
    expect(
      owed.map((refund) => [refund.kind, refund.registrationReference, refund.dealId, refund.companyName, refund.email, refund.amountCents, refund.reason]),
    ).toEqual([
      [
        'surplus',
        deal.reference,
        deal.id,
        'Gold Mining Ltd',
        'pieter@gold.example.com',
        100_000,
        'Sponsorship overpaid: a transfer of R 43 000.00 received 2025-03-01 (GOLD 2)',
      ],
      [
        'surplus',
        cancelled.reference,
        cancelled.id,
        'Cancelled Sponsor Ltd',
        'c@sponsor.example.com',
        500_000,
        'Sponsorship overpaid: a transfer of R 5 000.00 received 2025-03-01 (GOLD 3)',
      ],
    ])

    // The sponsor's account, by the deal's reference; the CSV for the bank then carries it.
    await saveRefundBankDetails(
      context,
      { reference: deal.reference.toLowerCase(), accountHolder: 'Gold Mining Ltd', bankName: 'FNB', branchCode: '250655', accountNumber: '62000000001' },
      STAFF,
    )
    const [withAccount] = await refundsToPay(context)
    expect(withAccount!.bankDetails).toEqual({ accountHolder: 'Gold Mining Ltd', bankName: 'FNB', branchCode: '250655', accountNumber: '62000000001' })
    const rows = parse(refundsToPayCsv(await refundsToPay(context)).replace(/^\uFEFF/, ''), { columns: true }) as Array<Record<string, string>>
    expect(rows).toEqual([expect.objectContaining({ 'Beneficiary name': 'Gold Mining Ltd', Amount: '1000.00', 'Own reference': `REFUND ${deal.reference}` })])

    // Staff are refused; a manager records it paid out, once, not before the transfer arrived.
    const refused = await recordRefundPayout(context, { refundId: withAccount!.id, paidOutOn: '2025-03-01', bankReference: 'PAYOUT 1' }, STAFF).catch(
      (error: unknown) => error,
    )
    expect(isBackOfficeError(refused) && refused.code).toBe('role-required')
    await expect(recordRefundPayout(context, { refundId: withAccount!.id, paidOutOn: '2025-02-28', bankReference: 'PAYOUT 1' }, MANAGER)).rejects.toMatchObject(
      {
        issues: [{ path: 'paidOutOn', code: 'date-before-transfer' }],
      },
    )
    expect(await recordRefundPayout(context, { refundId: withAccount!.id, paidOutOn: '2025-03-01', bankReference: 'PAYOUT 1' }, MANAGER)).toEqual({
      reference: deal.reference,
      amountCents: 100_000,
    })
    const twice = await recordRefundPayout(context, { refundId: withAccount!.id, paidOutOn: '2025-03-01', bankReference: 'PAYOUT 1' }, MANAGER).catch(
      (error: unknown) => error,
    )
    expect(isBackOfficeError(twice) && twice.code).toBe('nothing-to-pay-out')
    expect((await refundsToPay(context)).map((refund) => refund.registrationReference)).toEqual([cancelled.reference])
    expect((await refundsPaidOut(context)).map((refund) => [refund.registrationReference, refund.amountCents, refund.paidOutOn, refund.bankReference])).toEqual(
      [[deal.reference, 100_000, '2025-03-01', 'PAYOUT 1']],
    )
    const audit = (await testAuditRows(testDb.db)).filter((row) => row.subjectType === 'sponsorship-surplus-refund' || row.subjectType === 'sponsorship-deal')
    expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(['refund-bank-details-saved', 'refund-paid-out']))
  })
})
