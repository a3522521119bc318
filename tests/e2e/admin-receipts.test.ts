// What the registrant is sent and can download, in Chromium against the real site on SQLite: an overpayment recorded
// in the back office reaches a real SMTP server as a receipt that states what arrived and the surplus owed back; after
// "Correct the invoice" the replaced tax invoice is listed on the registration's page and the registrant's status
// page and its PDF (read by pdftotext) is the one first issued, byte for byte.
import { execFileSync } from 'node:child_process'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { signInAt, type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { downloadedBytes, openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { onSite, registrationBody, type RegistrationReceipt } from '../support/registrations.ts'

const OWNER: StaffAccount = { email: 'naledi@example.com', name: 'Naledi Owner', role: 'owner', password: 'receipts and invoices kept whole' }

const browser = useBrowser()
const { site, sink, url } = useBackOfficeSite([OWNER], { FORM_RATE_LIMIT: '0' })

async function registerByBankTransfer(): Promise<{ receipt: RegistrationReceipt; companyName: string; email: string }> {
  const body = registrationBody({ paymentMethod: 'Bank Transfer' })
  const response = await fetch(url('/api/registrations'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(response.status).toBe(201)
  return { receipt: (await response.json()) as RegistrationReceipt, companyName: body.companyName, email: body.email }
}

function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString()
}

async function download(page: Page, linkName: string | RegExp): Promise<{ filename: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: linkName, exact: true }).click()])
  return { filename: file.suggestedFilename(), bytes: await downloadedBytes(file) }
}

describe('receipts and replaced invoices', () => {
  it('sends a receipt for an overpayment that states what arrived, what it settled and the surplus owed back', async () => {
    const { receipt, email } = await registerByBankTransfer()
    const owner = await openPage(browser(), 'phone')
    await signInAt(owner, site().baseUrl, `/admin/registrations/${receipt.reference}/payments/new`, OWNER)
    await waitForHydration(owner)
    await owner.getByLabel('Amount received (rand)').fill('21 000.00')
    await owner.getByLabel('Bank reference').fill('ABSA 550-21')
    await owner.getByRole('button', { name: 'Record the transfer' }).click()
    await owner.waitForURL((address) => address.searchParams.get('recorded') === 'surplus')

    const mail = await sink().waitFor(
      (candidate) => candidate.recipients.includes(email) && candidate.parsed.subject === `Payment received: registration ${receipt.reference}`,
      15_000,
    )
    const text = mail.parsed.text ?? ''
    for (const expected of [
      'Amount received: R 21 000.00',
      'Received on: 1 March 2025',
      'As your bank describes it: ABSA 550-21',
      'Settled: R 20 677.00 of tax invoice INV-',
      'Paid beyond what was owed: R 323.00',
      'You paid R 323.00 more than was owed. That money is yours: we will pay it back to you by bank transfer.',
    ]) {
      expect(text).toContain(expected)
    }
    expect(text).not.toContain('Amount paid')
    expect(text).not.toContain('STMT-')
    expect(mail.parsed.attachments.map((attachment) => attachment.contentType)).toEqual(['application/pdf'])
    await owner.context().close()
  })

  it('keeps the replaced invoice listed and downloadable, unchanged, on the back office and the status page', async () => {
    const { receipt, companyName } = await registerByBankTransfer()
    const owner = await openPage(browser(), 'desktop')
    await signInAt(owner, site().baseUrl, `/admin/registrations/${receipt.reference}`, OWNER)
    const first = await download(owner, /^Download tax invoice INV-\d+ \(PDF\)$/)
    const firstNumber = /tax-invoice-(INV-\d+)\.pdf/.exec(first.filename)![1]!

    await owner.goto(url(`/admin/registrations/${receipt.reference}/company`))
    await waitForHydration(owner)
    await owner.getByLabel('Company name').fill(`${companyName} Holdings`)
    await owner.getByRole('button', { name: 'Save the company details' }).click()
    await owner.waitForURL((address) => address.pathname === `/admin/registrations/${receipt.reference}`)
    await owner.goto(url(`/admin/registrations/${receipt.reference}/company`))
    await owner.getByRole('button', { name: 'Correct the invoice' }).click()
    await owner.waitForURL((address) => address.pathname === `/admin/registrations/${receipt.reference}`)

    const listed = owner.locator('p').filter({ hasText: `${firstNumber}, issued` })
    await listed.waitFor()
    const [, replacedBy] = /replaced by (INV-\d+) on /.exec(await listed.innerText()) ?? []
    expect(replacedBy).toMatch(/^INV-\d+$/)
    expect(replacedBy).not.toBe(firstNumber)
    const replaced = await download(owner, `Download tax invoice ${firstNumber} (PDF)`)
    expect(replaced.filename).toBe(`tax-invoice-${firstNumber}.pdf`)
    expect(Buffer.compare(replaced.bytes, first.bytes)).toBe(0)
    const replacedText = pdfText(replaced.bytes)
    expect(replacedText).toContain(firstNumber)
    expect(replacedText).toContain(companyName)
    expect(replacedText).not.toContain('Holdings')
    const current = pdfText((await download(owner, `Download tax invoice ${replacedBy} (PDF)`)).bytes)
    expect(current).toContain(`${companyName} Holdings`)
    await owner.context().close()

    const visitor = await openPage(browser(), 'phone')
    await visitor.goto(onSite(receipt.statusUrl, site().baseUrl))
    await visitor.getByText(`Tax invoice ${firstNumber}: replaced by ${replacedBy} on 1 March 2025.`).waitFor()
    const fromStatus = await download(visitor, `Download tax invoice ${firstNumber} (PDF)`)
    expect(Buffer.compare(fromStatus.bytes, first.bytes)).toBe(0)
    await visitor.context().close()
  })
})
