// The accounting export in Chromium: a manager sets the account codes and tax-rate names, then the month's Xero and
// Sage sales files are downloaded from the reports page, parsed back and summed against the VAT register's CSV of the
// same month; a second export of the month carries nothing, and one asked for again carries everything.
import { parse } from 'csv-parse/sync'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { signInAt, type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { downloadedBytes, openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'

const OWNER: StaffAccount = { email: 'naledi@example.com', name: 'Naledi Owner', role: 'owner', password: 'a long enough owner password' }

const browser = useBrowser()
const { site, url } = useBackOfficeSite([OWNER])

async function registerByBankTransfer(): Promise<string> {
  const response = await fetch(url('/api/registrations'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(registrationBody({ paymentMethod: 'Bank Transfer' })),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as RegistrationReceipt).reference
}

const cents = (amount: string | undefined) => Math.round(Number(amount) * 100)

/** Downloads one accounting export from the reports page's form and answers its rows by heading. */
async function downloadExport(
  page: Page,
  choices: { package: 'Xero' | 'Sage Business Cloud Accounting'; again?: boolean },
): Promise<Array<Record<string, string>>> {
  const region = page.getByRole('region', { name: 'Accounting export' })
  await region.getByRole('radio', { name: choices.package }).check()
  await region.getByRole('radio', { name: 'Sales: tax invoices and credit notes' }).check()
  await region.getByLabel('First day of the export').fill('2025-03-01')
  await region.getByLabel('Last day of the export').fill('2025-03-31')
  await region.getByRole('checkbox', { name: 'Export again what earlier exports carried' }).setChecked(choices.again ?? false)
  const [download] = await Promise.all([page.waitForEvent('download'), region.getByRole('button', { name: 'Download the export' }).click()])
  expect(download.suggestedFilename()).toBe(`${choices.package === 'Xero' ? 'xero' : 'sage'}-sales-2025-03-01-to-2025-03-31.csv`)
  return parse(await downloadedBytes(download), { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>
}

describe('the accounting export', () => {
  it('downloads the month’s Xero and Sage sales files, their sums those of the VAT register', async () => {
    const cancelled = await registerByBankTransfer()
    await registerByBankTransfer()
    const page = await openPage(browser(), 'desktop')
    await signInAt(page, site().baseUrl, `/admin/registrations/${cancelled}/cancel`, OWNER)
    await waitForHydration(page)
    await page.getByRole('button', { name: 'Confirm cancellation' }).click()
    await page
      .getByRole('status')
      .getByText(/^Cancelled with a 0% fee\. Credit note CN-\d{6}/)
      .waitFor()

    await page.goto(url('/admin/reports?from=2025-03-01&to=2025-03-31'))
    await waitForHydration(page)
    const region = page.getByRole('region', { name: 'Accounting export' })
    await region.getByText('The sales file needs the account codes and tax-rate names below').waitFor()
    // A code Xero would not take is refused beside nothing saved; then the settings are kept.
    await region.getByLabel('Xero: account code of sales').fill('2 00')
    await region.getByLabel('Xero: tax rate name of output VAT').fill('Standard Rate Sales')
    await region.getByLabel('Sage: ledger account of sales').fill('1000')
    await region.getByLabel('Sage: VAT rate name of standard-rated sales').fill('Standard')
    await region.getByRole('button', { name: 'Save the settings' }).click()
    await region.getByRole('alert').getByText('Enter the account code as Xero shows it').waitFor()
    await region.getByLabel('Xero: account code of sales').fill('200')
    await region.getByRole('button', { name: 'Save the settings' }).click()
    await region.getByRole('status').getByText('The accounting export settings are saved.').waitFor()
    expect(await accessibilityViolations(page)).toEqual([])
    // At 375 px the export's form and settings fit the screen.
    await page.setViewportSize({ width: 375, height: 800 })
    expect(await region.evaluate((section) => section.scrollWidth <= section.clientWidth)).toBe(true)
    await page.setViewportSize({ width: 1280, height: 800 })

    const [registerDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'CSV', exact: true }).click()])
    const register = parse(await downloadedBytes(registerDownload), { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][]
    const documents = register.slice(1).filter((row) => row[0] === 'Tax invoice' || row[0] === 'Credit note')
    const net = register.find((row) => row[0] === 'Net of credit notes')!
    expect(documents.some((row) => row[0] === 'Credit note')).toBe(true)

    const xero = await downloadExport(page, { package: 'Xero' })
    expect(xero.map((row) => row['*InvoiceNumber']).sort()).toEqual(documents.map((row) => row[1]).sort())
    expect(xero.reduce((sum, row) => sum + Number(row['*Quantity']) * cents(row['*UnitAmount']), 0)).toBe(cents(net[6]))
    expect(xero.reduce((sum, row) => sum + cents(row['TaxAmount']), 0)).toBe(cents(net[7]))
    expect(xero.every((row) => row['*AccountCode'] === '200' && row['*TaxType'] === 'Standard Rate Sales')).toBe(true)

    const sage = await downloadExport(page, { package: 'Sage Business Cloud Accounting' })
    const signed = (row: Record<string, string>, column: string) => (row['Type'] === 'Cr Note' ? -1 : 1) * cents(row[column])
    expect(sage.map((row) => row['Reference']).sort()).toEqual(documents.map((row) => row[1]).sort())
    expect(sage.reduce((sum, row) => sum + signed(row, 'Net'), 0)).toBe(cents(net[6]))
    expect(sage.reduce((sum, row) => sum + signed(row, 'VAT'), 0)).toBe(cents(net[7]))
    expect(sage.reduce((sum, row) => sum + signed(row, 'Total'), 0)).toBe(cents(net[8]))

    // Each document goes in one Xero export only, unless asked for again.
    expect(await downloadExport(page, { package: 'Xero' })).toEqual([])
    expect(await downloadExport(page, { package: 'Xero', again: true })).toHaveLength(xero.length)
    await page.context().close()
  })
})
