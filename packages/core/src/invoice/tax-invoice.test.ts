import { sql } from 'kysely'
import { extractText, getDocumentProxy } from 'unpdf'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { OutgoingMail } from '../mail/outgoing-mail.ts'
import { storedMailOf } from '../outbox/stored-mail.ts'
import { deliverDueMessages } from '../outbox/worker.ts'
import { createRegistration } from '../registration/commands.ts'
import type { RegistrationContext } from '../registration/model.ts'
import { getInvoicePdf, getRegistrationByReferenceAndSecret } from '../registration/queries.ts'
import { SITE_NOW, TEST_BACKENDS, fixedCatalog, openTestDatabase, registrationInput, testSiteLinks, type TestDatabase } from '../test-support.ts'
import { formatInvoiceNumber, insertNumberedInvoice } from './invoice-number.ts'

/** The PDF's text as a separate PDF reader (pdf.js) extracts it, whitespace collapsed. */
async function pdfText(pdf: Uint8Array): Promise<string> {
  const document = await getDocumentProxy(new Uint8Array(pdf))
  const { text } = await extractText(document, { mergePages: true })
  return text.replace(/\s+/g, ' ')
}

describe.each(TEST_BACKENDS)('tax invoices on %s', (backend) => {
  let testDb: TestDatabase
  let wallClock: Date

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    // The real clock is far from the business clock (SITE_NOW, 1 March 2025): the invoice must be dated by the latter.
    wallClock = new Date('2026-11-23T10:00:00Z')
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  const service = (): RegistrationContext => ({
    db: testDb.db,
    catalog: fixedCatalog(),
    links: testSiteLinks(),
    organiserEmail: 'organiser@example.com',
    siteNow: () => SITE_NOW,
    now: () => wallClock,
  })

  async function registrantMail(reference: string): Promise<OutgoingMail> {
    const rows = await testDb.db.kysely.selectFrom('outbox_messages').select(['mail', 'source_id']).where('topic', '=', 'registration.registrant').execute()
    const mails = await Promise.all(rows.map((row) => storedMailOf(testDb.db, row)))
    const mail = mails.find((candidate) => candidate.subject.includes(reference))
    if (!mail) throw new Error(`no confirmation for ${reference}`)
    return mail
  }

  it('issues a full tax invoice with every figure SARS asks for, attached to the confirmation and downloadable', async () => {
    const registrations = service()
    const { receipt } = await createRegistration(registrations, registrationInput())
    const secret = receipt.secret

    const download = await getInvoicePdf(registrations, receipt.reference, secret)
    expect(download?.filename).toBe('tax-invoice-INV-000001.pdf')
    const text = await pdfText(download!.pdf)
    for (const expected of [
      'Tax Invoice',
      // Supplier: name, address, VAT number (site settings).
      'Example Events',
      '1 Example Street, Sandton',
      'VAT number: 4000000000',
      // Recipient: name, address, VAT number.
      'Acme Legal Services',
      '12 Main Road Rosebank Johannesburg',
      'VAT number: 4123456789',
      'Invoice number: INV-000001',
      'Date of issue: 1 March 2025',
      `Registration reference: ${receipt.reference}`,
      'Payment due: 6 March 2025',
      'Legal Opinion Writing 2025: Venue',
      '2 delegates: Thandi Nkosi, Pieter van Wyk',
      // Quantity 2 at R 8 990.00 makes R 17 980.00 excl. VAT.
      '2 R 8 990.00 R 17 980.00',
      'Total excl. VAT R 17 980.00',
      'VAT at 15% R 2 697.00',
      'Total incl. VAT R 20 677.00',
      'Payment in full within 5 days of the invoice date, by 6 March 2025',
      'Account number: 0000000000',
      'Branch code: 000000',
      `Payment reference: ${receipt.reference}`,
    ]) {
      expect(text).toContain(expected)
    }

    const mail = await registrantMail(receipt.reference)
    expect(mail.text).toContain('INV-000001, issued 1 March 2025 (attached)')
    // Queued without the PDF (rendered outside the registration's transaction) and filled in when sent.
    expect(mail.attachments?.find((candidate) => candidate.contentType === 'application/pdf')).toMatchObject({ content: '', invoiceId: expect.any(String) })
    const sent: OutgoingMail[] = []
    await deliverDueMessages({
      db: testDb.db,
      transport: { send: async (outgoing) => void sent.push(outgoing), messageIdDomain: 'example.com', close() {} },
    })
    const delivered = sent.find((outgoing) => outgoing.subject === mail.subject)
    const attachment = delivered?.attachments?.find((candidate) => candidate.contentType === 'application/pdf')
    expect(attachment).toEqual({ filename: 'tax-invoice-INV-000001.pdf', contentType: 'application/pdf', encoding: 'base64', content: expect.any(String) })
    expect(Buffer.from(attachment!.content, 'base64').equals(download!.pdf)).toBe(true)
    expect(mail.text).toContain('within 5 days of the invoice date (by 6 March 2025)')

    const details = await getRegistrationByReferenceAndSecret(registrations, receipt.reference, secret)
    expect(details?.invoice).toEqual({ number: 'INV-000001' })
    expect(await getInvoicePdf(registrations, receipt.reference, 'not-the-secret')).toBeUndefined()
  })

  it('prints the company\'s purchase order number as "Your reference", and no VAT number for a company not registered for VAT', async () => {
    const registrations = service()
    const { receipt } = await createRegistration(
      registrations,
      registrationInput({ purchaseOrderNumber: 'PO-2025-0417', vatRegistered: 'no', vatNumber: 'N/A' }),
    )
    const text = await pdfText((await getInvoicePdf(registrations, receipt.reference, receipt.secret))!.pdf)
    expect(text).toContain('Your reference: PO-2025-0417')
    expect(text).toContain('VAT number: 4000000000')
    expect(text.match(/VAT number/g)).toHaveLength(1)
    expect(text).not.toContain('N/A')
    const stored = await testDb.db.kysely.selectFrom('registrations').select(['vat_number', 'purchase_order_number']).executeTakeFirstOrThrow()
    expect(stored).toEqual({ vat_number: '', purchase_order_number: 'PO-2025-0417' })
    expect((await registrantMail(receipt.reference)).text).toContain('Your reference: PO-2025-0417')
  })

  it('prints names with any Latin diacritic, Greek or Cyrillic as they were typed', async () => {
    const { receipt } = await createRegistration(
      service(),
      registrationInput({
        companyName: 'Łódź Żółć Holdings (Pty) Ltd',
        address: 'Ševčenko Straße 5\nΑθήνα\nМосква',
        delegates: [{ name: 'Zoë Ndlovu-Müller', position: 'Directrice générale', email: 'zoe@acme.example.com' }],
      }),
    )
    const secret = receipt.secret
    const text = await pdfText((await getInvoicePdf(service(), receipt.reference, secret))!.pdf)
    expect(text).toContain('Łódź Żółć Holdings (Pty) Ltd')
    expect(text).toContain('Ševčenko Straße 5 Αθήνα Москва')
    expect(text).toContain('Delegate: Zoë Ndlovu-Müller')
  })

  it('keeps the invoice as first rendered, whatever changes later', async () => {
    const registrations = service()
    const { receipt } = await createRegistration(registrations, registrationInput())
    const secret = receipt.secret
    const first = await getInvoicePdf(registrations, receipt.reference, secret)
    await testDb.db.kysely.updateTable('invoices').set({ data_json: '{}' }).execute()
    expect((await getInvoicePdf(registrations, receipt.reference, secret))?.pdf.equals(first!.pdf)).toBe(true)
  })

  it('invoices a table as one item at its flat price', async () => {
    const { receipt } = await createRegistration(service(), registrationInput({ event: 'Resilience', code: 'ERC2025', attendanceOption: 'table-5' }))
    const secret = receipt.secret
    const text = await pdfText((await getInvoicePdf(service(), receipt.reference, secret))!.pdf)
    expect(text).toContain('Economic Resilience Conference 2025: Table of 5 delegates')
    expect(text).toContain('1 R 34 950.00 R 34 950.00')
    expect(text).toContain('VAT at 15% R 5 242.50')
    expect(text).toContain('Total incl. VAT R 40 192.50')
  })

  it('numbers invoices in sequence without gaps, also when registrations arrive together', async () => {
    const registrations = service()
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        createRegistration(registrations, registrationInput({ companyName: `Company ${index}` }), { idempotencyKey: `key-${index}` }),
      ),
    )
    const numbers = await testDb.db.kysely.selectFrom('invoices').select('number').orderBy('number').execute()
    expect(numbers.map((row) => Number(row.number))).toEqual([1, 2, 3, 4, 5, 6])
    // A replay is the same registration and gets no second invoice.
    await createRegistration(registrations, registrationInput({ companyName: 'Company 0' }), { idempotencyKey: 'key-0' })
    expect(await testDb.db.kysely.selectFrom('invoices').select('number').execute()).toHaveLength(6)
  })

  it('gives a number back when the transaction that took it rolls back, to the registration waiting for it', async () => {
    const registrations = service()
    const first = await createRegistration(registrations, registrationInput({ companyName: 'First' }))
    const invoiceNumbers = () =>
      testDb.db.kysely
        .selectFrom('invoices')
        .innerJoin('registrations', 'registrations.id', 'invoices.registration_id')
        .select(['registrations.reference', 'invoices.number'])
        .orderBy('invoices.number')
        .execute()
        .then((rows) => rows.map((row) => ({ reference: row.reference, number: Number(row.number) })))
    const { registration_id: firstId } = await testDb.db.kysely.selectFrom('invoices').select('registration_id').executeTakeFirstOrThrow()
    let second: ReturnType<typeof createRegistration> | undefined
    await expect(
      testDb.db.kysely.transaction().execute(async (transaction) => {
        // Re-issues the first registration's invoice, which takes number 2, then fails before committing.
        await transaction.deleteFrom('invoices').where('registration_id', '=', firstId).execute()
        await insertNumberedInvoice(transaction, testDb.db.dialect, {
          id: 'rolled-back',
          registration_id: firstId,
          issued_at: SITE_NOW.toISOString(),
          pdf_base64: '',
          data_json: '{}',
        })
        second = createRegistration(registrations, registrationInput({ companyName: 'Second' }))
        if (backend === 'postgres') {
          // The second registration has written everything else and waits for the counter's lock in its last statement
          // (found by who blocks it: pg_stat_activity keeps only the first kilobyte of that long statement).
          await vi.waitFor(
            async () => {
              const { rows: waiting } = await sql`
                select pid from pg_stat_activity where datname = current_database() and cardinality(pg_blocking_pids(pid)) > 0
              `.execute(testDb.db.kysely)
              expect(waiting).not.toHaveLength(0)
            },
            { timeout: 10_000, interval: 20 },
          )
        }
        throw new Error('failed after its invoice number was taken')
      }),
    ).rejects.toThrow('failed after its invoice number was taken')
    const { receipt } = await second!
    expect(await invoiceNumbers()).toEqual([
      { reference: first.receipt.reference, number: 1 },
      { reference: receipt.reference, number: 2 },
    ])
    expect(formatInvoiceNumber(2)).toBe('INV-000002')
  })
})
