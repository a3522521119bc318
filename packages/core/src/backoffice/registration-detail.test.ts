import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TEST_BACKENDS, openTestDatabase, type TestDatabase } from '../test-support.ts'
import { recordBankTransfer } from './bank-transfers.ts'
import { RECORDED_BY, register, STAFF, testContext } from './fixtures.ts'
import { getRegistrationDetail, registrationInvoicePdf } from './registration-detail.ts'

describe.each(TEST_BACKENDS)('getRegistrationDetail on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  it('shows company, delegates, amounts, invoice, bank payments and every e-mail with its outbox status', async () => {
    const [reference] = await register(testDb.db, { paymentMethod: 'Credit/Debit Card' })
    const { id } = await testDb.db.kysely.selectFrom('registrations').select('id').where('reference', '=', reference!).executeTakeFirstOrThrow()
    await recordBankTransfer(
      testContext(testDb.db),
      { reference: reference!, amount: '677.00', receivedOn: '2025-03-01', bankReference: 'NEDBANK 55', note: 'Deposit' },
      STAFF,
    )
    const messages = await testDb.db.kysely.selectFrom('outbox_messages').select(['id', 'topic']).where('source_id', '=', id).orderBy('id').execute()
    const organiserMail = messages.find((message) => message.topic === 'registration.organiser')!
    await testDb.db.kysely
      .updateTable('outbox_messages')
      .set({ status: 'failed', attempts: 7, last_error: '550 mailbox unavailable' })
      .where('id', '=', organiserMail.id)
      .execute()

    const detail = await getRegistrationDetail(testContext(testDb.db), reference!.toLowerCase())

    expect(detail).toMatchObject({
      reference,
      status: 'part-paid',
      paidAt: null,
      paymentMethod: 'card',
      code: 'LOW2025',
      event: { slug: 'legalOpinion', title: 'Legal Opinion Writing 2025', start: '2025-07-03T06:30:00Z' },
      company: {
        name: 'Acme Legal Services',
        address: '12 Main Road\nRosebank\nJohannesburg',
        email: 'bookings@acme.example.com',
        tel: '+27 11 555 0100',
        vatNumber: '4123456789',
      },
      attendanceOption: { key: 'venue', label: 'Venue' },
      amounts: {
        unitAmountCents: 899_000,
        subtotalCents: 1_798_000,
        vatRate: 0.15,
        vatCents: 269_700,
        totalCents: 2_067_700,
        currency: 'ZAR',
        paidCents: 67_700,
        outstandingCents: 2_000_000,
      },
      invoice: { number: 'INV-000001' },
      bankPayments: [{ amountCents: 67_700, receivedOn: '2025-03-01', bankReference: 'NEDBANK 55', note: 'Deposit', recordedBy: RECORDED_BY }],
    })
    expect(detail!.secret).toMatch(/^[\w-]{43}$/)
    expect(detail!.delegates).toEqual([
      { name: 'Thandi Nkosi', position: 'Legal Adviser', email: 'thandi@acme.example.com', attendance: 'venue', cancelled: false },
      { name: 'Pieter van Wyk', position: 'Paralegal', email: 'pieter@acme.example.com', attendance: 'venue', cancelled: false },
    ])
    expect(detail!.invoice!.issuedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    expect(detail!.emails).toHaveLength(5)
    const byTopic = Object.fromEntries(
      detail!.emails.map((email) => [email.topic === 'registration.delegate' ? `delegate ${email.to[0]}` : email.topic, email]),
    )
    expect(byTopic['registration.organiser']).toMatchObject({ status: 'failed', attempts: 7, lastError: '550 mailbox unavailable', sentAt: null })
    expect(byTopic['registration.registrant']).toMatchObject({
      status: 'pending',
      attempts: 0,
      lastError: null,
      to: ['bookings@acme.example.com'],
      subject: `Registration ${reference}: Legal Opinion Writing 2025`,
    })
    expect(Object.keys(byTopic).sort()).toEqual([
      'delegate pieter@acme.example.com',
      'delegate thandi@acme.example.com',
      'payment.part-payment',
      'registration.organiser',
      'registration.registrant',
    ])
  })

  it('answers undefined for an unknown or malformed reference', async () => {
    expect(await getRegistrationDetail(testContext(testDb.db), 'ZZZZ9999')).toBeUndefined()
    expect(await getRegistrationDetail(testContext(testDb.db), "' or 1=1 --")).toBeUndefined()
    expect(await registrationInvoicePdf(testContext(testDb.db), 'ZZZZ9999')).toBeUndefined()
    expect(await registrationInvoicePdf(testContext(testDb.db), "' or 1=1 --")).toBeUndefined()
  })

  it('gives staff the tax invoice PDF by reference alone, the same bytes every time', async () => {
    const [first, second] = await register(testDb.db, {}, { companyName: 'Other Company' })
    const invoice = await registrationInvoicePdf(testContext(testDb.db), second!.toLowerCase())
    expect(invoice?.filename).toBe('tax-invoice-INV-000002.pdf')
    expect(invoice!.pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect((await registrationInvoicePdf(testContext(testDb.db), second!))!.pdf.equals(invoice!.pdf)).toBe(true)
    expect((await registrationInvoicePdf(testContext(testDb.db), first!))?.filename).toBe('tax-invoice-INV-000001.pdf')
  })
})
