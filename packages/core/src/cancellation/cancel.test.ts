import { formatAmount } from '@events/pricing'
import { extractText, getDocumentProxy } from 'unpdf'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recordBankTransfer } from '../backoffice/bank-transfers.ts'
import { delegateList } from '../backoffice/delegate-list.ts'
import { paymentStateOf } from '../registration/payment-state.ts'
import { MANAGER, RECORDED_BY_MANAGER, register, STAFF, testContext } from '../backoffice/fixtures.ts'
import { outgoingMailOf } from '../outbox/stored-mail.ts'
import { getCreditNotePdf, getRegistrationByReferenceAndSecret } from '../registration/queries.ts'
import { TEST_BACKENDS, openTestDatabase, testAuditRows, type TestDatabase } from '../test-support.ts'
import { cancellationProposal, cancelRegistration, recordRefundPaidOut } from './cancel.ts'
import { renderStoredCreditNote } from './credit-note.ts'

// Legal Opinion (Thursday 3 July 2025), venue, two delegates: 2 × R 8 990 + 15% VAT = R 20 677.00.
const TOTAL_CENTS = 2_067_700
// The 50% fee applies from 12 June 2025 (14 working days before, Youth Day skipped), 100% from 26 June.
const IN_HALF_FEE_WINDOW = new Date('2025-06-20T10:00:00+02:00')

async function pdfText(pdf: Buffer): Promise<string> {
  const document = await getDocumentProxy(new Uint8Array(pdf))
  const { text } = await extractText(document, { mergePages: true })
  return text
}

describe.each(TEST_BACKENDS)('cancellations on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  const contextOn = (day: Date) => ({ ...testContext(testDb.db), siteNow: () => day })

  it('cancels a paid registration with the 50% fee: a credit note for the rest, e-mailed, and a bank refund to pay out', async () => {
    const [reference] = await register(testDb.db, { purchaseOrderNumber: 'PO-4410' })
    await recordBankTransfer(
      testContext(testDb.db),
      { reference: reference!, amount: formatAmount(TOTAL_CENTS), receivedOn: '2025-03-01', bankReference: 'FNB 1' },
      STAFF,
    )
    const context = contextOn(IN_HALF_FEE_WINDOW)

    const proposal = await cancellationProposal(context, reference!)
    expect(proposal.fee).toMatchObject({ feePercent: 50, workingDaysBefore: 9, halfFeeFrom: '2025-06-12', fullFeeFrom: '2025-06-26' })
    expect(proposal.paidCents).toBe(TOTAL_CENTS)

    const outcome = await cancelRegistration(context, { reference: reference!, delegateIds: 'all' }, MANAGER)
    expect(outcome.cancellation).toMatchObject({
      wholeRegistration: true,
      delegates: ['Thandi Nkosi', 'Pieter van Wyk'],
      proposedFeePercent: 50,
      feePercent: 50,
      feeSubtotalCents: 899_000,
      creditedSubtotalCents: 899_000,
      creditedVatCents: 134_850,
      creditedTotalCents: 1_033_850,
      refundableCents: 1_033_850,
      creditNote: { number: 'CN-000001', issueDate: '20 June 2025' },
      refund: { method: 'bank-transfer', status: 'awaiting-payout', amountCents: 1_033_850 },
      cancelledBy: RECORDED_BY_MANAGER,
    })
    expect(outcome.after).toEqual({ cancelledDelegates: ['Thandi Nkosi', 'Pieter van Wyk'], owedCents: 1_033_850, registrationCancelled: true })

    const registration = await testDb.db.kysely
      .selectFrom('registrations')
      .select(['id', 'cancelled_at', 'status'])
      .where('reference', '=', reference!)
      .executeTakeFirstOrThrow()
    expect(registration.cancelled_at).not.toBeNull()
    expect(registration.status).toBe('paid')
    // Nothing is deleted: the delegates and the invoice stay.
    expect(await testDb.db.kysely.selectFrom('registration_delegates').select('id').where('registration_id', '=', registration.id).execute()).toHaveLength(2)
    expect(await testDb.db.kysely.selectFrom('invoices').select('id').where('registration_id', '=', registration.id).execute()).toHaveLength(1)

    const text = await pdfText((await renderStoredCreditNote(testDb.db, outcome.cancellation.creditNote!.id))!)
    for (const expected of [
      'Credit Note',
      'CN-000001',
      'INV-000001',
      '3 February 2025',
      reference!,
      'Acme Legal Services',
      '4123456789',
      'R 8 990.00',
      'R 1 348.50',
      'R 10 338.50',
      'VAT at 15%',
      'cancellation fee 50%',
      // The company's purchase order number, as on the invoice.
      'Your reference: PO-4410',
    ]) {
      expect(text).toContain(expected)
    }

    const queued = await testDb.db.kysely.selectFrom('outbox_messages').selectAll().where('topic', '=', 'cancellation.credit-note').execute()
    expect(queued).toHaveLength(1)
    const mail = await outgoingMailOf(testDb.db, queued[0]!)
    expect(mail.to).toEqual(['bookings@acme.example.com'])
    expect(mail.subject).toBe(`Cancellation and credit note CN-000001: registration ${reference}`)
    expect(mail.text).toContain('To be refunded by bank transfer: R 10 338.50')
    expect(mail.attachments?.[0]).toMatchObject({ filename: 'credit-note-CN-000001.pdf', contentType: 'application/pdf' })
    expect(await pdfText(Buffer.from(mail.attachments![0]!.content, 'base64'))).toContain('CN-000001')

    // The registrant downloads it through their private link only.
    const registrations = { db: testDb.db }
    const secret = (await testDb.db.kysely.selectFrom('registrations').select('secret').where('id', '=', registration.id).executeTakeFirstOrThrow()).secret
    expect((await getRegistrationByReferenceAndSecret(registrations, reference!, secret))?.creditNotes).toEqual([{ number: 'CN-000001' }])
    expect((await getCreditNotePdf(registrations, reference!, secret, 'CN-000001'))?.filename).toBe('credit-note-CN-000001.pdf')
    expect(await getCreditNotePdf(registrations, reference!, 'not-the-secret', 'CN-000001')).toBeUndefined()
    expect(await getCreditNotePdf(registrations, reference!, secret, 'CN-000002')).toBeUndefined()
    expect(await getCreditNotePdf(registrations, reference!, secret, '../invoice')).toBeUndefined()

    const refundId = outcome.cancellation.refund!.id
    await expect(recordRefundPaidOut(context, { reference: reference!, refundId, paidOutOn: '2025-06-21', bankReference: 'x' }, MANAGER)).rejects.toMatchObject(
      {
        issues: [{ path: 'paidOutOn', code: 'date-in-future' }],
      },
    )
    await expect(recordRefundPaidOut(context, { reference: reference!, refundId, paidOutOn: '2025-06-19', bankReference: 'x' }, MANAGER)).rejects.toMatchObject(
      {
        issues: [{ path: 'paidOutOn', code: 'date-before-cancellation' }],
      },
    )
    // Paying a refund out is a manager's: a staff actor is refused by the command itself.
    await expect(
      recordRefundPaidOut(context, { reference: reference!, refundId, paidOutOn: '2025-06-20', bankReference: 'R 76' }, STAFF),
    ).rejects.toMatchObject({ code: 'role-required' })
    const paidOut = await recordRefundPaidOut(context, { reference: reference!, refundId, paidOutOn: '2025-06-20', bankReference: ' refund  77 ' }, MANAGER)
    expect(paidOut.before.status).toBe('awaiting-payout')
    expect(paidOut.after).toMatchObject({ status: 'paid-out', paidOutOn: '2025-06-20', bankReference: 'REFUND 77', recordedBy: RECORDED_BY_MANAGER })
    await expect(recordRefundPaidOut(context, { reference: reference!, refundId, paidOutOn: '2025-06-20', bankReference: 'R 78' }, MANAGER)).rejects.toThrow(
      expect.objectContaining({ code: 'nothing-to-pay-out', details: { status: 'paid-out' } }),
    )

    await expect(cancelRegistration(context, { reference: reference!, delegateIds: 'all' }, MANAGER)).rejects.toMatchObject({ code: 'already-cancelled' })
  })

  it('cancels single delegates free of charge early on, then the rest; an unpaid registration gets no refund', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    const proposal = await cancellationProposal(context, reference!)
    expect(proposal.fee.feePercent).toBe(0)
    const pieter = proposal.delegates.find((delegate) => delegate.name === 'Pieter van Wyk')!

    const first = await cancelRegistration(context, { reference: reference!, delegateIds: [pieter.id] }, MANAGER)
    expect(first.cancellation).toMatchObject({ wholeRegistration: false, delegates: ['Pieter van Wyk'], creditedTotalCents: 1_033_850, refund: null })
    expect(first.after).toMatchObject({ owedCents: 1_033_850, registrationCancelled: false })
    await expect(cancelRegistration(context, { reference: reference!, delegateIds: [pieter.id] }, MANAGER)).rejects.toThrow(
      expect.objectContaining({ code: 'delegate-not-attending' }),
    )
    expect((await delegateList(context, 'event-legal-opinion'))?.rows.map((row) => row.delegateName)).toEqual(['Thandi Nkosi'])

    const second = await cancelRegistration(context, { reference: reference!, delegateIds: 'all' }, MANAGER)
    expect(second.cancellation).toMatchObject({
      wholeRegistration: true,
      delegates: ['Thandi Nkosi'],
      creditedTotalCents: 1_033_850,
      creditNote: { number: 'CN-000002' },
    })
    expect(second.after.owedCents).toBe(0)
    const after = await cancellationProposal(context, reference!)
    expect(after.cancellations.map((cancellation) => cancellation.creditNote?.number)).toEqual(['CN-000001', 'CN-000002'])
    expect(after.cancelledAt).not.toBeNull()
  })

  it("issues the credit note but e-mails it to no one when the registrant's address was erased", async () => {
    const [reference] = await register(testDb.db, {})
    // What erasePersonalData leaves of the registrant's address.
    await testDb.db.kysely.updateTable('registrations').set({ email: '' }).where('reference', '=', reference!).execute()
    const outcome = await cancelRegistration(testContext(testDb.db), { reference: reference!, delegateIds: 'all' }, MANAGER)
    expect(outcome.cancellation.creditNote).toMatchObject({ number: 'CN-000001' })
    expect(await testDb.db.kysely.selectFrom('outbox_messages').select('id').where('topic', '=', 'cancellation.credit-note').execute()).toEqual([])
  })

  it('leaves the fee outstanding on an unpaid registration, paid by transfer; a later cancellation refunds the right amount', async () => {
    const [reference] = await register(testDb.db, {})
    const context = contextOn(IN_HALF_FEE_WINDOW)
    const { delegates } = await cancellationProposal(context, reference!)
    await cancelRegistration(context, { reference: reference!, delegateIds: [delegates[1]!.id] }, MANAGER)
    const row = await testDb.db.kysely
      .selectFrom('registrations')
      .select(['id', 'status', 'total_cents'])
      .where('reference', '=', reference!)
      .executeTakeFirstOrThrow()
    // One delegate at 50%: R 5 169.25 credited, so R 15 507.75 is owed.
    expect(await paymentStateOf(testDb.db.kysely, row)).toEqual({ status: 'awaiting-payment', paidCents: 0, outstandingCents: 1_550_775 })

    const transfer = { reference: reference!, receivedOn: '2025-06-20', bankReference: 'FNB 9' }
    const paid = await recordBankTransfer(context, { ...transfer, amount: '15507.75' }, STAFF)
    expect(paid.after).toEqual({ status: 'paid', paidCents: 1_550_775, outstandingCents: 0 })

    // The other delegate at 50% credits R 5 169.25 more, which was paid and goes back.
    const second = await cancelRegistration(context, { reference: reference!, delegateIds: 'all' }, MANAGER)
    expect(second.cancellation).toMatchObject({
      creditedTotalCents: 516_925,
      refundableCents: 516_925,
      refund: { method: 'bank-transfer', amountCents: 516_925 },
    })
  })

  it('applies another fee only with a reason, and a refusal changes nothing', async () => {
    const [reference] = await register(testDb.db, {})
    const context = contextOn(IN_HALF_FEE_WINDOW)
    for (const [input, path, code] of [
      [{ feePercent: 0 }, 'overrideReason', 'reason-required'],
      [{ feePercent: '0', overrideReason: '   ' }, 'overrideReason', 'reason-required'],
      [{ feePercent: 150, overrideReason: 'x' }, 'feePercent', 'invalid-percentage'],
      [{ feePercent: 12.5, overrideReason: 'x' }, 'feePercent', 'invalid-percentage'],
      [{ feePercent: 'half', overrideReason: 'x' }, 'feePercent', 'invalid-percentage'],
    ] as const) {
      await expect(cancelRegistration(context, { reference: reference!, delegateIds: 'all', ...input }, MANAGER)).rejects.toMatchObject({
        issues: [{ path, code }],
      })
    }
    await expect(cancelRegistration(context, { reference: reference!, delegateIds: [] }, MANAGER)).rejects.toMatchObject({
      issues: [{ path: 'delegateIds', code: 'no-delegates' }],
    })
    expect(await testDb.db.kysely.selectFrom('cancellations').select('id').execute()).toHaveLength(0)
    expect(await testDb.db.kysely.selectFrom('credit_notes').select('id').execute()).toHaveLength(0)

    const waived = await cancelRegistration(
      context,
      { reference: reference!, delegateIds: 'all', feePercent: 0, overrideReason: 'Agreed in writing: illness' },
      MANAGER,
    )
    expect(waived.cancellation).toMatchObject({
      proposedFeePercent: 50,
      feePercent: 0,
      overrideReason: 'Agreed in writing: illness',
      creditedTotalCents: TOTAL_CENTS,
    })
    // Both audit rows were written in the cancellation's transaction, with the member's address.
    expect(await testAuditRows(testDb.db)).toEqual([
      expect.objectContaining({
        action: 'registration-cancelled',
        subjectId: reference,
        ipAddress: MANAGER.ipAddress,
        after: expect.objectContaining({ feePercent: 0, creditNote: 'CN-000001' }),
      }),
      expect.objectContaining({
        action: 'cancellation-fee-overridden',
        subjectId: reference,
        before: { feePercent: 50 },
        after: { feePercent: 0, reason: 'Agreed in writing: illness' },
      }),
    ])
  })

  it('issues no credit note when the fee is the whole amount', async () => {
    const [reference] = await register(testDb.db, {})
    const outcome = await cancelRegistration(contextOn(new Date('2025-06-30T09:00:00+02:00')), { reference: reference!, delegateIds: 'all' }, MANAGER)
    expect(outcome.cancellation).toMatchObject({ feePercent: 100, creditedTotalCents: 0, creditNote: null, refund: null })
    expect(outcome.after.owedCents).toBe(TOTAL_CENTS)
  })

  it('cancels a table only as a whole', async () => {
    const [reference] = await register(testDb.db, { event: 'Resilience', code: 'ERC2025', attendanceOption: 'table-5' })
    const proposal = await cancellationProposal(testContext(testDb.db), reference!)
    expect(proposal.pricedAsTable).toBe(true)
    await expect(cancelRegistration(testContext(testDb.db), { reference: reference!, delegateIds: [proposal.delegates[0]!.id] }, MANAGER)).rejects.toThrow(
      expect.objectContaining({ code: 'table-cancelled-in-part' }),
    )
  })

  it('numbers credit notes without gaps or duplicates when many cancellations run at once', async () => {
    const count = 12
    const references = await register(testDb.db, ...Array.from({ length: count }, (_, index) => ({ companyName: `Company ${index}` })))
    // A second handle plays a second server instance on PostgreSQL (the same handle on SQLite).
    const other = await testDb.openAnother()
    const outcomes = await Promise.all(
      references.map((reference, index) => cancelRegistration(testContext(index % 2 === 0 ? testDb.db : other), { reference, delegateIds: 'all' }, MANAGER)),
    )
    const numbers = outcomes.map((outcome) => outcome.cancellation.creditNote!.number).sort()
    expect(numbers).toEqual(Array.from({ length: count }, (_, index) => `CN-${String(index + 1).padStart(6, '0')}`))
    const stored = await testDb.db.kysely.selectFrom('credit_notes').select('number').orderBy('number').execute()
    expect(stored.map((row) => Number(row.number))).toEqual(Array.from({ length: count }, (_, index) => index + 1))
  })

  it('cancels one registration once when two staff confirm at the same moment', async () => {
    const [reference] = await register(testDb.db, {})
    const other = await testDb.openAnother()
    const results = await Promise.allSettled([
      cancelRegistration(testContext(testDb.db), { reference: reference!, delegateIds: 'all' }, MANAGER),
      cancelRegistration(testContext(other), { reference: reference!, delegateIds: 'all' }, MANAGER),
    ])
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: { code: 'already-cancelled' } })
    expect(await testDb.db.kysely.selectFrom('credit_notes').select('id').execute()).toHaveLength(1)
  })
})
