import { formatAmount } from '@events/pricing'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { deliverDueMessages } from '../outbox/worker.ts'
import { createRegistration } from '../registration/commands.ts'
import { registrationStatusJson } from '../registration/model.ts'
import { markRegistrationPaid } from '../registration/payment-state.ts'
import { getRegistrationByReferenceAndSecret } from '../registration/queries.ts'
import {
  SITE_NOW,
  TEST_BACKENDS,
  fixedCatalog,
  openTestDatabase,
  registrationInput,
  startMailSink,
  testAuditRows,
  testSiteLinks,
  type TestDatabase,
} from '../test-support.ts'
import { recordBankTransfer, type BankTransferForm } from './bank-transfers.ts'
import { ValidationError } from '../errors.ts'
import type { OutgoingMail } from '../mail/outgoing-mail.ts'
import { RECORDED_BY, register, STAFF, testContext } from './fixtures.ts'

// Legal Opinion, venue, two delegates: 2 × R 8 990 + 15% VAT.
const TOTAL_CENTS = 2_067_700

describe.each(TEST_BACKENDS)('recordBankTransfer on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  // The form as staff send it: the amount in rand, received on the day the registration was made (the business clock's today).
  const transfer = (
    reference: string,
    { amountCents = TOTAL_CENTS, ...overrides }: Partial<BankTransferForm> & { amountCents?: number } = {},
  ): BankTransferForm => ({
    reference,
    amount: formatAmount(amountCents),
    receivedOn: '2025-03-01',
    bankReference: `FNB ${reference}`,
    note: '',
    ...overrides,
  })

  async function registrationRow(reference: string) {
    return testDb.db.kysely.selectFrom('registrations').select(['id', 'status', 'paid_at']).where('reference', '=', reference).executeTakeFirstOrThrow()
  }

  async function receiptsOf(registrationId: string) {
    return testDb.db.kysely
      .selectFrom('outbox_messages')
      .select('mail')
      .where('source_id', '=', registrationId)
      .where('topic', '=', 'payment.receipt')
      .execute()
  }

  async function mailsOf(registrationId: string, topic: string): Promise<OutgoingMail[]> {
    const rows = await testDb.db.kysely
      .selectFrom('outbox_messages')
      .select('mail')
      .where('source_id', '=', registrationId)
      .where('topic', '=', topic)
      .orderBy('created_at')
      .execute()
    return rows.map((row) => JSON.parse(row.mail) as OutgoingMail)
  }

  it('keeps a partial transfer part-paid with the outstanding amount, and the rest marks it paid with one receipt', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)

    const first = await recordBankTransfer(context, transfer(reference!, { amountCents: 1000000, bankReference: 'abc  123', note: 'First half' }), STAFF)
    expect(first.before).toEqual({ status: 'awaiting-payment', paidCents: 0, outstandingCents: TOTAL_CENTS })
    expect(first.after).toEqual({ status: 'part-paid', paidCents: 1_000_000, outstandingCents: TOTAL_CENTS - 1_000_000 })
    expect(first.payment).toMatchObject({ bankReference: 'ABC 123', note: 'First half', recordedBy: RECORDED_BY, receivedOn: '2025-03-01' })
    expect(first.receiptQueued).toBe(false)
    const partPaid = await registrationRow(reference!)
    expect(partPaid).toMatchObject({ status: 'part-paid', paid_at: null })
    expect(await receiptsOf(partPaid.id)).toHaveLength(0)
    const [acknowledgement, ...more] = await mailsOf(partPaid.id, 'payment.part-payment')
    expect(more).toHaveLength(0)
    expect(first.acknowledgementQueued).toBe(true)
    expect(acknowledgement!.subject).toBe(`Part payment received: registration ${reference}`)
    expect(acknowledgement!.text).toContain('Amount received: R 10 000.00')
    expect(acknowledgement!.text).toContain('Received on: 1 March 2025')
    expect(acknowledgement!.text).toContain('As your bank describes it: ABC 123')
    expect(acknowledgement!.text).toContain('Still outstanding: R 10 677.00')
    expect(acknowledgement!.text).toContain(`Payment reference: ${reference}`)
    expect(acknowledgement!.attachments ?? []).toHaveLength(0)

    const second = await recordBankTransfer(context, transfer(reference!, { amountCents: TOTAL_CENTS - 1_000_000, bankReference: 'ABC 124' }), STAFF)
    expect(second.before).toEqual(first.after)
    expect(second.after).toEqual({ status: 'paid', paidCents: TOTAL_CENTS, outstandingCents: 0 })
    expect(second.receiptQueued).toBe(true)
    const paid = await registrationRow(reference!)
    expect(paid.status).toBe('paid')
    expect(paid.paid_at).toBe('2025-03-02T08:00:00.000Z')
    expect(await receiptsOf(paid.id)).toHaveLength(1)
  })

  it("shows a part payment on the registrant's status: part-paid, what was received and what is outstanding", async () => {
    const service = { db: testDb.db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => SITE_NOW }
    const { receipt } = await createRegistration(service, registrationInput())
    const { reference, secret } = receipt
    await recordBankTransfer(testContext(testDb.db), transfer(reference, { amountCents: 67700 }), STAFF)

    const status = registrationStatusJson((await getRegistrationByReferenceAndSecret(service, reference, secret))!)
    expect(status).toMatchObject({ status: 'part-paid', totalCents: TOTAL_CENTS, paidCents: 67_700, outstandingCents: 2_000_000 })
  })

  it("delivers the receipt with the tax invoice attached over SMTP, naming the company's purchase order number", async () => {
    const { sink, transport, stop } = await startMailSink()
    try {
      const [reference] = await register(testDb.db, { purchaseOrderNumber: 'PO-7702' })
      await testDb.db.kysely.updateTable('outbox_messages').set({ status: 'sent' }).execute()
      await recordBankTransfer(testContext(testDb.db), transfer(reference!, { bankReference: 'EFT-778899' }), STAFF)
      await deliverDueMessages({ db: testDb.db, transport, log: () => undefined })

      expect(sink.received).toHaveLength(1)
      const receipt = sink.received[0]!.parsed
      expect(receipt.subject).toBe(`Payment received: registration ${reference}`)
      expect(receipt.text).toContain('We have received your bank transfer')
      expect(receipt.text).toContain('EFT-778899')
      expect(receipt.text).toContain('INV-000001')
      expect(receipt.text).toContain('Your reference: PO-7702')
      expect(receipt.attachments.map((attachment) => attachment.filename)).toEqual(['tax-invoice-INV-000001.pdf'])
      expect(receipt.attachments[0]!.content.subarray(0, 5).toString()).toBe('%PDF-')
    } finally {
      await stop()
    }
  })

  it('records more than the outstanding amount in full: the registration paid, the surplus owed back', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    await recordBankTransfer(context, transfer(reference!, { amountCents: 2000000, bankReference: 'PART-1' }), STAFF)

    const recorded = await recordBankTransfer(context, transfer(reference!, { amountCents: 100_000, bankReference: 'PART-2' }), STAFF)
    expect(recorded).toMatchObject({
      surplusCents: 100_000 - 67_700,
      receiptQueued: true,
      after: { status: 'paid', paidCents: 2_100_000, outstandingCents: 0 },
    })
    const payments = await testDb.db.kysely.selectFrom('bank_payments').select(['bank_reference', 'amount_cents']).orderBy('bank_reference').execute()
    expect(payments).toEqual([
      { bank_reference: 'PART-1', amount_cents: 2_000_000 },
      { bank_reference: 'PART-2', amount_cents: 100_000 },
    ])
    expect(await testDb.db.kysely.selectFrom('surplus_refunds').select(['amount_cents', 'status']).execute()).toEqual([
      { amount_cents: 32_300, status: 'awaiting-payout' },
    ])
    const paid = await registrationRow(reference!)
    expect(paid.status).toBe('paid')
    const [receipt] = await mailsOf(paid.id, 'payment.receipt')
    expect(receipt!.text).toContain('Amount received: R 1 000.00')
    expect(receipt!.text).toContain('Settled: R 677.00 of tax invoice INV-000001')
    expect(receipt!.text).toContain('Paid beyond what was owed: R 323.00')
    expect(receipt!.text).toContain('You paid R 323.00 more than was owed. That money is yours: we will pay it back to you by bank transfer.')
    expect(receipt!.text).not.toContain('Amount paid')
  })

  it('dates the receipt by the day the bank shows, not the day it was recorded', async () => {
    const [reference] = await register(testDb.db, {})
    await recordBankTransfer(
      testContext(testDb.db),
      transfer(reference!, { receivedOn: '2025-02-21', amountCents: 2_100_000, bankReference: 'NEDBANK 55' }),
      STAFF,
    )
    const [receipt] = await mailsOf((await registrationRow(reference!)).id, 'payment.receipt')
    expect(receipt!.text).toContain('Received on: 21 February 2025')
    expect(receipt!.text).not.toContain('1 March 2025')
    expect(receipt!.text).toContain('Amount received: R 21 000.00')
    expect(receipt!.text).toContain('Settled: R 20 677.00 of tax invoice INV-000001')
    expect(receipt!.text).toContain('Paid beyond what was owed: R 323.00')
  })

  it('records a second payment of a registration paid by transfer as all surplus, without a second receipt', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    await recordBankTransfer(context, transfer(reference!), STAFF)
    const again = await recordBankTransfer(context, transfer(reference!, { amountCents: TOTAL_CENTS, bankReference: 'PAID TWICE' }), STAFF)
    expect(again).toMatchObject({ surplusCents: TOTAL_CENTS, receiptQueued: false, after: { status: 'paid', outstandingCents: 0 } })
    const receipts = await testDb.db.kysely.selectFrom('outbox_messages').select('id').where('topic', '=', 'payment.receipt').execute()
    expect(receipts).toHaveLength(1)
  })

  it('refuses a transfer for a registration paid by card', async () => {
    const [reference] = await register(testDb.db, {})
    const { id } = await registrationRow(reference!)
    await testDb.db.writeTransaction((transaction) => markRegistrationPaid(transaction, id, new Date('2025-03-01T10:00:00Z')))
    await expect(recordBankTransfer(testContext(testDb.db), transfer(reference!, { amountCents: 1, bankReference: 'OTHER' }), STAFF)).rejects.toMatchObject({
      code: 'already-paid',
      details: { reference },
    })
    expect(await testDb.db.kysely.selectFrom('bank_payments').select('id').execute()).toEqual([])
  })

  it('refuses a bank reference already recorded for another registration, however it is spaced or cased', async () => {
    const [first, second] = await register(testDb.db, {}, { companyName: 'Other Company' })
    const context = testContext(testDb.db)
    await recordBankTransfer(context, transfer(first!, { amountCents: 500000, bankReference: 'Capitec 4411' }), STAFF)

    await expect(recordBankTransfer(context, transfer(second!, { amountCents: 500000, bankReference: ' CAPITEC   4411 ' }), STAFF)).rejects.toMatchObject({
      code: 'duplicate-bank-reference',
      field: 'bankReference',
      details: { reference: first, receivedOn: '2025-03-01' },
    })
    expect((await registrationRow(second!)).status).toBe('awaiting-payment')
  })

  it.each([
    ['no amount', { amount: '' }, 'amount', 'required'],
    ['R 0.00', { amount: '0.00' }, 'amount', 'invalid-amount'],
    ['a negative amount', { amount: '-100' }, 'amount', 'invalid-amount'],
    ['a fraction of a cent', { amount: '10.505' }, 'amount', 'invalid-amount'],
    ['a date that is not one', { receivedOn: '28/02/2025' }, 'receivedOn', 'invalid-date'],
    ['an impossible date', { receivedOn: '2025-02-30' }, 'receivedOn', 'invalid-date'],
    ['a date after today', { receivedOn: '2025-03-02' }, 'receivedOn', 'date-in-future'],
    ['a date before the registration was made', { receivedOn: '2024-01-01' }, 'receivedOn', 'date-before-registration'],
    ['the day before the registration was made', { receivedOn: '2025-02-02' }, 'receivedOn', 'date-before-registration'],
    ['no bank reference', { bankReference: '   ' }, 'bankReference', 'required'],
    ['a bank reference too long', { bankReference: 'X'.repeat(101) }, 'bankReference', 'too-long'],
  ])('refuses %s by its field and code, recording nothing', async (_case, overrides, path, code) => {
    const [reference] = await register(testDb.db, {})
    const refused = recordBankTransfer(testContext(testDb.db), transfer(reference!, overrides), STAFF)
    await expect(refused).rejects.toBeInstanceOf(ValidationError)
    await expect(refused).rejects.toMatchObject({ issues: [expect.objectContaining({ path, code })] })
    expect(await testDb.db.kysely.selectFrom('bank_payments').select('id').execute()).toEqual([])
    expect(await testAuditRows(testDb.db)).toEqual([])
  })

  it('writes its audit row in its own transaction: who, from where, before and after', async () => {
    const [reference] = await register(testDb.db, {})
    await recordBankTransfer(testContext(testDb.db), transfer(reference!, { amountCents: 67_700, bankReference: 'ABSA 9' }), STAFF)
    expect(await testAuditRows(testDb.db)).toEqual([
      {
        action: 'registration-payment-recorded',
        subjectType: 'registration',
        subjectId: reference,
        actorId: STAFF.id,
        actorRole: 'staff',
        ipAddress: '203.0.113.7',
        before: { status: 'awaiting-payment', paidCents: 0, outstandingCents: TOTAL_CENTS },
        after: {
          status: 'part-paid',
          paidCents: 67_700,
          outstandingCents: TOTAL_CENTS - 67_700,
          bankTransfer: { amountCents: 67_700, receivedOn: '2025-03-01', bankReference: 'ABSA 9' },
          surplusCents: 0,
        },
      },
    ])
  })

  it('keeps no transfer when its audit row cannot be written', async () => {
    const [reference] = await register(testDb.db, {})
    const failingAudit = testContext(testDb.db)
    failingAudit.audit = async () => {
      throw new Error('audit log unavailable')
    }
    await expect(recordBankTransfer(failingAudit, transfer(reference!), STAFF)).rejects.toThrow('audit log unavailable')
    expect(await testDb.db.kysely.selectFrom('bank_payments').select('id').execute()).toEqual([])
    expect((await registrationRow(reference!)).status).toBe('awaiting-payment')
    expect(await testDb.db.kysely.selectFrom('outbox_messages').select('id').where('topic', '=', 'payment.receipt').execute()).toEqual([])
  })

  it('refuses an unknown reference', async () => {
    await expect(recordBankTransfer(testContext(testDb.db), transfer('ZZZZ-9999'), STAFF)).rejects.toMatchObject({ code: 'not-found' })
  })

  it('counts the surplus once when several recordings for one registration arrive at once', async () => {
    const [reference] = await register(testDb.db, {})
    // Three connections on PostgreSQL, like three instances; SQLite has its one.
    const handles = [testDb.db, await testDb.openAnother(), await testDb.openAnother()]
    const third = Math.floor(TOTAL_CENTS / 3)
    const attempts = Array.from({ length: 6 }, (_, index) =>
      recordBankTransfer(testContext(handles[index % handles.length]!), transfer(reference!, { amountCents: third, bankReference: `SPLIT-${index}` }), STAFF),
    )
    const outcomes = await Promise.allSettled(attempts)

    // Every transfer is recorded; each reads what the ones before it left outstanding, so the surplus adds up exactly.
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(6)
    const { surplus } = await testDb.db.kysely
      .selectFrom('surplus_refunds')
      .select((eb) => eb.fn.sum<number | string>('amount_cents').as('surplus'))
      .executeTakeFirstOrThrow()
    expect(Number(surplus)).toBe(third * 6 - TOTAL_CENTS)
    const receipts = await testDb.db.kysely.selectFrom('outbox_messages').select('id').where('topic', '=', 'payment.receipt').execute()
    expect(receipts).toHaveLength(1)
    expect((await registrationRow(reference!)).status).toBe('paid')
  })

  it('records one bank reference once when two registrations claim it at once', async () => {
    const [first, second] = await register(testDb.db, {}, { companyName: 'Other Company' })
    const other = await testDb.openAnother()
    const outcomes = await Promise.allSettled([
      recordBankTransfer(testContext(testDb.db), transfer(first!, { amountCents: 1000, bankReference: 'SAME-REF' }), STAFF),
      recordBankTransfer(testContext(other), transfer(second!, { amountCents: 1000, bankReference: 'SAME-REF' }), STAFF),
    ])
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1)
    const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult
    expect(refused.reason).toMatchObject({ code: 'duplicate-bank-reference' })
  })
})
