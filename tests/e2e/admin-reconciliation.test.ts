// Reconciling the bank account and the finance reports in Chromium against the real site on SQLite: each South African
// bank's CSV export imported with its preset, a line dismissed that stays dismissed on re-import, one transfer split
// across three registrations, an overpayment recorded in full whose surplus is paid back from the refunds list, and
// the VAT register downloaded and checked against the tax invoices' and credit note's PDFs (pdftotext).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { parse } from 'csv-parse/sync'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { downloadedBytes, openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'

const OWNER: StaffAccount = { email: 'thabo@example.com', name: 'Thabo Owner', role: 'owner', password: 'a long enough owner password' }

const browser = useBrowser()
const { url, openAs } = useBackOfficeSite([OWNER])

const BANKS = [
  ['fnb', 'FNB'],
  ['standard-bank', 'Standard Bank'],
  ['absa', 'Absa'],
  ['nedbank', 'Nedbank'],
  ['capitec', 'Capitec'],
] as const

async function registerByBankTransfer(): Promise<{ reference: string; companyName: string }> {
  const body = registrationBody({ paymentMethod: 'Bank Transfer' })
  const response = await fetch(url('/api/registrations'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(response.status).toBe(201)
  const receipt = (await response.json()) as RegistrationReceipt
  return { reference: receipt.reference, companyName: body.companyName }
}

/**
 * A bank's sample export (packages/core's fixtures), naming the given registration where the sample has 7KQ2M9XA. Its
 * transfer of 5 February is moved to the site's day (SITE_DATE, 1 March), the day the registration was made: a
 * transfer dated before its registration is refused.
 */
function bankSample(bank: string, reference: string): Buffer {
  const text = readFileSync(new URL(`../../packages/core/src/backoffice/bank-statements/fixtures/banks/${bank}.csv`, import.meta.url), 'utf8')
  const onSiteDay = text
    .replaceAll('05/02/2025', '01/03/2025')
    .replaceAll('2025/02/05', '2025/03/01')
    .replaceAll('2025-02-05', '2025-03-01')
    .replaceAll('5 Feb 2025', '1 Mar 2025')
  return Buffer.from(onSiteDay.replaceAll('7KQ2M9XA', reference))
}

/** An FNB export with the given lines (date, amount, description). */
function fnbStatement(...lines: Array<[string, string, string]>): Buffer {
  // Each line with the running balance the bank shows after it, as the FNB preset checks.
  let balanceCents = 0
  const rows = lines.map(([date, amount, description]) => {
    balanceCents += Math.round(Number(amount.replaceAll(',', '')) * 100)
    return `${date},"${amount}",${(balanceCents / 100).toFixed(2)},"${description}"`
  })
  return Buffer.from(['Date,Amount,Balance,Description', ...rows].join('\r\n'))
}

async function importStatement(page: Page, name: string, buffer: Buffer, bank: string): Promise<void> {
  await page.goto(url('/admin/bank-statements'))
  await page.getByLabel('Statement file (CSV or OFX)').setInputFiles({ name, mimeType: 'text/csv', buffer })
  await page.getByLabel('The bank', { exact: true }).selectOption({ label: bank })
  await page.getByRole('button', { name: 'Check the statement' }).click()
  await page.getByRole('button', { name: 'Import statement' }).click()
  await page.waitForURL((address) => address.searchParams.has('import'))
  await page.getByRole('heading', { name: `Lines of ${name}` }).waitFor()
}

function randsIn(text: string, label: RegExp): number {
  const match = new RegExp(`${label.source}\\s+R\\s?([\\d ]+\\.\\d{2})`).exec(text)
  if (!match) throw new Error(`No amount after ${label} in:\n${text}`)
  return Math.round(Number(match[1]!.replaceAll(' ', '')) * 100)
}

describe('reconciling the bank account in the back office', () => {
  it('imports each bank’s CSV export with its preset, records the payment it names, and a dismissed line stays dismissed', async () => {
    const page = await openPage(browser(), 'phone')
    await openAs(page, '/admin/bank-statements', OWNER)
    for (const [bank, name] of BANKS) {
      const registration = await registerByBankTransfer()
      await importStatement(page, `${bank}.csv`, bankSample(bank, registration.reference), name)
      const lines = page.getByRole('region', { name: `Lines of ${bank}.csv` })
      expect(await lines.getByRole('row').count(), bank).toBe(3)
      await lines.getByRole('cell', { name: `Pays ${registration.reference} (${registration.companyName}) in full` }).waitFor()
      await lines.getByRole('cell', { name: 'No registration reference: assign by hand' }).waitFor()
      await page.getByRole('button', { name: 'Record the ticked payments' }).click()
      expect(await page.getByRole('status').innerText()).toBe(`Recorded 1 payment (${registration.reference}). A receipt is on the way.`)
    }
    await waitForHydration(page)
    expect(await accessibilityViolations(page)).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

    // The Capitec file's unknown payer is the building's rent: dismissed, and still dismissed when imported again.
    await page.getByLabel('Why R 1 234.50 on 2025-02-07 is no registration’s payment').fill('Rent from the tenant downstairs')
    await page.getByRole('button', { name: 'Dismiss this line' }).click()
    await page
      .getByRole('status')
      .getByText('Dismissed the line of R 1 234.50 on 2025-02-07: it stays dismissed if the statement is imported again.', { exact: true })
      .waitFor()
    await page.getByRole('cell', { name: `Dismissed by ${OWNER.name}: Rent from the tenant downstairs` }).waitFor()
    const registrationOfCapitec = (await page.getByRole('cell', { name: /^Recorded for / }).innerText()).split(' ')[2]!
    await importStatement(page, 'capitec-again.csv', bankSample('capitec', registrationOfCapitec), 'Capitec')
    await page.getByRole('cell', { name: `Dismissed by ${OWNER.name}: Rent from the tenant downstairs` }).waitFor()
    expect(await page.getByRole('button', { name: 'Dismiss this line' }).count()).toBe(0)

    await page.goto(url('/admin/audit'))
    expect(await page.locator('main').innerText()).toContain('Statement line dismissed')
    await page.context().close()
  })

  it('splits a company’s one transfer across three registrations without JavaScript: each part recorded, the line once', async () => {
    const registrations = [await registerByBankTransfer(), await registerByBankTransfer(), await registerByBankTransfer()]
    const references = registrations.map((registration) => registration.reference)
    const page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await openAs(page, '/admin/bank-statements', OWNER)
    await importStatement(page, 'group.csv', fnbStatement(['2025/03/01', '50,000.00', `ACME GROUP PAYS ${references.join(' ')}`]), 'FNB')
    await page.getByRole('cell', { name: `Names several registrations (${references.join(', ')}): assign by hand` }).waitFor()

    const split = page.getByRole('group', { name: 'Split R 50 000.00 on 2025-03-01 across registrations (the amounts add up to the line)' })
    expect(await split.getByLabel('Registration 1').inputValue()).toBe(references[0])
    await split.getByLabel('Amount 1 (R)').fill('20 677.00')
    await split.getByLabel('Amount 2 (R)').fill('20 677.00')
    await split.getByLabel('Amount 3 (R)').fill('8 000')
    await page.getByRole('button', { name: 'Split this line' }).click()
    expect(await page.getByRole('alert').innerText()).toBe('The parts add up to R 49 354.00; the line is R 50 000.00. Make them add up to the line.')
    // The form comes back as typed.
    expect(await split.getByLabel('Amount 1 (R)').inputValue()).toBe('20 677.00')

    await split.getByLabel('Amount 3 (R)').fill('8 646.00')
    await page.getByRole('button', { name: 'Split this line' }).click()
    expect(await page.getByRole('status').innerText()).toBe(
      `Split the line across ${references[0]} (R 20 677.00), ${references[1]} (R 20 677.00), ${references[2]} (R 8 646.00). Receipts for those paid in full are on the way.`,
    )
    await page.goto(url('/admin/bank-statements'))
    expect(await page.getByRole('cell', { name: new RegExp(`ACME GROUP PAYS`) }).count()).toBe(0)
    await page.goto(url(`/admin/registrations/${references[2]}`))
    expect(await page.locator('main').innerText()).toContain('Outstanding')
    await page.context().close()
  })

  it('records an overpayment in full and pays the surplus back from the refunds list, exported for the bank', async () => {
    const registration = await registerByBankTransfer()
    const page = await openPage(browser(), 'phone')
    await openAs(page, '/admin/bank-statements', OWNER)
    await importStatement(page, 'over.csv', fnbStatement(['2025/03/01', '25,000.00', `EFT ${registration.reference}`]), 'FNB')
    await page
      .getByRole('cell', {
        name: `Overpays ${registration.reference} (${registration.companyName}) by R 4 323.00: R 20 677.00 outstanding; recorded in full, the surplus is owed back`,
      })
      .waitFor()
    await page.getByRole('checkbox', { name: 'Record the line of R 25 000.00 on 2025-03-01' }).check()
    await page.getByRole('button', { name: 'Record the ticked payments' }).click()
    expect(await page.getByRole('status').innerText()).toBe(
      `Recorded 1 payment (${registration.reference}). A receipt is on the way. R 4 323.00 paid beyond what ${registration.reference} owed is owed back: see Refunds to pay out.`,
    )

    await page.goto(url(`/admin/registrations/${registration.reference}`))
    await page.getByText('R 4 323.00: owed to the registrant, waiting to be paid out').waitFor()
    await page.getByRole('link', { name: 'Refunds to pay out' }).click()
    await page.waitForURL(url('/admin/refunds'))
    await waitForHydration(page)
    const refund = page.getByRole('article', { name: `Refund of R 4 323.00 to ${registration.reference}` })
    await page.getByRole('cell', { name: 'Overpaid: a transfer of R 25 000.00 received 2025-03-01 (STMT-', exact: false }).waitFor()
    await refund.getByLabel('Account holder').fill(registration.companyName)
    await refund.getByLabel('Bank', { exact: true }).fill('Nedbank')
    await refund.getByLabel('Branch code').fill('19876')
    await refund.getByLabel('Account number').fill('1000 234 567')
    await refund.getByRole('button', { name: 'Keep this account' }).click()
    expect(await page.getByRole('alert').innerText()).toBe('Enter the branch code: 6 digits (universal branch codes too, e.g. 250655).')
    await refund.getByLabel('Branch code').fill('198765')
    await refund.getByRole('button', { name: 'Keep this account' }).click()
    await page.getByRole('status').getByText(`The account of registration ${registration.reference} is kept for its refunds.`).waitFor()
    expect(await accessibilityViolations(page)).toEqual([])

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /as CSV, for the bank’s bulk payment/ }).click()])
    const rows = parse(await downloadedBytes(download), { bom: true }) as string[][]
    expect(rows[0]).toEqual(['Beneficiary name', 'Bank', 'Branch code', 'Account number', 'Amount', 'Beneficiary reference', 'Own reference'])
    expect(rows).toContainEqual([
      registration.companyName,
      'Nedbank',
      '198765',
      '1000234567',
      '4323.00',
      `REFUND ${registration.reference}`,
      `REFUND ${registration.reference}`,
    ])

    await refund.getByLabel('Bank reference of the payment').fill('NED REFUND 4323')
    await refund.getByRole('button', { name: 'Record as paid out' }).click()
    await page.getByRole('status').getByText(`The refund of R 4 323.00 to registration ${registration.reference} is recorded as paid out.`).waitFor()
    await page.getByRole('region', { name: 'Paid out' }).getByRole('cell', { name: 'NED REFUND 4323' }).waitFor()
    expect(await page.getByRole('article', { name: `Refund of R 4 323.00 to ${registration.reference}` }).count()).toBe(0)

    await page.goto(url(`/admin/registrations/${registration.reference}`))
    await page.getByText('R 4 323.00: paid back on 2025-03-01 (NED REFUND 4323)').waitFor()
    await page.context().close()
  })
})

describe('statement files that are OFX, the same money twice, and files that are no statement', () => {
  it('reads an OFX 2 file with CDATA, knows the same money in a later CSV, and refuses a binary file and a dollar account', async () => {
    const registration = await registerByBankTransfer()
    const fixture = (name: string) =>
      Buffer.from(
        readFileSync(new URL(`../../packages/core/src/backoffice/bank-statements/fixtures/${name}`, import.meta.url), 'utf8').replaceAll(
          '7KQ2M9XA',
          registration.reference,
        ),
      )
    const page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await openAs(page, '/admin/bank-statements', OWNER)

    await page
      .getByLabel('Statement file (CSV or OFX)')
      .setInputFiles({ name: 'statement.pdf', mimeType: 'application/pdf', buffer: Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x9c, 0xff, 0x01, 0x02]) })
    await page.getByRole('button', { name: 'Check the statement' }).click()
    expect(await page.getByRole('alert').innerText()).toBe('“statement.pdf” is not a bank statement. Export the statement from the bank as CSV or OFX.')
    await page.getByLabel('Statement file (CSV or OFX)').setInputFiles({ name: 'usd.ofx', mimeType: 'application/x-ofx', buffer: fixture('usd-statement.ofx') })
    await page.getByRole('button', { name: 'Check the statement' }).click()
    expect(await page.getByRole('alert').innerText()).toBe(
      'The statement is of an account kept in USD; only statements of the rand (ZAR) account can be imported.',
    )

    // Its transfer moved to the registration's day (SITE_DATE), as bankSample moves the CSV's.
    const ofx = Buffer.from(
      fixture('xml-cdata-statement.ofx').toString().replace('<TRNAMT>1234.50', '<TRNAMT>1299.00').replace('<DTPOSTED>20250205', '<DTPOSTED>20250301'),
    )
    await page.getByLabel('Statement file (CSV or OFX)').setInputFiles({ name: 'february.ofx', mimeType: 'application/x-ofx', buffer: ofx })
    await page.getByRole('button', { name: 'Check the statement' }).click()
    await page.getByRole('button', { name: 'Import statement' }).click()
    await page.waitForURL((address) => address.searchParams.has('import'))
    await page.getByRole('cell', { name: `FNB OB PMT ACME LEGAL <REG> ${registration.reference} Smith & Sons` }).waitFor()
    await page.getByRole('button', { name: 'Record the ticked payments' }).click()
    expect(await page.getByRole('status').innerText()).toBe(`Recorded 1 payment (${registration.reference}). A receipt is on the way.`)

    // The unknown payer's amount made this test's own, so the other tests' files of the same days hold no twin of it;
    // the balances after it move with it, as the preset checks them.
    const ownAmount = bankSample('fnb', registration.reference).toString().replace('"1,234.50"', '"1,299.00"').replaceAll('22,561.50', '22,626.00')
    await importStatement(page, 'february.csv', Buffer.from(ownAmount), 'FNB')
    await page
      .getByRole('cell', {
        name: `The same money as a line already recorded on 1 March from february.ofx (registration ${registration.reference}): not recorded twice`,
      })
      .waitFor()
    await page.getByRole('cell', { name: 'The same money as a line already imported on 7 February from february.ofx: not recorded twice' }).waitFor()
    expect(await page.getByRole('checkbox').count()).toBe(0)
    await page.context().close()
  })
})

describe('finance reports', () => {
  it('downloads the VAT register of the month, its totals those of the tax invoices’ and credit note’s PDFs', async () => {
    const cancelled = await registerByBankTransfer()
    await registerByBankTransfer()
    const page = await openPage(browser(), 'desktop')
    await openAs(page, `/admin/registrations/${cancelled.reference}/cancel`, OWNER)
    await waitForHydration(page)
    await page.getByRole('button', { name: 'Confirm cancellation' }).click()
    await page
      .getByRole('status')
      .getByText(/^Cancelled with a 0% fee\. Credit note CN-\d{6}/)
      .waitFor()

    await page.goto(url('/admin/reports'))
    await waitForHydration(page)
    expect(await accessibilityViolations(page)).toEqual([])
    await page
      .getByRole('region', { name: 'Money per event' })
      .getByRole('rowheader', { name: /All events/ })
      .waitFor()
    await page.getByLabel('From (YYYY-MM-DD)').fill('2025-03-01')
    await page.getByLabel('To (YYYY-MM-DD)').fill('2025-03-31')
    await page.getByRole('button', { name: 'Show the register' }).click()
    await page.waitForURL((address) => address.searchParams.get('to') === '2025-03-31')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'CSV', exact: true }).click()])
    expect(download.suggestedFilename()).toBe('vat-register-2025-03-01-to-2025-03-31.csv')
    const rows = parse(await downloadedBytes(download), { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][]
    const documents = rows.slice(1).filter((row) => row[0] === 'Tax invoice' || row[0] === 'Credit note')
    expect(documents.filter((row) => row[0] === 'Credit note')).toHaveLength(1)
    expect(documents.filter((row) => row[0] === 'Tax invoice').length).toBeGreaterThanOrEqual(2)

    // Every document's PDF, as staff download it, read by pdftotext.
    let invoicesVat = 0
    let creditNotesVat = 0
    for (const [kind, number, , reference] of documents) {
      const address = kind === 'Tax invoice' ? `/admin/registrations/${reference}/invoice.pdf` : `/admin/registrations/${reference}/credit-notes/${number}.pdf`
      const response = await page.request.get(url(address))
      expect(response.status(), address).toBe(200)
      const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: await response.body() }).toString()
      expect(text).toContain(number)
      if (kind === 'Tax invoice') invoicesVat += randsIn(text, /VAT at 15%/)
      else creditNotesVat += randsIn(text, /VAT at 15%/)
    }
    const totals = Object.fromEntries(
      rows
        .filter((row) => row[0]?.startsWith('Tax invoices') || row[0]?.startsWith('Credit notes') || row[0] === 'Net of credit notes')
        .map((row) => [row[0]!.split(' (')[0], Math.round(Number(row[7]) * 100)]),
    )
    expect(totals).toEqual({ 'Tax invoices': invoicesVat, 'Credit notes': creditNotesVat, 'Net of credit notes': invoicesVat - creditNotesVat })

    const [workbook] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Excel', exact: true }).click()])
    expect((await downloadedBytes(workbook)).subarray(0, 2).toString()).toBe('PK')
    await page.context().close()
  })
})
