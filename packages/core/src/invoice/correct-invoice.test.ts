import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recordBankTransfer } from '../backoffice/bank-transfers.ts'
import { MANAGER, register, STAFF, testContext } from '../backoffice/fixtures.ts'
import { vatRegister } from '../backoffice/finance-reports.ts'
import { getRegistrationDetail, registrationInvoicePdf } from '../backoffice/registration-detail.ts'
import { correctCompanyDetails } from '../backoffice/registration-changes.ts'
import { renderStoredCreditNote } from '../cancellation/credit-note.ts'
import { deliverDueMessages } from '../outbox/worker.ts'
import { openTestDatabase, pdftotext, startMailSink, TEST_BACKENDS, testAuditRows, type TestDatabase } from '../test-support.ts'
import { getInvoicePdf, getRegistrationByReferenceAndSecret } from '../registration/queries.ts'
import { correctInvoice } from './correct-invoice.ts'
import { statementOfAccount } from './statement-of-account.ts'

const TOTAL_CENTS = 2_067_700

describe.each(TEST_BACKENDS)('correcting an invoice on %s', (backend) => {
  let testDb: TestDatabase
  let reference: string

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    ;[reference] = (await register(testDb.db, {})) as [string]
    await testDb.db.kysely.updateTable('outbox_messages').set({ status: 'sent' }).execute()
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it('keeps the replaced invoice downloadable as issued, listed as replaced on the registration, its status and the statement of account', async () => {
    const context = testContext(testDb.db)
    const first = (await registrationInvoicePdf(context, reference))!
    expect(first.filename).toBe('tax-invoice-INV-000001.pdf')
    await correctCompanyDetails(
      context,
      {
        reference,
        companyName: 'Acme Legal Holdings',
        address: '14 Main Road\nRosebank',
        email: 'accounts@acme.example.com',
        tel: '+27 11 555 0199',
        vatNumber: '',
        purchaseOrderNumber: '',
      },
      MANAGER,
    )
    await correctInvoice(context, { reference }, MANAGER)

    const replaced = (await registrationInvoicePdf(context, reference, 'INV-000001'))!
    expect(replaced.filename).toBe('tax-invoice-INV-000001.pdf')
    expect(Buffer.compare(replaced.pdf, first.pdf)).toBe(0)
    expect(pdftotext(replaced.pdf)).toContain('Acme Legal Services')
    expect(pdftotext(replaced.pdf)).not.toContain('Holdings')
    expect((await registrationInvoicePdf(context, reference))!.filename).toBe('tax-invoice-INV-000002.pdf')
    // Another registration's invoice, or a number that is no invoice, is not served under this registration.
    const [other] = (await register(testDb.db, { companyName: 'Other Company' })) as [string]
    const otherNumber = (await registrationInvoicePdf(context, other))!.filename.replace(/^tax-invoice-(.*)\.pdf$/, '$1')
    expect(otherNumber).toBe('INV-000003')
    expect(await registrationInvoicePdf(context, reference, otherNumber)).toBeUndefined()
    for (const bad of ['INV-1', '../INV-000001', 'CN-000001']) expect(await registrationInvoicePdf(context, reference, bad)).toBeUndefined()

    const detail = (await getRegistrationDetail(context, reference))!
    expect(detail.invoices).toEqual([
      { number: 'INV-000001', issuedAt: expect.any(String), replacedBy: { number: 'INV-000002', issuedAt: expect.any(String) } },
      { number: 'INV-000002', issuedAt: expect.any(String) },
    ])
    const row = await testDb.db.kysely.selectFrom('registrations').select('secret').where('reference', '=', reference).executeTakeFirstOrThrow()
    const status = (await getRegistrationByReferenceAndSecret({ db: testDb.db }, reference, row.secret))!
    expect(status.invoices.map((invoice) => [invoice.number, invoice.replacedBy?.number])).toEqual([
      ['INV-000001', 'INV-000002'],
      ['INV-000002', undefined],
    ])
    expect(Buffer.compare((await getInvoicePdf({ db: testDb.db }, reference, row.secret, 'INV-000001'))!.pdf, first.pdf)).toBe(0)
    expect(await getInvoicePdf({ db: testDb.db }, reference, 'wrong secret', 'INV-000001')).toBeUndefined()

    const statement = await statementOfAccount(context, 'Acme Legal Holdings')
    expect(statement!.entries.map((entry) => entry.description)).toEqual(
      expect.arrayContaining(['Tax invoice INV-000001, replaced by INV-000002 on 1 March 2025', 'Tax invoice INV-000002']),
    )
  })

  it('credits the old invoice in full and reissues it to the corrected details in one step, both e-mailed; payments count against the new one', async () => {
    const context = testContext(testDb.db)
    await recordBankTransfer(context, { reference, amount: '5 000.00', receivedOn: '2025-03-01', bankReference: 'FNB 1', note: '' }, STAFF)
    await expect(correctInvoice(context, { reference }, MANAGER)).rejects.toMatchObject({ code: 'invoice-up-to-date' })
    await correctCompanyDetails(
      context,
      {
        reference,
        companyName: 'Acme Legal Services (Pty) Ltd',
        address: '14 Main Road\nRosebank',
        email: 'accounts@acme.example.com',
        tel: '+27 11 555 0199',
        vatNumber: '',
        purchaseOrderNumber: 'PO-7781',
      },
      MANAGER,
    )
    await expect(correctInvoice(context, { reference }, STAFF)).rejects.toMatchObject({ code: 'role-required' })

    const correction = await correctInvoice(context, { reference }, MANAGER)
    expect(correction).toEqual({
      reference,
      creditNoteNumber: 'CN-000001',
      creditedInvoiceNumber: 'INV-000001',
      invoiceNumber: 'INV-000002',
      totalCents: TOTAL_CENTS,
    })
    // Nothing is left to correct once the invoice names the details.
    await expect(correctInvoice(context, { reference }, MANAGER)).rejects.toMatchObject({ code: 'invoice-up-to-date' })

    const invoice = pdftotext((await registrationInvoicePdf(context, reference))!.pdf)
    for (const expected of [
      'Invoice number: INV-000002',
      'Your reference: PO-7781',
      'Acme Legal Services (Pty) Ltd',
      '14 Main Road Rosebank',
      'Total incl. VAT R 20 677.00',
    ]) {
      expect(invoice).toContain(expected)
    }
    // The company is not registered for VAT now: only the supplier's VAT number is printed.
    expect(invoice.match(/VAT number/g)).toHaveLength(1)
    const { id: noteId } = await testDb.db.kysely.selectFrom('credit_notes').select('id').executeTakeFirstOrThrow()
    const note = pdftotext((await renderStoredCreditNote(testDb.db, noteId))!)
    for (const expected of [
      'Credit Note',
      'Credit note number: CN-000001',
      'Tax invoice credited: INV-000001',
      'Acme Legal Services',
      'VAT number: 4123456789',
      'Credited incl. VAT R 20 677.00',
    ]) {
      expect(note).toContain(expected)
    }

    // The documents reconcile: invoiced, less credited, is the registration's total; the VAT register says the same.
    const register = await vatRegister(context, { from: '2025-02-01', to: '2025-03-31' })
    expect(register.invoices.inclVatCents - register.creditNotes.inclVatCents).toBe(TOTAL_CENTS)
    expect(register.entries.map((entry) => [entry.kind, entry.number, entry.inclVatCents])).toEqual(
      expect.arrayContaining([
        ['tax-invoice', 'INV-000002', TOTAL_CENTS],
        ['credit-note', 'CN-000001', -TOTAL_CENTS],
      ]),
    )
    const detail = await getRegistrationDetail(context, reference)
    expect(detail!.invoice?.number).toBe('INV-000002')
    expect(detail!.amounts).toMatchObject({ totalCents: TOTAL_CENTS, paidCents: 500_000, outstandingCents: TOTAL_CENTS - 500_000 })
    // The registration's statement shows both documents beside the first invoice and the payment (a day's lines in
    // the statement's order: invoices, payments, credit notes), adding up the same.
    expect(detail!.statement.lines.map(({ kind, reference, amountCents }) => [kind, reference, amountCents])).toEqual([
      ['invoice', 'INV-000001', TOTAL_CENTS],
      ['invoice', 'INV-000002', TOTAL_CENTS],
      ['bank-transfer', 'FNB 1', -500_000],
      ['credit-note', 'CN-000001', -TOTAL_CENTS],
    ])
    expect(detail!.statement.outstandingCents).toBe(TOTAL_CENTS - 500_000)
    expect(await testAuditRows(testDb.db)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: 'registration-invoice-corrected',
          subjectId: reference,
          after: expect.objectContaining({ invoice: 'INV-000002', creditNote: 'CN-000001' }),
        }),
      ]),
    )

    const { sink, transport, stop } = await startMailSink()
    try {
      await deliverDueMessages({ db: testDb.db, transport, log: () => undefined })
      const mail = sink.received.find((received) => received.parsed.subject === `Corrected tax invoice INV-000002: registration ${reference}`)
      expect(mail?.recipients).toEqual(['accounts@acme.example.com'])
      expect(mail!.parsed.attachments.map((attachment) => attachment.filename)).toEqual(['credit-note-CN-000001.pdf', 'tax-invoice-INV-000002.pdf'])
      expect(mail!.parsed.text).toContain('Your reference: PO-7781')
    } finally {
      await stop()
    }
  })
})
