// Sponsorship end to end in Chromium against the real site: an owner records a Platinum deal below the package's
// price and approves it in the back office; the sponsor's contact receives the two codes (and the tax invoice) from a
// real SMTP server; a participant opens the event link with the 50% code on a 375 px phone, sees the discounted total
// before submitting and registers; another takes a complimentary seat at R 0. The invoices are read with pdftotext.
// A Gold deal set to send its codes once paid e-mails them only when a bank statement line naming it is recorded.
import { execFileSync } from 'node:child_process'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signInAt, useBackOfficeData, type StaffAccount } from '../support/admin.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { repoRoot, startSite, testSiteDate, type RunningSite } from '../support/site-server.ts'

const OWNER: StaffAccount = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner', password: 'a long enough olu passphrase' }
const CONTACT = 'lerato@sponsor.example.com'

const browser = useBrowser()
const backOffice = useBackOfficeData([OWNER])
let site: RunningSite
let workDir: string

beforeAll(async () => {
  // The shipped packages have no list price; Platinum gets one, so a deal below it waits for approval.
  workDir = await mkdtemp(path.join(tmpdir(), 'sponsorship-'))
  await cp(path.join(repoRoot, 'packages/content/dataset'), path.join(workDir, 'content'), { recursive: true })
  const datasetPath = path.join(workDir, 'content', 'production.ndjson')
  const documents = (await readFile(datasetPath, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  for (const document of documents) if (document._id === 'sponsor-platinum') document.priceExclVat = 150_000
  await writeFile(datasetPath, documents.map((document) => JSON.stringify(document)).join('\n') + '\n')
  site = await startSite({ env: { ...backOffice.siteEnv(), CONTENT_DATASET_PATH: datasetPath, FORM_RATE_LIMIT: '0' } })
})

afterAll(async () => {
  await site?.stop()
  if (workDir) await rm(workDir, { recursive: true, force: true })
})

const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString()

async function register(page: Page, company: string, delegate: string): Promise<void> {
  const form = page.locator('form.registration-form')
  await form.getByRole('radio', { name: /^Venue/ }).check()
  await form.getByLabel('Company name').fill(company)
  await form.getByLabel('Address').fill('1 Main Road, Sandton')
  await form
    .getByLabel('E-mail', { exact: true })
    .first()
    .fill(`bookings@${company.toLowerCase().replace(/\W+/g, '')}.test`)
  await form.getByLabel('Telephone').fill('+27 11 555 0100')
  await form.getByLabel('No, the company is not a VAT vendor').check()
  const row = form.locator('fieldset.form__delegate').nth(0)
  await row.getByLabel('Name').fill(delegate)
  await row.getByLabel('Position').fill('Analyst')
  await row.getByLabel('E-mail').fill(`${delegate.toLowerCase().replace(/\W+/g, '.')}@example.test`)
  await form.getByLabel('Bank Transfer').check()
  await form.getByLabel(/I have read and accept/).check()
}

describe('a sponsorship deal, its codes and the registrations they make', () => {
  let codes: { complimentary: string; discount: string }

  it('is recorded below the package’s price, approved by a manager, invoiced and its codes e-mailed', async () => {
    const page = await openPage(browser(), 'desktop')
    await signInAt(page, site.baseUrl, '/admin/sponsorship', OWNER)
    const deal = page.locator('form', { has: page.getByRole('button', { name: 'Record the deal' }) })
    await deal.getByLabel('Event').selectOption('Resilience')
    await deal.getByLabel('Sponsor package').selectOption('sponsor-platinum')
    await deal.getByLabel('Sponsor company').fill('Sponsor Holdings (Pty) Ltd')
    await deal.getByLabel('Address').fill('5 Rivonia Road\nSandton')
    await deal.getByLabel('VAT number (VAT vendors only)').fill('4987654321')
    await deal.getByLabel('Purchase order number').fill('PO-77')
    await deal.getByLabel('Contact name').fill('Lerato Dube')
    await deal.getByLabel('Contact e-mail').fill(CONTACT)
    await deal.getByLabel('Contact telephone').fill('+27 11 555 0199')
    await deal.getByLabel('Agreed price excl. VAT (rand)').fill('120 000')
    await deal.getByRole('button', { name: 'Record the deal' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toContain('a manager must approve it')

    await page.getByRole('button', { name: 'Approve the deal at R 120 000.00' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toContain('tax invoice INV-000001 issued')

    const invoiceLink = page.getByRole('link', { name: 'INV-000001 (PDF)' })
    const invoice = await page.request.get(new URL((await invoiceLink.getAttribute('href'))!, site.baseUrl).toString())
    const text = pdfText(await invoice.body())
    for (const shown of [
      'Tax Invoice',
      'INV-000001',
      'Sponsor Holdings (Pty) Ltd',
      '4987654321',
      'PO-77',
      'Platinum sponsorship',
      'R 120 000.00',
      'R 18 000.00',
      'R 138 000.00',
    ]) {
      expect(text).toContain(shown)
    }

    const sink = backOffice.sink()
    await sink.waitFor(() => sink.received.some((mail) => mail.recipients.includes(CONTACT)), 15_000)
    const mail = sink.received.find((received) => received.recipients.includes(CONTACT))!
    expect(mail.parsed.subject).toBe('Your Platinum sponsorship of Economic Resilience Conference 2025: your codes')
    expect(mail.parsed.attachments.map((attachment) => attachment.filename)).toEqual(['tax-invoice-INV-000001.pdf'])
    const found = [...(mail.parsed.text ?? '').matchAll(/code=([A-Z0-9-]+)/g)].map((match) => match[1]!)
    expect(found).toHaveLength(2)
    codes = { complimentary: found[0]!, discount: found[1]! }
    expect(mail.parsed.text).toContain('Complimentary seats (3, one delegate each)')
    expect(mail.parsed.text).toContain('50% off for your participants')
    await page.context().close()
  })

  it('lets a participant register with the 50% code on a 375 px phone, the discounted total shown before submitting', async () => {
    const page = await openPage(browser(), 'phone', { viewport: { width: 375, height: 812 } })
    await page.goto(`${site.baseUrl}/conference/Resilience?tab=register&code=${codes.discount}`)
    await waitForHydration(page)
    await expect.poll(() => page.locator('form.registration-form').textContent()).toContain(`Platinum sponsor discount 50% (code ${codes.discount}) applied.`)
    await register(page, 'Participant Co', 'Thandi Nkosi')
    // R8 490 less 50%: R4 245.00 + VAT R636.75.
    await expect.poll(() => page.locator('.order-summary').textContent()).toContain('R 4 881.75')
    expect(await page.locator('.order-summary').textContent()).toContain('-R 4 245.00')
    // The code's field, its Apply button and the order summary fit the phone's width.
    for (const selector of ['.registration-form__code-row input', '.registration-form__code-row button', '.order-summary']) {
      const box = (await page.locator(selector).boundingBox())!
      expect(box.x + box.width, selector).toBeLessThanOrEqual(375)
    }
    await page.getByRole('button', { name: 'Submit Form' }).click()
    await page.waitForURL(/\/registrations\//)
    await expect.poll(() => page.locator('main').textContent()).toContain(`Platinum sponsor discount 50% (code ${codes.discount})`)
    const invoice = await page.request.get(`${page.url()}/invoice.pdf`)
    const text = pdfText(await invoice.body())
    for (const shown of ['R 8 490.00', 'Platinum sponsor discount 50%', '-R 4 245.00', 'R 636.75', 'R 4 881.75']) expect(text).toContain(shown)
    await page.context().close()
  })

  it('holds a deal’s codes until a bank statement line with its reference pays its invoice, then e-mails them', async () => {
    const gold = 'gold@sponsor.example.com'
    const page = await openPage(browser(), 'desktop')
    await signInAt(page, site.baseUrl, '/admin/sponsorship', OWNER)
    const deal = page.locator('form', { has: page.getByRole('button', { name: 'Record the deal' }) })
    await deal.getByLabel('Event').selectOption('Resilience')
    await deal.getByLabel('Sponsor package').selectOption('sponsor-gold')
    await deal.getByLabel('Sponsor company').fill('Gold Mining Ltd')
    await deal.getByLabel('Address').fill('1 Commissioner Street\nJohannesburg')
    await deal.getByLabel('Contact name').fill('Pieter Goud')
    await deal.getByLabel('Contact e-mail').fill(gold)
    await deal.getByLabel('Contact telephone').fill('+27 11 555 0200')
    await deal.getByLabel('Agreed price excl. VAT (rand)').fill('80 000')
    await deal.getByLabel('Send the codes once the invoice is paid (else on approval)').check()
    await deal.getByRole('button', { name: 'Record the deal' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toContain('the codes follow once it is paid')
    const article = page.getByRole('article', { name: /Gold Mining Ltd/ })
    const reference = (await article.locator('dt:text-is("Reference") + dd').innerText()).trim()
    expect(await article.innerText()).toContain('E-mailed once the invoice is paid in full')

    // The invoice arrives alone, asking for payment with the deal's reference.
    const sink = backOffice.sink()
    await sink.waitFor(() => sink.received.some((mail) => mail.recipients.includes(gold)), 15_000)
    const invoiceMail = sink.received.find((received) => received.recipients.includes(gold))!
    expect(invoiceMail.parsed.subject).toMatch(/^Tax invoice INV-\d{6}: your Gold sponsorship/)
    expect(invoiceMail.parsed.text).toContain(reference)
    expect(invoiceMail.parsed.text).not.toContain('code=')

    // The bank statement names the reference: the line is proposed for the deal and recorded.
    // Paid on the site's business day, the day the invoice was issued.
    const today = testSiteDate.slice(0, 10).replaceAll('-', '/')
    const csv = ['Date,Amount,Balance,Description,Reference', `${today},"92,000.00",0.00,"FNB OB PMT GOLD MINING","SPONSOR ${reference}"`].join('\n')
    await page.goto(`${site.baseUrl}/admin/bank-statements`)
    await page.getByLabel('Statement file (CSV or OFX)').setInputFiles({ name: 'gold.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
    await page.getByLabel('The bank', { exact: true }).selectOption('new')
    await page.getByLabel('Name of the new mapping').fill('FNB')
    await page.getByLabel('Heading of the date column').fill('Date')
    await page.getByLabel('Dates written as').selectOption('yyyy/MM/dd')
    await page.getByLabel('Heading of the description column').fill('Description')
    await page.getByLabel('Heading of the amount column').fill('Amount')
    await page.getByLabel('Heading of the reference column').fill('Reference')
    await page.getByRole('button', { name: 'Check the statement' }).click()
    await page.getByRole('button', { name: 'Import statement' }).click()
    const lines = page.getByRole('region', { name: 'Lines of gold.csv' })
    await lines.getByRole('cell', { name: `Pays ${reference} (Gold Mining Ltd) in full` }).waitFor()
    await page.getByRole('button', { name: 'Record the ticked payments' }).click()
    await lines.getByRole('cell', { name: `Recorded for ${reference} by ${OWNER.name}` }).waitFor()

    // Paid in full: the codes follow, once.
    await sink.waitFor(() => sink.received.filter((mail) => mail.recipients.includes(gold)).length === 2, 15_000)
    const codesMail = sink.received.filter((received) => received.recipients.includes(gold))[1]!
    expect(codesMail.parsed.subject).toBe('Your Gold sponsorship of Economic Resilience Conference 2025: your codes')
    expect([...(codesMail.parsed.text ?? '').matchAll(/code=([A-Z0-9-]+)/g)]).toHaveLength(2)
    await page.goto(`${site.baseUrl}/admin/sponsorship`)
    expect(await page.getByRole('article', { name: /Gold Mining Ltd/ }).innerText()).toContain('E-mailed to the contact')
    await page.context().close()
  })

  it('gives a complimentary seat at R 0, marked on the status page, with no payment asked', async () => {
    const page = await openPage(browser(), 'phone', { viewport: { width: 375, height: 812 } })
    await page.goto(`${site.baseUrl}/conference/Resilience?tab=register`)
    await waitForHydration(page)
    await register(page, 'Sponsor Guests', 'Sipho Guest')
    await page.getByLabel('Have a code? (optional)').fill(codes.complimentary)
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect.poll(() => page.locator('.order-summary').textContent()).toContain('R 0.00')
    await page.getByRole('button', { name: 'Submit Form' }).click()
    await page.waitForURL(/\/registrations\//)
    await expect.poll(() => page.locator('main').textContent()).toContain('A sponsor’s complimentary seat: nothing to pay.')
    const invoice = pdfText(await (await page.request.get(`${page.url()}/invoice.pdf`)).body())
    expect(invoice).toContain('Platinum sponsor complimentary seat')
    expect(invoice).toMatch(/Total incl\. VAT\s+R 0\.00/)
    await page.context().close()
  })
})
