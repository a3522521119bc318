import ExcelJS from 'exceljs'
import { parse } from 'csv-parse/sync'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cancelRegistration, recordRefundPaidOut } from '../cancellation/cancel.ts'
import { createRegistration } from '../registration/commands.ts'
import { fixedCatalog, openTestDatabase, registrationInput, TEST_BACKENDS, testSiteLinks, type TestDatabase } from '../test-support.ts'
import { recordBankTransfer } from './bank-transfers.ts'
import { MANAGER, STAFF, testContext } from './fixtures.ts'
import { eventFinanceReport, eventFinanceXlsx, vatRegister, vatRegisterCsv, vatRegisterXlsx } from './finance-reports.ts'

// Legal Opinion, venue, two delegates: 2 × R 8 990 = R 17 980 + R 2 697 VAT = R 20 677.00.
const SUBTOTAL_CENTS = 1_798_000
const VAT_CENTS = 269_700
const TOTAL_CENTS = 2_067_700

async function readWorkbook(buffer: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer)
  const rows: unknown[][] = []
  workbook.worksheets[0]!.eachRow({ includeEmpty: false }, (row) => rows.push((row.values as unknown[]).slice(1)))
  return rows
}

describe.each(TEST_BACKENDS)('finance reports on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  /** Registers on a given business day (the tax invoice is issued then) and answers the reference. */
  async function registerAt(at: string, overrides: Record<string, unknown> = {}): Promise<string> {
    const service = { db: testDb.db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => new Date(at) }
    const { receipt } = await createRegistration(service, registrationInput(overrides))
    return receipt.reference
  }

  const contextOn = (at: string) => ({ ...testContext(testDb.db, () => new Date(at)), siteNow: () => new Date(at) })

  it('lists every tax invoice and credit note of a period by the day in Johannesburg, with totals equal to the documents', async () => {
    const february = await registerAt('2025-02-20T10:00:00+02:00', { companyName: 'February Holdings', vatNumber: '4111111111' })
    // 00:30 on 1 March in Johannesburg is still 28 February by UTC: it belongs to March.
    const firstOfMarch = await registerAt('2025-03-01T00:30:00+02:00', { companyName: 'March First (Pty) Ltd', vatNumber: '4333333333' })
    const endOfMarch = await registerAt('2025-03-31T23:59:00+02:00', { companyName: 'Month End CC', vatNumber: '4222222222' })
    await registerAt('2025-04-01T00:10:00+02:00', { companyName: 'April Trading' })
    // February's registration cancelled in March, without a fee: its credit note is March's.
    await cancelRegistration(contextOn('2025-03-10T09:00:00+02:00'), { reference: february, delegateIds: 'all' }, MANAGER)

    const inFebruary = await vatRegister(testContext(testDb.db), { from: '2025-02-01', to: '2025-02-28' })
    expect(inFebruary.entries.map((entry) => [entry.kind, entry.number, entry.issuedOn, entry.customer])).toEqual([
      ['tax-invoice', 'INV-000001', '2025-02-20', 'February Holdings'],
    ])
    expect(inFebruary.invoices).toEqual({ count: 1, exclVatCents: SUBTOTAL_CENTS, vatCents: VAT_CENTS, inclVatCents: TOTAL_CENTS })
    expect(inFebruary.creditNotes).toEqual({ count: 0, exclVatCents: 0, vatCents: 0, inclVatCents: 0 })

    const inMarch = await vatRegister(testContext(testDb.db), { from: '2025-03-01', to: '2025-03-31' })
    expect(
      inMarch.entries.map((entry) => [
        entry.kind,
        entry.number,
        entry.issuedOn,
        entry.registrationReference,
        entry.customer,
        entry.customerVatNumber,
        entry.vatCents,
      ]),
    ).toEqual([
      ['tax-invoice', 'INV-000002', '2025-03-01', firstOfMarch, 'March First (Pty) Ltd', '4333333333', VAT_CENTS],
      ['credit-note', 'CN-000001', '2025-03-10', february, 'February Holdings', '4111111111', -VAT_CENTS],
      ['tax-invoice', 'INV-000003', '2025-03-31', endOfMarch, 'Month End CC', '4222222222', VAT_CENTS],
    ])
    expect(inMarch.invoices).toEqual({ count: 2, exclVatCents: 2 * SUBTOTAL_CENTS, vatCents: 2 * VAT_CENTS, inclVatCents: 2 * TOTAL_CENTS })
    expect(inMarch.creditNotes).toEqual({ count: 1, exclVatCents: SUBTOTAL_CENTS, vatCents: VAT_CENTS, inclVatCents: TOTAL_CENTS })
    expect(inMarch.net).toEqual({ exclVatCents: SUBTOTAL_CENTS, vatCents: VAT_CENTS, inclVatCents: TOTAL_CENTS })

    // The totals are the sums of what the stored documents say, counted here on their own.
    const documents = [
      ...(await testDb.db.kysely.selectFrom('invoices').select(['issued_at', 'data_json']).execute()).map((row) => ({
        at: row.issued_at,
        vat: JSON.parse(row.data_json!).vatCents as number,
      })),
      ...(await testDb.db.kysely.selectFrom('credit_notes').select(['issued_at', 'data_json']).execute()).map((row) => ({
        at: row.issued_at,
        vat: -JSON.parse(row.data_json).creditedVatCents as number,
      })),
    ]
    const marchStart = '2025-02-28T22:00:00.000Z'
    const aprilStart = '2025-03-31T22:00:00.000Z'
    const marchVat = documents.filter((document) => document.at >= marchStart && document.at < aprilStart).reduce((sum, document) => sum + document.vat, 0)
    expect(inMarch.net.vatCents).toBe(marchVat)

    const csv = parse(vatRegisterCsv(inMarch), { bom: true, relax_column_count: true }) as string[][]
    expect(csv[0]).toEqual(['Document', 'Number', 'Date', 'Registration', 'Customer', 'Customer VAT number', 'Excl. VAT (R)', 'VAT (R)', 'Incl. VAT (R)'])
    expect(csv[2]).toEqual(['Credit note', 'CN-000001', '2025-03-10', february, 'February Holdings', '4111111111', '-17980.00', '-2697.00', '-20677.00'])
    expect(csv.slice(-3)).toEqual([
      ['Tax invoices (2): output tax', '', '', '', '', '', '35960.00', '5394.00', '41354.00'],
      ['Credit notes (1)', '', '', '', '', '', '17980.00', '2697.00', '20677.00'],
      ['Net of credit notes', '', '', '', '', '', '17980.00', '2697.00', '20677.00'],
    ])

    const sheet = await readWorkbook(await vatRegisterXlsx(inMarch))
    expect(sheet[1]).toEqual(['Tax invoice', 'INV-000002', '2025-03-01', firstOfMarch, 'March First (Pty) Ltd', '4333333333', 17980, 2697, 20677])
    expect(sheet.at(-3)).toEqual(['Tax invoices (2): output tax', '', '', '', '', '', 35960, 5394, 41354])
    expect(sheet.at(-1)).toEqual(['Net of credit notes', '', '', '', '', '', 17980, 2697, 20677])
  })

  it('refuses a period that does not read or ends before it starts', async () => {
    const context = testContext(testDb.db)
    await expect(vatRegister(context, { from: '2025-03-01', to: 'March' })).rejects.toMatchObject({ details: { problem: 'date-format' }, field: 'to' })
    await expect(vatRegister(context, { from: '2025-03-31', to: '2025-03-01' })).rejects.toMatchObject({
      details: { problem: 'period-reversed' },
      field: 'to',
    })
  })

  it('answers per event what was invoiced, credited, received, refunded and is outstanding, with the delegates attending', async () => {
    const paid = await registerAt('2025-02-20T10:00:00+02:00')
    const partPaid = await registerAt('2025-02-21T10:00:00+02:00', { companyName: 'Part Paid Inc' })
    const cancelled = await registerAt('2025-02-22T10:00:00+02:00', { companyName: 'Cancelled Ltd' })
    await registerAt('2025-02-23T10:00:00+02:00', {
      event: 'Resilience',
      code: 'ERC2025',
      attendanceOption: 'online',
      delegates: [{ name: 'Lindiwe Mokoena', position: 'Chemist', email: 'lindiwe@example.com' }],
    })
    const context = testContext(testDb.db)
    await recordBankTransfer(context, { reference: paid, amount: '20 677.00', receivedOn: '2025-02-25', bankReference: 'PAID 1' }, STAFF)
    await recordBankTransfer(context, { reference: partPaid, amount: '5 000.00', receivedOn: '2025-02-25', bankReference: 'PART 1' }, STAFF)
    await recordBankTransfer(context, { reference: cancelled, amount: '20 677.00', receivedOn: '2025-02-25', bankReference: 'CANCELLED 1' }, STAFF)
    const outcome = await cancelRegistration(contextOn('2025-03-10T09:00:00+02:00'), { reference: cancelled, delegateIds: 'all' }, MANAGER)
    await recordRefundPaidOut(
      contextOn('2025-03-11T09:00:00+02:00'),
      { reference: cancelled, refundId: outcome.cancellation.refund!.id, paidOutOn: '2025-03-11', bankReference: 'REFUND 1' },
      MANAGER,
    )

    const report = await eventFinanceReport(context)
    const legalOpinion = report.events.find((event) => event.eventTitle.includes('Legal'))!
    expect(legalOpinion).toMatchObject({
      registrations: 2,
      delegatesAttending: 4,
      invoicedCents: 3 * TOTAL_CENTS,
      creditedCents: TOTAL_CENTS,
      netCents: 2 * TOTAL_CENTS,
      netExclVatCents: 2 * SUBTOTAL_CENTS,
      netVatCents: 2 * VAT_CENTS,
      receivedCents: 2 * TOTAL_CENTS + 500_000,
      refundedCents: TOTAL_CENTS,
      outstandingCents: TOTAL_CENTS - 500_000,
      // Registered on 21 February, aged on the business day (1 March): current.
      ageing: { current: TOTAL_CENTS - 500_000, '30-days': 0, '60-days': 0, '90-days-plus': 0 },
    })
    expect(report.events).toHaveLength(2)
    expect(report.totals.ageing.current).toBe(report.totals.outstandingCents)
    const inMay = await eventFinanceReport({ ...context, siteNow: () => new Date('2025-05-01T09:00:00+02:00') })
    expect(inMay.events.find((event) => event.eventTitle.includes('Legal'))!.ageing).toEqual({
      current: 0,
      '30-days': 0,
      '60-days': TOTAL_CENTS - 500_000,
      '90-days-plus': 0,
    })
    expect(report.totals.invoicedCents).toBe(report.events.reduce((sum, event) => sum + event.invoicedCents, 0))
    expect(report.totals.delegatesAttending).toBe(5)

    const sheet = await readWorkbook(await eventFinanceXlsx(report))
    expect(sheet[0]).toEqual([
      'Event',
      'Starts',
      'Registrations',
      'Delegates attending',
      'Invoiced (R)',
      'Credited (R)',
      'Net of credit notes (R)',
      'Excl. VAT (R)',
      'VAT (R)',
      'Received (R)',
      'Refunded (R)',
      'Outstanding (R)',
      'Sponsorship excl. VAT (R)',
      'Sponsorship incl. VAT (R)',
      'Outstanding current (R)',
      'Outstanding 30 days (R)',
      'Outstanding 60 days (R)',
      'Outstanding 90 days and more (R)',
    ])
    expect(sheet.find((row) => String(row[0]).includes('Legal'))!.slice(2)).toEqual([
      2, 4, 62031, 20677, 41354, 35960, 5394, 46354, 20677, 15677, 0, 0, 15677, 0, 0, 0,
    ])
    expect(sheet.at(-1)![0]).toBe('All events')
  })
})
