// Bank-statement matching in Chromium against the real site: two bank-transfer registrations made through the JSON
// API, a statement naming both uploaded with a new column mapping, both matches recorded in one step and their
// receipts delivered to a real SMTP server; then, without JavaScript, the same statement imported again shows them
// recorded, and a line assigned by hand to a paid registration is recorded as money owed back.
import { request as httpRequest } from 'node:http'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { signInAt, type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'

const STAFF: StaffAccount = { email: 'lerato@example.com', name: 'Lerato Staff', role: 'staff', password: 'a long enough staff password' }

const browser = useBrowser()
const { site, sink, url } = useBackOfficeSite([STAFF])

async function registerByBankTransfer(): Promise<{ reference: string; email: string; companyName: string }> {
  const body = registrationBody({ paymentMethod: 'Bank Transfer' })
  const response = await fetch(url('/api/registrations'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(response.status).toBe(201)
  const receipt = (await response.json()) as RegistrationReceipt
  return { reference: receipt.reference, email: body.email, companyName: body.companyName }
}

/**
 * An FNB-style export: account details above the heading, the two transfers, a bank fee and a payer without a
 * reference. The money arrived on the site's day (SITE_DATE), the day the registrations were made: a transfer dated
 * before its registration is refused.
 */
function statement(first: string, second: string): Buffer {
  return Buffer.from(
    [
      '"ACC-NO","62000000000","Cheque Account"',
      '',
      'Date,Amount,Balance,Description,Reference',
      `2025/03/01,"20,677.00",20677.00,"FNB OB PMT ACME","REG ${first}"`,
      `2025/03/01,20677.00,41354.00,"CAPITEC TRANSFER ${second.toLowerCase()}",""`,
      '2025/03/01,-350.00,41004.00,"MONTHLY ACCOUNT FEE",""',
      '2025/03/01,"1,234.50",42238.50,"CASH DEPOSIT SANDTON",""',
    ].join('\r\n'),
  )
}

/** The page's console errors (CSP violations among them) and script errors; refused form posts (400) are expected. */
function collectErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('status of 400')) errors.push(`${message.text()} at ${page.url()}`)
  })
  page.on('pageerror', (error) => errors.push(`${error.message} at ${page.url()}`))
  return errors
}

async function expectAccessible(page: Page): Promise<void> {
  expect(await accessibilityViolations(page), `axe on ${page.url()}`).toEqual([])
}

describe('bank-statement matching in the back office', () => {
  it('records both matches of an uploaded statement in one step, sends the receipts, and a re-import records nothing twice', async () => {
    const first = await registerByBankTransfer()
    const second = await registerByBankTransfer()
    const file = { name: 'february.csv', mimeType: 'text/csv', buffer: statement(first.reference, second.reference) }

    const page = await openPage(browser(), 'phone')
    const errors = collectErrors(page)
    await signInAt(page, site().baseUrl, '/admin/bank-statements', STAFF)
    await waitForHydration(page)
    await expectAccessible(page)
    await page.getByLabel('Statement file (CSV or OFX)').setInputFiles(file)
    await page.getByLabel('The bank', { exact: true }).selectOption('new')
    await page.getByLabel('Name of the new mapping').fill('FNB cheque account')
    await page.getByLabel('Heading of the date column').fill('Date')
    await page.getByLabel('Dates written as').selectOption('yyyy/MM/dd')
    await page.getByLabel('Heading of the description column').fill('Description')
    await page.getByLabel('Heading of the amount column').fill('Amount')
    await page.getByLabel('Heading of the reference column').fill('Reference')
    await page.getByRole('button', { name: 'Check the statement' }).click()
    // The preview says what would be recorded; nothing is stored until it is confirmed.
    const preview = page.getByRole('region', { name: 'Check february.csv before importing' })
    await preview.waitFor()
    const previewText = (await preview.innerText()).replaceAll(/\s+/g, ' ')
    expect(previewText).toContain('3 lines, R 42 588.50')
    expect(previewText).toContain('1 line, R 350.00')
    expect(previewText).toContain('2025-03-01')
    expect(previewText).toContain('Not checked: the file has no balance column.')
    expect(await page.getByRole('heading', { name: 'Recent imports' }).count()).toBe(0)
    await page.getByRole('button', { name: 'Import statement' }).click()
    await page.waitForURL((address) => address.searchParams.has('import'))
    await page.getByRole('heading', { name: 'Lines of february.csv' }).waitFor()
    // The import form starts afresh, offering the columns just described.
    expect(await page.getByLabel('Statement file (CSV or OFX)').inputValue()).toBe('')
    expect(await page.getByRole('combobox', { name: 'The bank', exact: true }).locator('option:checked').innerText()).toBe(
      'FNB cheque account (columns described earlier)',
    )

    const lines = page.getByRole('region', { name: 'Lines of february.csv' })
    expect(await lines.getByRole('row').count()).toBe(4)
    await lines.getByRole('cell', { name: `Pays ${first.reference} (${first.companyName}) in full` }).waitFor()
    await lines.getByRole('cell', { name: `Pays ${second.reference} (${second.companyName}) in full` }).waitFor()
    await lines.getByRole('cell', { name: 'No registration reference: assign by hand' }).waitFor()
    const transfers = page.getByRole('checkbox', { name: 'Record the line of R 20 677.00 on 2025-03-01' })
    expect(await transfers.nth(0).isChecked()).toBe(true)
    expect(await transfers.nth(1).isChecked()).toBe(true)
    expect(await page.getByRole('checkbox').count()).toBe(2)
    // On a phone the table scrolls inside its own region; the page itself never gets wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await expectAccessible(page)

    await page.getByRole('button', { name: 'Record the ticked payments' }).click()
    expect(await page.getByRole('status').innerText()).toBe(`Recorded 2 payments (${first.reference}, ${second.reference}). 2 receipts are on the way.`)
    await lines.getByRole('cell', { name: `Recorded for ${first.reference} by ${STAFF.name}` }).waitFor()
    await lines.getByRole('cell', { name: `Recorded for ${second.reference} by ${STAFF.name}` }).waitFor()
    expect(await page.getByRole('checkbox').count()).toBe(0)
    expect(errors).toEqual([])

    for (const registration of [first, second]) {
      const receipt = await sink().waitFor(
        (mail) => mail.recipients.includes(registration.email) && mail.parsed.subject === `Payment received: registration ${registration.reference}`,
        15_000,
      )
      expect(receipt.parsed.text).toContain('We have received your bank transfer')
      expect(receipt.parsed.attachments.map((attachment) => attachment.contentType)).toContain('application/pdf')
    }
    await page.context().close()

    const noScript = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await signInAt(noScript, site().baseUrl, '/admin/bank-statements', STAFF)
    expect(await noScript.getByLabel('The bank', { exact: true }).inputValue()).not.toBe('new')
    await noScript.getByLabel('Statement file (CSV or OFX)').setInputFiles({ ...file, name: 'february-again.csv' })
    await noScript.getByRole('button', { name: 'Check the statement' }).click()
    await noScript.getByRole('button', { name: 'Import statement' }).click()
    await noScript.waitForURL((address) => address.searchParams.has('import'))
    expect(await noScript.locator('main').innerText()).toContain('3 money received, 0 new (the others were imported before)')
    const again = noScript.getByRole('region', { name: 'Lines of february-again.csv' })
    await again.getByRole('cell', { name: `Recorded for ${first.reference} by ${STAFF.name}` }).waitFor()
    await again.getByRole('cell', { name: `Recorded for ${second.reference} by ${STAFF.name}` }).waitFor()
    expect(await noScript.getByRole('checkbox').count()).toBe(0)

    // Money for a registration already paid is recorded in full, all of it owed back.
    await noScript.getByLabel('Registration reference for R 1 234.50 on 2025-03-01 (CASH DEPOSIT SANDTON)').fill(first.reference)
    await noScript.getByRole('button', { name: 'Record this line' }).click()
    expect(await noScript.getByRole('status').innerText()).toBe(
      `Recorded R 1 234.50 for registration ${first.reference}: nothing was outstanding. R 1 234.50 paid beyond what ${first.reference} owed is owed back: see Refunds to pay out.`,
    )
    await noScript
      .getByRole('cell', { name: `Recorded for ${first.reference} by ${STAFF.name}` })
      .nth(1)
      .waitFor()
    await noScript.context().close()
  })
})

describe('the statement upload’s size limit', () => {
  /** The status a form post declaring `bytes` gets; the body is never sent, as the gate answers on the declared length. */
  function statusForDeclaredLength(pathname: string, bytes: number): Promise<number | undefined> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(url(pathname), {
        method: 'POST',
        headers: {
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(bytes),
          origin: site().baseUrl,
          'sec-fetch-site': 'same-origin',
        },
      })
      request.once('response', (response) => {
        resolve(response.statusCode)
        request.destroy()
      })
      request.once('error', reject)
      request.flushHeaders()
    })
  }

  it('takes a statement larger than other forms may be, and refuses one over 2 MiB before anyone reads it', async () => {
    // Anonymous: past the size gate, the back office's guard sends the post to sign in.
    expect(await statusForDeclaredLength('/admin/bank-statements', 500 * 1024)).toBe(302)
    expect(await statusForDeclaredLength('/admin/staff', 500 * 1024)).toBe(413)
    expect(await statusForDeclaredLength('/admin/bank-statements', 2 * 1024 * 1024 + 1)).toBe(413)
  })
})
