import { parse } from 'csv-parse/sync'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cancelRegistration, recordRefundPaidOut } from '../cancellation/cancel.ts'
import { createRegistration } from '../registration/commands.ts'
import { fixedCatalog, openTestDatabase, registrationInput, TEST_BACKENDS, testSiteLinks, type TestDatabase } from '../test-support.ts'
import { accountingSettings, exportAccounts, saveAccountingSettings, sageCustomerReference, type AccountingPackage } from './accounting-export.ts'
import { recordBankTransfer } from './bank-transfers.ts'
import { MANAGER, STAFF, testContext } from './fixtures.ts'
import { vatRegister } from './finance-reports.ts'

const SETTINGS = { xeroAccountCode: '200', xeroTaxType: 'Standard Rate Sales', sageLedgerAccount: '1000', sageVatRate: 'Standard' }

type CsvRecord = Record<string, string>

/** Cents of an amount as the file writes it: plain, with a point and two decimals. */
function cents(amount: string): number {
  expect(amount).toMatch(/^-?\d+\.\d{2}$/)
  return Math.round(Number(amount) * 100)
}

interface SalesSums {
  exclVatCents: number
  vatCents: number
  count: number
}

// Each package's sales file read back as its import would: the headings it asks for, and the net of invoices less
// credit notes excl. VAT and VAT.
const PACKAGES: Array<{ name: AccountingPackage; headings: string[]; numberColumn: string; sums: (records: CsvRecord[]) => SalesSums }> = [
  {
    name: 'xero',
    headings: [
      '*ContactName',
      'EmailAddress',
      'POAddressLine1',
      'POAddressLine2',
      'POAddressLine3',
      'POAddressLine4',
      'POCity',
      'PORegion',
      'POPostalCode',
      'POCountry',
      '*InvoiceNumber',
      'Reference',
      '*InvoiceDate',
      '*DueDate',
      'InventoryItemCode',
      '*Description',
      '*Quantity',
      '*UnitAmount',
      'Discount',
      '*AccountCode',
      '*TaxType',
      'TaxAmount',
      'TrackingName1',
      'TrackingOption1',
      'TrackingName2',
      'TrackingOption2',
      'Currency',
      'BrandingTheme',
    ],
    numberColumn: '*InvoiceNumber',
    sums: (records) => ({
      exclVatCents: records.reduce((sum, record) => sum + Number(record['*Quantity']) * cents(record['*UnitAmount']!), 0),
      vatCents: records.reduce((sum, record) => sum + cents(record['TaxAmount']!), 0),
      count: records.length,
    }),
  },
  {
    name: 'sage',
    headings: [
      'Type',
      'Customer Reference',
      'Date',
      'Customer name',
      'Reference',
      'Ledger Account',
      'Details',
      'Net',
      'VAT Rate',
      'VAT',
      'Total',
      'Analysis Type 1',
      'Analysis Type 2',
      'Analysis Type 3',
    ],
    numberColumn: 'Reference',
    sums: (records) => {
      const sign = (record: CsvRecord) => (record['Type'] === 'Cr Note' ? -1 : 1)
      for (const record of records) expect(cents(record['Net']!) + cents(record['VAT']!)).toBe(cents(record['Total']!))
      return {
        exclVatCents: records.reduce((sum, record) => sum + sign(record) * cents(record['Net']!), 0),
        vatCents: records.reduce((sum, record) => sum + sign(record) * cents(record['VAT']!), 0),
        count: records.length,
      }
    },
  },
]

describe.each(TEST_BACKENDS)('accounting export on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  async function registerAt(at: string, overrides: Record<string, unknown> = {}): Promise<string> {
    const service = { db: testDb.db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => new Date(at) }
    const { receipt } = await createRegistration(service, registrationInput(overrides))
    return receipt.reference
  }

  const contextOn = (at: string) => ({ ...testContext(testDb.db, () => new Date(at)), siteNow: () => new Date(at) })
  const read = (csv: string): CsvRecord[] => parse(csv, { columns: true, skip_empty_lines: true }) as CsvRecord[]

  /** March: two invoices, February's registration credited in full, and one in April outside the period. */
  async function season(): Promise<{ february: string; march: string }> {
    const february = await registerAt('2025-02-20T10:00:00+02:00', { companyName: 'February Holdings', vatNumber: '4111111111' })
    const march = await registerAt('2025-03-01T00:30:00+02:00', { companyName: '=HYPERLINK("http://evil.example")' })
    await registerAt('2025-03-31T23:59:00+02:00', { companyName: 'Month End CC' })
    await registerAt('2025-04-01T00:10:00+02:00', { companyName: 'April Trading' })
    await recordBankTransfer(
      contextOn('2025-03-05T09:00:00+02:00'),
      { reference: february, amount: '20 677.00', receivedOn: '2025-03-05', bankReference: 'FEB HOLD' },
      STAFF,
    )
    const cancelled = await cancelRegistration(contextOn('2025-03-10T09:00:00+02:00'), { reference: february, delegateIds: 'all' }, MANAGER)
    await recordRefundPaidOut(
      contextOn('2025-03-12T09:00:00+02:00'),
      { reference: february, refundId: cancelled.cancellation.refund!.id, paidOutOn: '2025-03-12', bankReference: 'REFUND FEB' },
      MANAGER,
    )
    return { february, march }
  }

  const MARCH = { from: '2025-03-01', to: '2025-03-31' }

  it('keeps the account codes and tax-rate names a manager sets, refusing staff and codes the packages would not take', async () => {
    const context = testContext(testDb.db)
    expect(await accountingSettings(context)).toEqual({ xeroAccountCode: '', xeroTaxType: '', sageLedgerAccount: '', sageVatRate: '' })
    await expect(saveAccountingSettings(context, SETTINGS, STAFF)).rejects.toMatchObject({ code: 'role-required' })
    const refused: Array<[Record<string, string>, string, string]> = [
      [{ xeroAccountCode: '2 00' }, 'xeroAccountCode', 'invalid-account-code'],
      [{ xeroAccountCode: '' }, 'xeroAccountCode', 'required'],
      [{ sageLedgerAccount: '4000A' }, 'sageLedgerAccount', 'invalid-ledger-account'],
      [{ sageLedgerAccount: '123456789' }, 'sageLedgerAccount', 'invalid-ledger-account'],
      [{ xeroTaxType: '   ' }, 'xeroTaxType', 'required'],
      [{ sageVatRate: 'x'.repeat(51) }, 'sageVatRate', 'too-long'],
    ]
    for (const [change, field, code] of refused) {
      await expect(saveAccountingSettings(context, { ...SETTINGS, ...change }, MANAGER), `${field} ${code}`).rejects.toMatchObject({
        issues: [{ path: field, code }],
      })
    }
    expect(await accountingSettings(context)).toEqual({ xeroAccountCode: '', xeroTaxType: '', sageLedgerAccount: '', sageVatRate: '' })
    await saveAccountingSettings(context, SETTINGS, MANAGER)
    expect(await accountingSettings(context)).toEqual(SETTINGS)
  })

  it('refuses a sales export before the settings are set, and a period that ends before it starts, carrying nothing', async () => {
    await season()
    const context = testContext(testDb.db)
    await expect(exportAccounts(context, { package: 'xero', file: 'sales', ...MARCH }, STAFF)).rejects.toMatchObject({
      code: 'invalid-input',
      details: { problem: 'accounting-settings-missing' },
    })
    await saveAccountingSettings(context, SETTINGS, MANAGER)
    await expect(exportAccounts(context, { package: 'xero', file: 'sales', from: '2025-03-31', to: '2025-03-01' }, STAFF)).rejects.toMatchObject({
      details: { problem: 'period-reversed' },
    })
    const first = await exportAccounts(context, { package: 'xero', file: 'sales', ...MARCH }, STAFF)
    expect(first.count).toBe(3)
  })

  describe.each(PACKAGES)('$name sales file', ({ name, headings, numberColumn, sums }) => {
    it('carries the period’s invoices and credit notes with totals equal to the VAT register, each once unless asked again', async () => {
      await season()
      const context = testContext(testDb.db)
      await saveAccountingSettings(context, SETTINGS, MANAGER)
      const register = await vatRegister(context, MARCH)

      const first = await exportAccounts(context, { package: name, file: 'sales', ...MARCH }, STAFF)
      expect(first.csv.charCodeAt(0)).not.toBe(0xfeff)
      expect(first.csv).toContain('\r\n')
      expect(first.csv.split('\r\n')[0]).toBe(headings.join(','))
      const records = read(first.csv)
      expect(records.map((record) => record[numberColumn])).toEqual(register.entries.map((entry) => entry.number))
      expect(sums(records)).toEqual({ exclVatCents: register.net.exclVatCents, vatCents: register.net.vatCents, count: register.entries.length })
      expect(first).toMatchObject({ count: 3, leftOut: 0, fileName: `${name}-sales-2025-03-01-to-2025-03-31.csv` })
      // A company name that a spreadsheet would run as a formula stays text.
      expect(first.csv).not.toMatch(/(^|,)"?=HYPERLINK/m)
      expect(first.csv).toContain(`'=HYPERLINK`)

      // Exported again for an overlapping period: what the first export carried is left out.
      const overlapping = await exportAccounts(context, { package: name, file: 'sales', from: '2025-03-15', to: '2025-04-30' }, STAFF)
      expect(read(overlapping.csv).map((record) => record[numberColumn])).toEqual(['INV-000004'])
      expect(overlapping.leftOut).toBe(1)
      const nothingLeft = await exportAccounts(context, { package: name, file: 'sales', ...MARCH }, STAFF)
      expect(nothingLeft).toMatchObject({ count: 0, leftOut: 3 })
      expect(read(nothingLeft.csv)).toEqual([])

      // Asked for again: the whole period, its totals the register's once more.
      const again = await exportAccounts(context, { package: name, file: 'sales', ...MARCH, again: 'on' }, STAFF)
      expect(sums(read(again.csv))).toEqual({ exclVatCents: register.net.exclVatCents, vatCents: register.net.vatCents, count: 3 })
      // The other package keeps its own record: its first export carries everything.
      const other = PACKAGES.find((candidate) => candidate.name !== name)!
      expect((await exportAccounts(context, { package: other.name, file: 'sales', ...MARCH }, STAFF)).count).toBe(3)
    })
  })

  it('writes each document as its package asks: Xero’s dates and negative credit notes, Sage’s types and customer references', async () => {
    const { february } = await season()
    const context = testContext(testDb.db)
    await saveAccountingSettings(context, SETTINGS, MANAGER)
    const xero = read((await exportAccounts(context, { package: 'xero', file: 'sales', ...MARCH }, STAFF)).csv)
    const creditNote = xero.find((record) => record['*InvoiceNumber'] === 'CN-000001')!
    expect(creditNote).toMatchObject({
      '*ContactName': 'February Holdings',
      Reference: february,
      '*InvoiceDate': '10/03/2025',
      '*DueDate': '10/03/2025',
      '*Quantity': '1',
      '*UnitAmount': '-17980.00',
      TaxAmount: '-2697.00',
      '*AccountCode': '200',
      '*TaxType': 'Standard Rate Sales',
      Currency: 'ZAR',
    })
    expect(creditNote['*Description']).toBe(`Credit note against INV-000001 for registration ${february}`)
    const invoice = xero.find((record) => record['*InvoiceNumber'] === 'INV-000002')!
    expect(invoice).toMatchObject({ '*InvoiceDate': '01/03/2025', '*UnitAmount': '17980.00', TaxAmount: '2697.00' })
    expect(invoice['*DueDate']).toMatch(/^\d{2}\/03\/2025$/)

    const sage = read((await exportAccounts(context, { package: 'sage', file: 'sales', ...MARCH }, STAFF)).csv)
    expect(sage.find((record) => record['Reference'] === 'CN-000001')).toMatchObject({
      Type: 'Cr Note',
      'Customer Reference': 'FEBRUARYHO',
      Date: '10-03-2025',
      'Customer name': 'February Holdings',
      'Ledger Account': '1000',
      Details: 'Credits INV-000001',
      Net: '17980.00',
      'VAT Rate': 'Standard',
      VAT: '2697.00',
      Total: '20677.00',
    })
    expect(sage.find((record) => record['Reference'] === 'INV-000003')).toMatchObject({ Type: 'Invoice', 'Customer Reference': 'MONTHENDCC' })
    // Sage refuses a quick entry whose Details or Reference run past 25 characters, its Customer name past 50.
    for (const record of sage) {
      expect(record['Details']!.length).toBeLessThanOrEqual(25)
      expect(record['Reference']!.length).toBeLessThanOrEqual(25)
      expect(record['Customer name']!.length).toBeLessThanOrEqual(50)
    }
    expect(sageCustomerReference('Ûmhlanga Légal (Pty) Ltd')).toBe('UMHLANGALE')
  })

  it('lists the money received and paid back in the period, each once, in each package’s bank statement import', async () => {
    const { february } = await season()
    const context = testContext(testDb.db)
    const xero = await exportAccounts(context, { package: 'xero', file: 'money', ...MARCH }, STAFF)
    expect(xero.csv.split('\r\n')[0]).toBe('*Date,*Amount,Payee,Description,Reference')
    expect(read(xero.csv)).toEqual([
      {
        '*Date': '05/03/2025',
        '*Amount': '20677.00',
        Payee: 'February Holdings',
        Description: `Bank transfer for registration ${february}`,
        Reference: 'FEB HOLD',
      },
      {
        '*Date': '12/03/2025',
        '*Amount': '-20677.00',
        Payee: 'February Holdings',
        Description: `Refund paid out for registration ${february}`,
        Reference: 'REFUND FEB',
      },
    ])
    expect((await exportAccounts(context, { package: 'xero', file: 'money', ...MARCH }, STAFF)).count).toBe(0)
    const sage = read((await exportAccounts(context, { package: 'sage', file: 'money', ...MARCH }, STAFF)).csv)
    expect(sage.map((record) => [record['Date'], record['Amount']])).toEqual([
      ['05/03/2025', '20677.00'],
      ['12/03/2025', '-20677.00'],
    ])
    expect(sage.map((record) => Object.keys(record))).toEqual([
      ['Date', 'Description', 'Amount'],
      ['Date', 'Description', 'Amount'],
    ])
  })
})
