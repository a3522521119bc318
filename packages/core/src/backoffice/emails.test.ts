import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { UNCERTAIN_SEND, deliverDueMessages } from '../outbox/worker.ts'
import { TEST_BACKENDS, openTestDatabase, pdftotext, useMailSink, type TestDatabase } from '../test-support.ts'
import { recordBankTransfer } from './bank-transfers.ts'
import { cancellationProposal, cancelRegistration } from '../cancellation/cancel.ts'
import { correctInvoice } from '../invoice/correct-invoice.ts'
import { correctCompanyDetails } from './registration-changes.ts'
import { listFailedMessages, listUncertainMessages, resendRegistrationMail, retryFailedMessage, settleUncertainMessage } from './emails.ts'
import { register, MANAGER, STAFF, testContext } from './fixtures.ts'

describe.each(TEST_BACKENDS)('back-office e-mails on %s', (backend) => {
  let testDb: TestDatabase
  const { sink, transport } = useMailSink()

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  const deliver = () => deliverDueMessages({ db: testDb.db, transport: transport(), log: () => undefined })

  /** A registration paid in full by bank transfer whose second delegate is then cancelled (credit note CN-000001), its e-mails delivered. */
  async function paidInFullThenOneDelegateCancelled(): Promise<string> {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    await recordBankTransfer(context, { reference: reference!, amount: '20677.00', receivedOn: '2025-03-01', bankReference: 'R1' }, STAFF)
    const { delegates } = await cancellationProposal(context, reference!)
    await cancelRegistration(context, { reference: reference!, delegateIds: [delegates[1]!.id] }, MANAGER)
    await deliver()
    return reference!
  }

  it("sends the registrant's confirmation again, with its invoice and calendar file", async () => {
    const [reference] = await register(testDb.db, {})
    await deliver()
    sink().received.length = 0

    const queued = await resendRegistrationMail(testContext(testDb.db), { reference: reference!.toLowerCase(), mail: 'confirmation' }, STAFF)
    expect(queued).toMatchObject({
      topic: 'registration.registrant',
      to: ['bookings@acme.example.com'],
      subject: `Registration ${reference}: Legal Opinion Writing 2025`,
    })
    await deliver()

    expect(sink().received.map((mail) => mail.parsed.subject)).toEqual([`Registration ${reference}: Legal Opinion Writing 2025`])
    expect(
      sink()
        .received[0]!.parsed.attachments.filter((attachment) => attachment.contentDisposition !== 'inline')
        .map((attachment) => attachment.filename)
        .sort(),
    ).toEqual(['event.ics', 'tax-invoice-INV-000001.pdf'].sort())
  })

  it('sends the receipt again once paid, and refuses before', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    await expect(resendRegistrationMail(context, { reference: reference!, mail: 'receipt' }, STAFF)).rejects.toThrow(
      expect.objectContaining({ code: 'no-receipt' }),
    )
    await recordBankTransfer(context, { reference: reference!, amount: '20677.00', receivedOn: '2025-03-01', bankReference: 'R1' }, STAFF)
    await deliver()
    sink().received.length = 0

    await resendRegistrationMail(context, { reference: reference!, mail: 'receipt' }, STAFF)
    await deliver()

    expect(sink().received).toHaveLength(1)
    expect(sink().received[0]!.parsed.subject).toBe(`Payment received: registration ${reference}`)
    expect(sink().received[0]!.parsed.attachments.map((attachment) => attachment.filename)).toEqual(['tax-invoice-INV-000001.pdf'])
  })

  it('states the position when a receipt is resent after a cancellation, with the credit notes beside the tax invoice', async () => {
    const reference = await paidInFullThenOneDelegateCancelled()
    const context = testContext(testDb.db)
    sink().received.length = 0
    const attachments = () =>
      sink()
        .received[0]!.parsed.attachments.map((attachment) => attachment.filename)
        .sort()

    // Part-cancelled: the credit note of the cancelled delegate, and the refund owed back.
    await resendRegistrationMail(context, { reference: reference!, mail: 'receipt' }, STAFF)
    await deliver()
    const partCancelled = sink().received[0]!.parsed
    expect(partCancelled.subject).toBe(`Payment received: registration ${reference}`)
    expect(partCancelled.text).toMatch(new RegExp(`^Where registration ${reference} stands on \\d+ \\w+ 2025:`))
    expect(partCancelled.text).toContain('Credit note CN-000001: R 10 338.50 credited: delegate Pieter van Wyk cancelled on')
    expect(partCancelled.text).toContain('Received: R 20 677.00. Nothing is outstanding. Still to be refunded to you: R 10 338.50.')
    expect(partCancelled.text).not.toContain('is cancelled')
    // The receipt as first sent follows.
    expect(partCancelled.text).toContain('Your receipt, as first sent:')
    expect(partCancelled.text).toContain('your registration is paid in full')
    expect(partCancelled.html).toContain('CN-000001')
    expect(attachments()).toEqual(['credit-note-CN-000001.pdf', 'tax-invoice-INV-000001.pdf'])
    const creditNote = partCancelled.attachments.find((attachment) => attachment.filename === 'credit-note-CN-000001.pdf')!
    expect(creditNote.contentType).toBe('application/pdf')
    expect(creditNote.content.subarray(0, 5).toString()).toBe('%PDF-')

    // Cancelled as a whole: said so, with both credit notes, and what is owed back is all that was credited.
    await cancelRegistration(context, { reference: reference!, delegateIds: 'all' }, MANAGER)
    await deliver()
    sink().received.length = 0
    await resendRegistrationMail(context, { reference: reference!, mail: 'receipt' }, STAFF)
    await deliver()
    const cancelled = sink().received[0]!.parsed.text!
    expect(cancelled).toContain(`Registration ${reference} is cancelled.`)
    expect(cancelled).toContain('Credit note CN-000001: R 10 338.50 credited: delegate Pieter van Wyk cancelled on')
    expect(cancelled).toContain('Credit note CN-000002: R 10 338.50 credited: the registration (Thandi Nkosi) cancelled on')
    expect(cancelled).toContain('Still to be refunded to you: R 20 677.00.')
    expect(attachments()).toEqual(['credit-note-CN-000001.pdf', 'credit-note-CN-000002.pdf', 'tax-invoice-INV-000001.pdf'])
  })

  it('restates the receipt the payment sent each time, never a copy sent since', async () => {
    const reference = await paidInFullThenOneDelegateCancelled()
    const resendOn = async (iso: string) => {
      sink().received.length = 0
      await resendRegistrationMail(
        testContext(testDb.db, () => new Date(iso)),
        { reference: reference!, mail: 'receipt' },
        STAFF,
      )
      await deliver()
      return sink().received[0]!.parsed
    }

    const first = await resendOn('2025-03-03T08:00:00Z')
    const second = await resendOn('2025-03-04T08:00:00Z')
    expect(second.text).toBe(first.text)
    expect(second.text!.match(/Where registration/g)).toHaveLength(1)
    expect(second.attachments.map((attachment) => attachment.filename).sort()).toEqual(['credit-note-CN-000001.pdf', 'tax-invoice-INV-000001.pdf'])
  })

  it('states the position when it is resent: paid in full, or part-paid with what is owed; never the first payment request', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    await recordBankTransfer(context, { reference: reference!, amount: '1500.00', receivedOn: '2025-03-01', bankReference: 'R1' }, STAFF)
    await deliver()
    sink().received.length = 0

    await resendRegistrationMail(context, { reference: reference!, mail: 'confirmation' }, STAFF)
    await deliver()
    const partPaid = sink().received[0]!.parsed.text!
    expect(partPaid).toContain('Received so far: R 1 500.00. Still to pay: R 19 177.00')
    expect(partPaid).not.toContain('Please pay in full')

    await recordBankTransfer(context, { reference: reference!, amount: '19177.00', receivedOn: '2025-03-01', bankReference: 'R2' }, STAFF)
    await deliver()
    sink().received.length = 0
    await resendRegistrationMail(context, { reference: reference!, mail: 'confirmation' }, STAFF)
    await deliver()
    const paid = sink().received[0]!.parsed.text!
    expect(paid).toContain('Paid in full: R 20 677.00 received.')
    expect(paid).not.toMatch(/Please pay|Pay by bank transfer|Pay R/)
  })

  it('attaches the tax invoice that replaced a corrected one, and states the same amounts, when the receipt or the confirmation is resent', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    await recordBankTransfer(context, { reference: reference!, amount: '20677.00', receivedOn: '2025-03-01', bankReference: 'R1' }, STAFF)
    await correctCompanyDetails(
      context,
      {
        reference: reference!,
        companyName: 'Acme Legal Services (Pty) Ltd',
        address: '14 Main Road\nRosebank',
        email: 'bookings@acme.example.com',
        tel: '+27 11 555 0199',
        vatNumber: '',
        purchaseOrderNumber: 'PO-7781',
      },
      MANAGER,
    )
    await correctInvoice(context, { reference: reference! }, MANAGER)
    await deliver()
    sink().received.length = 0
    const files = (mail: ReturnType<typeof sink>['received'][number]['parsed']) =>
      mail.attachments
        .filter((attachment) => attachment.contentDisposition !== 'inline')
        .map((attachment) => attachment.filename)
        .sort()

    await resendRegistrationMail(context, { reference: reference!, mail: 'receipt' }, STAFF)
    await deliver()
    const receipt = sink().received[0]!.parsed
    expect(files(receipt)).toEqual(['tax-invoice-INV-000002.pdf'])
    const attached = pdftotext(receipt.attachments.find((attachment) => attachment.filename === 'tax-invoice-INV-000002.pdf')!.content)
    expect(attached).toContain('Invoice number: INV-000002')
    expect(attached).toContain('Acme Legal Services (Pty) Ltd')
    expect(receipt.text).toMatch(new RegExp(`^Where registration ${reference} stands on \\d+ \\w+ 2025:`))
    expect(receipt.text).toContain('Tax invoice INV-000001 is credited in full and replaced by tax invoice INV-000002 (attached)')
    // The correction's credit note and the new invoice net to nothing: paid in full, nothing credited or owed back.
    expect(receipt.text).toContain('Paid in full: R 20 677.00 received. Thank you; nothing is outstanding.')
    expect(receipt.text).not.toMatch(/credited:|refunded to you|Still to pay/i)

    sink().received.length = 0
    await resendRegistrationMail(context, { reference: reference!, mail: 'confirmation' }, STAFF)
    await deliver()
    const confirmation = sink().received[0]!.parsed
    expect(files(confirmation)).toEqual(['event.ics', 'tax-invoice-INV-000002.pdf'])
    expect(confirmation.text).toContain('Tax invoice: INV-000002, issued')
    expect(confirmation.text).toContain('Paid in full: R 20 677.00 received.')
    expect(confirmation.text).not.toMatch(/credited:|refunded to you|Still to pay/i)
  })

  it('lists only the delegates still attending, and refuses the confirmation of a cancelled registration', async () => {
    const [reference, other] = await register(testDb.db, {}, { companyName: 'Other Company' })
    const context = testContext(testDb.db)
    const { delegates } = await cancellationProposal(context, reference!)
    await cancelRegistration(context, { reference: reference!, delegateIds: [delegates[1]!.id] }, MANAGER)
    await deliver()
    sink().received.length = 0
    await resendRegistrationMail(context, { reference: reference!, mail: 'confirmation' }, STAFF)
    await deliver()
    const text = sink().received[0]!.parsed.text!
    expect(text).toContain('Delegate 1: Thandi Nkosi')
    // The cancelled delegate is not listed as attending, only named on the credit note that credited their place.
    expect(text).not.toMatch(/Delegate \d: Pieter van Wyk/)
    expect(text).toContain('Credit note CN-000001: R 10 338.50 credited: delegate Pieter van Wyk cancelled on 1 March 2025 (attached)')
    // The cancelled delegate's R 10 338.50 was credited: what is owed is the rest.
    expect(text).toContain('Still to pay: R 10 338.50')
    expect(
      sink()
        .received[0]!.parsed.attachments.filter((attachment) => attachment.contentDisposition !== 'inline')
        .map((attachment) => attachment.filename)
        .sort(),
    ).toEqual(['credit-note-CN-000001.pdf', 'event.ics', 'tax-invoice-INV-000001.pdf'])

    await cancelRegistration(context, { reference: other!, delegateIds: 'all' }, MANAGER)
    await expect(resendRegistrationMail(context, { reference: other!, mail: 'confirmation' }, STAFF)).rejects.toMatchObject({ code: 'registration-cancelled' })
  })

  it('refuses an unknown registration', async () => {
    await expect(resendRegistrationMail(testContext(testDb.db), { reference: 'ZZZZ9999', mail: 'confirmation' }, STAFF)).rejects.toMatchObject({
      code: 'not-found',
    })
  })

  it('lists failed e-mails with their registration and sends one again when retried', async () => {
    const [reference] = await register(testDb.db, {})
    const { id } = await testDb.db.kysely.selectFrom('registrations').select('id').where('reference', '=', reference!).executeTakeFirstOrThrow()
    const organiser = await testDb.db.kysely
      .selectFrom('outbox_messages')
      .select('id')
      .where('source_id', '=', id)
      .where('topic', '=', 'registration.organiser')
      .executeTakeFirstOrThrow()
    await testDb.db.kysely
      .updateTable('outbox_messages')
      .set({ status: 'failed', attempts: 9, last_error: '421 try later', created_at: '2025-03-01T08:00:00.000Z' })
      .where('id', '=', organiser.id)
      .execute()
    await deliver()
    sink().received.length = 0

    const context = testContext(testDb.db)
    const failed = await listFailedMessages(context)
    expect(failed).toEqual([
      {
        id: organiser.id,
        topic: 'registration.organiser',
        reference,
        record: 'to-send',
        to: ['info@example.com'],
        attachments: [],
        subject: `Legal Opinion Delegate Registration ${reference}`,
        attempts: 9,
        lastError: '421 try later',
        createdAt: '2025-03-01T08:00:00.000Z',
      },
    ])

    const retried = await retryFailedMessage(context, { messageId: organiser.id }, STAFF)
    expect(retried).toEqual({
      id: organiser.id,
      before: { status: 'failed', attempts: 9, lastError: '421 try later' },
      after: { status: 'pending', attempts: 0 },
    })
    expect(await listFailedMessages(context)).toEqual([])
    await deliver()
    expect(sink().received.map((mail) => mail.parsed.subject)).toEqual([`Legal Opinion Delegate Registration ${reference}`])

    await expect(retryFailedMessage(context, { messageId: organiser.id }, STAFF)).rejects.toThrow(
      expect.objectContaining({ code: 'not-retryable', details: expect.objectContaining({ status: 'sent' }) }),
    )
    await expect(retryFailedMessage(context, { messageId: 'no-such-message' }, STAFF)).rejects.toMatchObject({ code: 'not-found' })
  })

  /** A registration whose e-mails went out but for the organiser's copy, whose sending was interrupted (uncertain). */
  async function organiserCopyUncertain(): Promise<{ reference: string; messageId: string }> {
    const [reference] = await register(testDb.db, {})
    const { id } = await testDb.db.kysely.selectFrom('registrations').select('id').where('reference', '=', reference!).executeTakeFirstOrThrow()
    const organiser = await testDb.db.kysely
      .selectFrom('outbox_messages')
      .select('id')
      .where('source_id', '=', id)
      .where('topic', '=', 'registration.organiser')
      .executeTakeFirstOrThrow()
    await testDb.db.kysely
      .updateTable('outbox_messages')
      .set({
        status: 'uncertain',
        attempts: 1,
        last_error: UNCERTAIN_SEND,
        message_id: `<outbox-${organiser.id}@example.com>`,
        created_at: '2025-03-01T08:00:00.000Z',
      })
      .where('id', '=', organiser.id)
      .execute()
    await deliver()
    sink().received.length = 0
    return { reference: reference!, messageId: organiser.id }
  }

  it('lists uncertain e-mails, never sends them by itself, and records one as sent when staff say it arrived', async () => {
    const { reference, messageId } = await organiserCopyUncertain()
    const context = testContext(testDb.db)
    expect(await listUncertainMessages(context)).toEqual([
      {
        id: messageId,
        topic: 'registration.organiser',
        reference,
        record: 'to-send',
        to: ['info@example.com'],
        attachments: [],
        subject: `Legal Opinion Delegate Registration ${reference}`,
        attempts: 1,
        lastError: UNCERTAIN_SEND,
        createdAt: '2025-03-01T08:00:00.000Z',
      },
    ])
    expect(await listFailedMessages(context)).toEqual([])
    await deliver()
    expect(sink().received).toEqual([])

    const settled = await settleUncertainMessage(context, { messageId, outcome: 'arrived' }, STAFF)
    expect(settled).toEqual({
      id: messageId,
      outcome: 'arrived',
      before: { status: 'uncertain', attempts: 1, lastError: UNCERTAIN_SEND },
      after: { status: 'sent' },
    })
    const row = await testDb.db.kysely.selectFrom('outbox_messages').selectAll().where('id', '=', messageId).executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      status: 'sent',
      sent_to: JSON.stringify(['info@example.com']),
      sent_subject: `Legal Opinion Delegate Registration ${reference}`,
      last_error: null,
    })
    expect(row.sent_at).not.toBeNull()
    expect(await listUncertainMessages(context)).toEqual([])
    await deliver()
    expect(sink().received).toEqual([])

    await expect(settleUncertainMessage(context, { messageId, outcome: 'send-again' }, STAFF)).rejects.toThrow(
      expect.objectContaining({ code: 'not-uncertain', details: expect.objectContaining({ status: 'sent' }) }),
    )
  })

  it('sends an uncertain e-mail again, once, under its Message-ID when staff say so, and refuses what is not uncertain', async () => {
    const { reference, messageId } = await organiserCopyUncertain()
    const context = testContext(testDb.db)
    const settled = await settleUncertainMessage(context, { messageId, outcome: 'send-again' }, STAFF)
    expect(settled).toMatchObject({ outcome: 'send-again', after: { status: 'pending' } })
    expect(await listUncertainMessages(context)).toEqual([])
    await deliver()
    await deliver()
    expect(sink().received.map((mail) => [mail.parsed.subject, mail.parsed.messageId])).toEqual([
      [`Legal Opinion Delegate Registration ${reference}`, `<outbox-${messageId}@example.com>`],
    ])

    await expect(settleUncertainMessage(context, { messageId, outcome: 'arrived' }, STAFF)).rejects.toThrow(
      expect.objectContaining({ code: 'not-uncertain', details: expect.objectContaining({ status: 'sent' }) }),
    )
    await expect(settleUncertainMessage(context, { messageId: 'no-such-message', outcome: 'arrived' }, STAFF)).rejects.toMatchObject({ code: 'not-found' })
    await expect(settleUncertainMessage(context, { messageId, outcome: 'forget-it' }, STAFF)).rejects.toMatchObject({
      issues: [{ path: 'outcome', code: 'invalid-choice' }],
    })
  })
})
