// Cancellations in Chromium against the real site on 20 June 2025, when Legal Opinion Writing (3 July 2025) is 9
// working days away and the terms' fee is 50%: an owner cancels a bank-transfer registration, downloads its credit
// note, and the registrant's credit note e-mail reaches a real SMTP server; another waives the fee with a reason
// without JavaScript; a card registration paid in the sandbox is cancelled in part and refunded to the card; with the
// local Yoco stand-in, a refund Yoco refuses is shown and then paid out by bank transfer. The screen is checked with axe
// at phone width.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { extractText, getDocumentProxy } from 'unpdf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startYocoStandIn, type YocoStandIn } from '../fixtures/yoco-server.ts'
import { createStaffAccount, enterTotpCode, signInAt, type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { downloadedBytes, openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'

const OWNER: StaffAccount = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner', password: 'a long enough olu passphrase' }

const browser = useBrowser()
const { site, sink, url } = useBackOfficeSite([OWNER], { SITE_DATE: '2025-06-20T10:00:00+02:00' })

async function pdfText(pdf: Uint8Array): Promise<string> {
  const document = await getDocumentProxy(new Uint8Array(pdf))
  const { text } = await extractText(document, { mergePages: true })
  return text
}

async function register(overrides: Record<string, unknown> = {}): Promise<RegistrationReceipt> {
  const response = await fetch(url('/api/registrations'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(registrationBody(overrides)),
  })
  expect(response.status).toBe(201)
  return (await response.json()) as RegistrationReceipt
}

/** Opens the cancel screen from the registration's page, signing in on the way. */
async function openCancelScreen(page: Page, reference: string, baseUrl = site().baseUrl): Promise<void> {
  await signInAt(page, baseUrl, `/admin/registrations/${reference}`, OWNER)
  await page.getByRole('link', { name: /^Cancel the registration or some of its delegates/ }).click()
  await page.waitForURL((address) => address.pathname === `/admin/registrations/${reference}/cancel`)
  await waitForHydration(page)
}

/** The rows of a registration page's statement, its closing balance last. */
async function statementRows(page: Page, reference: string): Promise<string[][]> {
  const table = page.getByRole('table', { name: new RegExp(`^Statement of registration ${reference}`) })
  return table
    .locator('tbody tr, tfoot tr')
    .evaluateAll((rows) => rows.map((row) => Array.from(row.children, (cell) => (cell as HTMLElement).innerText.trim())))
}

describe('cancelling registrations in the back office', () => {
  it('an owner cancels a registration with the 50% fee and downloads the credit note, which is also e-mailed', async () => {
    const registration = await register()
    const page = await openPage(browser(), 'phone')
    await openCancelScreen(page, registration.reference)
    await page.getByRole('heading', { name: 'The fee the terms propose: 50%' }).waitFor()
    await page.getByText(/is 9 working days \(13 calendar days\) before the event/).waitFor()
    expect(await accessibilityViolations(page)).toEqual([])

    // Another fee without a reason is refused and changes nothing.
    await page.getByLabel('Fee, % of the cancelled amount excl. VAT').fill('0')
    await page.getByRole('button', { name: 'Confirm cancellation' }).click()
    await page.getByRole('alert').getByText('The fee differs from what the terms propose: say why').waitFor()
    expect(await page.getByRole('heading', { name: 'Cancellations' }).count()).toBe(0)

    await page.getByLabel('Fee, % of the cancelled amount excl. VAT').fill('50')
    await page.getByRole('button', { name: 'Confirm cancellation' }).click()
    await page.getByRole('status').getByText('Cancelled with a 50% fee. Credit note CN-000001 for R 10 338.50 is on its way to the registrant.').waitFor()
    // The page may still be arriving when the notice shows: wait for each part of the outcome.
    const outcome = page.locator('article')
    await outcome.getByText('R 8 990.00 excl. VAT + R 1 348.50 VAT = R 10 338.50').waitFor()
    await outcome.getByText('None: nothing was paid beyond what is still owed.').waitFor()
    expect(await accessibilityViolations(page)).toEqual([])

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download credit note CN-000001 (PDF)' }).click()])
    expect(download.suggestedFilename()).toBe('credit-note-CN-000001.pdf')
    const text = await pdfText(await downloadedBytes(download))
    for (const expected of ['Credit Note', 'CN-000001', 'INV-', registration.reference, 'R 8 990.00', 'R 1 348.50', 'R 10 338.50', 'cancellation fee 50%']) {
      expect(text).toContain(expected)
    }

    const mail = await sink().waitFor(
      (received) => received.parsed.subject === `Cancellation and credit note CN-000001: registration ${registration.reference}`,
    )
    const attachment = mail.parsed.attachments.find((file) => file.filename === 'credit-note-CN-000001.pdf')
    expect(attachment?.contentType).toBe('application/pdf')
    expect(await pdfText(new Uint8Array(attachment!.content))).toContain('R 10 338.50')

    // The registrant's status page links the credit note beside the invoice.
    const statusPage = await page.context().newPage()
    await statusPage.goto(registration.statusUrl)
    await statusPage.getByText('This registration is cancelled.').waitFor()
    // The fee of the unpaid registration is still owed.
    await statusPage.getByText(/R 10 338\.50 is still to be paid/).waitFor()
    const link = statusPage.getByRole('link', { name: 'Download credit note CN-000001 (PDF)' })
    const pdf = await fetch(new URL((await link.getAttribute('href'))!, site().baseUrl))
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')

    // The audit log names the cancellation.
    await page.goto(url('/admin/audit'))
    expect(await page.locator('main').innerText()).toContain('Registration cancelled')

    // Cancelled for good: the screen offers no second cancellation.
    await openCancelScreen(page, registration.reference)
    await page.getByText('Every delegate of this registration is cancelled.').waitFor()

    // The registration's page says so: its status, each delegate marked and not to be changed, no confirmation to resend.
    await page.goto(url(`/admin/registrations/${registration.reference}`))
    const facts = await page.locator('dl.admin-facts').first().innerText()
    expect(facts).toMatch(/Status\s+Cancelled\n/)
    expect(facts).not.toMatch(/Paid|Awaiting payment/)
    const delegates = page.getByRole('region', { name: 'Delegates' })
    expect(await delegates.getByRole('cell', { name: 'Cancelled' }).count()).toBe(2)
    expect(await delegates.getByRole('link', { name: /^Change/ }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Resend confirmation' }).count()).toBe(0)
    // One statement: the invoice and the credit note add up to the fee still owed.
    expect(await statementRows(page, registration.reference)).toEqual([
      ['20 Jun 2025', expect.stringMatching(/^Tax invoice INV-\d{6}$/), 'R 20 677.00'],
      ['20 Jun 2025', 'Credit note CN-000001', '-R 10 338.50'],
      ['Outstanding', 'R 10 338.50'],
    ])
    // Its audit trail in words and rands: no internal keys, no JSON, no cents.
    const trail = await page.getByRole('table', { name: `What staff did about registration ${registration.reference}, newest first` }).innerText()
    expect(trail).toContain('Registration cancelled')
    expect(trail).toContain('owed: R 10 338.50')
    expect(trail).toContain('credit note: CN-000001')
    expect(trail).not.toMatch(/[{}"]|Cents|registration-cancelled/)
    // Its e-mails by kind in words: the credit note's is not listed by its key.
    const emails = page.getByRole('table', { name: `E-mails about registration ${registration.reference}, oldest first, with where each is in the outbox` })
    await emails.getByRole('rowheader', { name: /^Cancellation and credit note Cancellation and credit note CN-000001:/ }).waitFor()
    expect(await emails.innerText()).not.toContain('cancellation.credit-note')

    // The list's status filter offers Cancelled and Part-cancelled, and finds it under Cancelled.
    await page.goto(url('/admin/registrations'))
    const statusChoices = await page.getByLabel('Status').locator('option').allInnerTexts()
    expect(statusChoices).toEqual(expect.arrayContaining(['Cancelled', 'Part-cancelled']))
    await page.getByLabel('Status').selectOption({ label: 'Cancelled' })
    await page.getByRole('button', { name: 'Show registrations' }).click()
    await page.waitForURL((address) => address.searchParams.get('status') === 'cancelled')
    await page.getByRole('link', { name: registration.reference, exact: true }).waitFor()
  })

  it('waives the fee with a reason without JavaScript, recorded in the audit log', async () => {
    const registration = await register()
    const page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await page.goto(url(`/admin/registrations/${registration.reference}/cancel`))
    await page.getByLabel('E-mail address').fill(OWNER.email)
    await page.getByLabel('Password').fill(OWNER.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await enterTotpCode(page, OWNER.email)
    await page.waitForURL((address) => address.pathname === `/admin/registrations/${registration.reference}/cancel`)
    await page.getByLabel('Fee, % of the cancelled amount excl. VAT').fill('0')
    await page.getByLabel('Reason for another fee').fill('Agreed in writing: the delegates are ill')
    await page.getByRole('button', { name: 'Confirm cancellation' }).click()
    await page
      .getByRole('status')
      .getByText(/^Cancelled with a 0% fee\. Credit note CN-\d{6} for R 20 677\.00/)
      .waitFor()
    await page.locator('article').getByText('(the terms proposed 50%; reason: Agreed in writing: the delegates are ill)').waitFor()
    await page.goto(url('/admin/audit'))
    expect(await page.locator('main').innerText()).toContain('Cancellation fee overridden')
  })

  it('refunds a card payment less the fee when one delegate of a paid registration is cancelled', async () => {
    const registration = await register({ paymentMethod: 'Credit/Debit Card' })
    const page = await openPage(browser(), 'desktop')
    await page.goto(registration.paymentUrl!)
    await page.getByRole('button', { name: /^Pay/ }).click()
    await page.waitForURL((address) => address.pathname.startsWith('/payments/sandbox/'))
    await page.getByRole('button', { name: /^Pay/ }).click()
    await page.getByText('Payment received').first().waitFor()

    await openCancelScreen(page, registration.reference)
    await page.getByLabel(/^Only the delegates ticked below/).check()
    await page.getByLabel('Pieter Botha, Paralegal').check()
    await page.getByRole('button', { name: 'Confirm cancellation' }).click()
    // One delegate (R 8 990.00) at 50%: R 4 495.00 + VAT credited, and what was paid beyond what is owed refunded.
    await page.getByRole('status').getByText('Card refund of R 5 169.25: made.').waitFor()
    await page
      .locator('article')
      .getByText(/^R 5 169\.25, refunded to the card: Refunded in the sandbox/)
      .waitFor()
    expect(await page.getByLabel(/^The whole registration \(1 delegate\)/).count()).toBe(1)
    // The registration's statement: paid by card, credited for one delegate, that credit refunded to the card. (The
    // card payment is dated by the wall clock, the credit note by the site's business day: their order varies here.)
    await page.goto(url(`/admin/registrations/${registration.reference}`))
    const statement = await statementRows(page, registration.reference)
    expect(statement.pop()).toEqual(['Outstanding', 'R 0.00'])
    expect(statement.map((row) => row.slice(-2))).toHaveLength(4)
    expect(statement.map((row) => row.slice(-2))).toEqual(
      expect.arrayContaining([
        [expect.stringMatching(/^Tax invoice INV-\d{6}$/), 'R 20 677.00'],
        ['Card payment received', '-R 20 677.00'],
        [expect.stringMatching(/^Credit note CN-\d{6}$/), '-R 5 169.25'],
        ['Refunded to the card', 'R 5 169.25'],
      ]),
    )
    // The receipt sent again states where the registration stands since, with the credit note beside the tax invoice.
    await page.getByRole('button', { name: 'Resend receipt' }).click()
    await page.getByRole('status').getByText('The payment receipt is queued to be sent again; its status is under E-mails.').waitFor()
    const resent = await sink().waitFor(
      (received) => received.parsed.subject === `Payment received: registration ${registration.reference}` && /stands on/.test(received.parsed.text ?? ''),
    )
    expect(resent.parsed.text).toMatch(/Credit note CN-\d{6}: R 5 169\.25 credited: delegate Pieter Botha cancelled on 20 June 2025/)
    expect(resent.parsed.text).toContain('Received: R 20 677.00. Nothing is outstanding. Refunded to you: R 5 169.25.')
    expect(resent.parsed.attachments.map((file) => file.filename).sort()).toEqual([
      expect.stringMatching(/^credit-note-CN-\d{6}\.pdf$/),
      expect.stringMatching(/^tax-invoice-INV-\d{6}\.pdf$/),
    ])

    await page.goto(url('/admin/audit'))
    const log = await page.locator('main').innerText()
    expect(log).toContain('Card refund requested')
    // The cancel screen's rows are written by the command with the member's address, like every other change.
    expect(log).toMatch(/Registration cancelled\tregistration [A-Z0-9]+\t[^\n]*\t127\.0\.0\.1/)
  })
})

describe('a card refund Yoco refuses', () => {
  let yoco: YocoStandIn
  let yocoSite: RunningSite
  let yocoDataDir: string

  beforeAll(async () => {
    yoco = await startYocoStandIn()
    yocoDataDir = mkdtempSync(path.join(tmpdir(), 'events-admin-cancellation-yoco-'))
    await createStaffAccount(yocoDataDir, OWNER)
    yocoSite = await startSite({
      env: {
        DATA_DIR: yocoDataDir,
        SITE_DATE: '2025-06-20T10:00:00+02:00',
        YOCO_SECRET_KEY: yoco.secretKey,
        YOCO_WEBHOOK_SECRET: yoco.webhookSecret,
        YOCO_API_BASE: yoco.apiBase,
      },
    })
    yoco.setWebhookUrl(`${yocoSite.baseUrl}/api/payments/yoco/webhook`)
  })
  afterAll(async () => {
    await yocoSite?.stop()
    await yoco?.close()
    rmSync(yocoDataDir, { recursive: true, force: true })
  })

  it('shows Yoco’s reason, and staff record the refund paid out by bank transfer instead', async () => {
    const response = await fetch(`${yocoSite.baseUrl}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationBody({ paymentMethod: 'Credit/Debit Card' })),
    })
    const registration = (await response.json()) as RegistrationReceipt
    const page = await openPage(browser(), 'phone')
    await page.goto(registration.paymentUrl!)
    await page.getByRole('button', { name: /^Pay/ }).click()
    await page.waitForURL((address) => address.origin === yoco.apiBase)
    await page.getByRole('button', { name: /^Pay R/ }).click()
    await page.getByText('Payment received').first().waitFor()

    yoco.refuseRefunds('Insufficient balance to process the refund.')
    await openCancelScreen(page, registration.reference, yocoSite.baseUrl)
    await page.getByRole('button', { name: 'Confirm cancellation' }).click()
    await page.getByRole('status').getByText('Card refund of R 10 338.50: refused.').waitFor()
    await page
      .locator('article')
      .getByText('R 10 338.50, refused by the card provider: The payment provider refused the refund (400): Insufficient balance to process the refund.')
      .waitFor()
    expect(yoco.refundRequests).toHaveLength(1)
    expect(yoco.refundRequests[0]).toMatchObject({ status: 400, body: { amount: 1_033_850 } })
    expect(yoco.refundRequests[0]?.idempotencyKey).toMatch(/^refund-.+-attempt-1$/)
    await page.getByRole('button', { name: 'Try the card refund again' }).waitFor()
    expect(await accessibilityViolations(page)).toEqual([])

    await page.getByLabel('Date paid out').fill('2025-06-20')
    await page.getByLabel('Bank reference of the payout').fill('eft 4471')
    await page.getByRole('button', { name: 'Record refund paid out' }).click()
    await page.getByRole('status').getByText('Refund of R 10 338.50 recorded as paid out on Fri, 20 June 2025.').waitFor()
    await page
      .locator('article')
      .getByText(/^R 10 338\.50, paid out by bank transfer on Fri, 20 June 2025 \(bank reference EFT 4471\)/)
      .waitFor()
    expect(await page.getByRole('button', { name: 'Try the card refund again' }).count()).toBe(0)
  })
})
