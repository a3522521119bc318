import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recordBankTransfer } from '../backoffice/bank-transfers.ts'
import { register, STAFF, testContext } from '../backoffice/fixtures.ts'
import { deliverDueMessages } from '../outbox/worker.ts'
import { openTestDatabase, pdftotext, startMailSink, TEST_BACKENDS, testAuditRows, type TestDatabase } from '../test-support.ts'
import { renderStatementPdf, sendStatement, statementOfAccount } from './statement-of-account.ts'

describe.each(TEST_BACKENDS)('statements of account on %s', (backend) => {
  let testDb: TestDatabase
  let first: string
  let second: string

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    // Two registrations of Acme (R 20 677.00 and, for one delegate, R 10 338.50) and one of another company.
    ;[first, second] = (await register(
      testDb.db,
      {},
      { companyName: 'ACME  Legal Services', delegates: [{ name: 'Naledi Khumalo', position: 'Associate', email: 'naledi@acme.example.com' }] },
      { companyName: 'Other Firm' },
    )) as [string, string, string]
    await testDb.db.kysely.updateTable('outbox_messages').set({ status: 'sent' }).execute()
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it('lists every registration of the company with its invoices and payments, the running balance and what is owed, and sends it on request', async () => {
    const context = testContext(testDb.db)
    await recordBankTransfer(context, { reference: first, amount: '20 677.00', receivedOn: '2025-02-20', bankReference: 'FNB 77', note: '' }, STAFF)
    await recordBankTransfer(context, { reference: second, amount: '5 000.00', receivedOn: '2025-02-25', bankReference: 'FNB 78', note: '' }, STAFF)

    const statement = await statementOfAccount(context, 'acme legal services')
    expect(
      statement?.entries.map((entry) => [entry.day, entry.registrationReference, entry.description, entry.debitCents, entry.creditCents, entry.balanceCents]),
    ).toEqual([
      ['2025-02-03', first, 'Tax invoice INV-000001', 2_067_700, 0, 2_067_700],
      ['2025-02-03', second, 'Tax invoice INV-000002', 1_033_850, 0, 3_101_550],
      ['2025-02-20', first, 'Bank transfer: FNB 77', 0, 2_067_700, 1_033_850],
      ['2025-02-25', second, 'Bank transfer: FNB 78', 0, 500_000, 533_850],
    ])
    expect(statement).toMatchObject({ invoicedCents: 3_101_550, creditedCents: 0, paidCents: 2_567_700, owedCents: 533_850 })
    // Invoiced on 3 February, aged on the business day (1 March): current; on 5 May, 91 days on, 90 days and more.
    expect(statement!.ageing).toEqual({ current: 533_850, '30-days': 0, '60-days': 0, '90-days-plus': 0 })
    const inMay = await statementOfAccount({ ...context, siteNow: () => new Date('2025-05-05T09:00:00+02:00') }, 'acme legal services')
    expect(inMay!.ageing).toEqual({ current: 0, '30-days': 0, '60-days': 0, '90-days-plus': 533_850 })
    expect(await statementOfAccount(context, 'Nobody Ltd')).toBeUndefined()

    const text = pdftotext(await renderStatementPdf(context, statement!))
    for (const expected of [
      'Statement of account',
      'Account of',
      'Amount owed: R 5 338.50',
      'Tax invoice INV-000002',
      'Bank transfer: FNB 78',
      'Amount owed R 5 338.50',
      'Age of what is owed',
      '90 days and more',
    ]) {
      expect(text).toContain(expected)
    }
    expect(text).not.toContain('Other Firm')

    expect(await sendStatement(context, { companyName: 'Acme Legal Services' }, STAFF)).toEqual({
      companyName: 'ACME Legal Services',
      email: 'bookings@acme.example.com',
      owedCents: 533_850,
    })
    expect(await testAuditRows(testDb.db)).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'company-statement-sent', subjectId: 'ACME Legal Services' })]),
    )
    const { sink, transport, stop } = await startMailSink()
    try {
      await deliverDueMessages({ db: testDb.db, transport, log: () => undefined })
      const mail = sink.received.find((received) => received.parsed.subject?.startsWith('Statement of account'))
      expect(mail?.recipients).toEqual(['bookings@acme.example.com'])
      expect(mail!.parsed.text).toContain('Amount owed: R 5 338.50')
      expect(pdftotext(mail!.parsed.attachments[0]!.content)).toContain('Bank transfer: FNB 77')
    } finally {
      await stop()
    }
  })
})
