// Invoicing for companies in the browser: a quotation downloaded from the Register tab, then the registration with a
// purchase order number and a VAT number, its tax invoice read back with poppler's pdftotext; and the quotation
// without JavaScript at phone width, where the form's post answers with the PDF as a download (a refused post is
// covered over HTTP in tests/http/quotes.test.ts: the browser's own check of the required option comes first).
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { pdftotext } from '../../packages/core/src/test-support.ts'
import { downloadedBytes, openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts'

const registerPath = '/conference/Resilience?tab=register'
/** Venue for one delegate: R 8 490.00 plus 15% VAT. */
const TOTAL = 'R 9 763.50'

const browser = useBrowser()
let page: Page
let site: RunningSite
let sink: SmtpSink

beforeAll(async () => {
  sink = await startSmtpSink()
  site = await startSite({ env: { SMTP_URL: sink.url, FORM_RATE_LIMIT: '0' } })
})
afterAll(async () => {
  await site?.stop()
  await sink?.stop()
})
afterEach(async () => {
  await page?.context().close()
})

const form = () => page.locator('form.registration-form')
const quoteForm = () => page.locator('section.registration-quote form')

/** Clicks "Download a quote (PDF)" and answers the quotation's text as pdftotext reads it. */
async function downloadQuote(): Promise<{ filename: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), quoteForm().getByRole('button', { name: 'Download a quote (PDF)' }).click()])
  return { filename: download.suggestedFilename(), text: pdftotext(await downloadedBytes(download)) }
}

describe('invoicing for companies', () => {
  it('downloads a quote for what the form holds, then registers with a purchase order number, and the invoice names it', async () => {
    page = await openPage(browser(), 'desktop')
    await page.goto(`${site.baseUrl}${registerPath}`)
    await waitForHydration(page)
    await form()
      .getByRole('radio', { name: /^Venue/ })
      .check()
    await form().getByLabel('Company name').fill('Quote First (Pty) Ltd')
    await form().getByLabel('Address').fill('1 Main Road, Sandton')

    // The quotation form starts from what the registration form holds.
    expect(await quoteForm().getByLabel('Attendance option').inputValue()).toBe('venue')
    expect(await quoteForm().getByLabel('Company name (optional)').inputValue()).toBe('Quote First (Pty) Ltd')
    const quote = await downloadQuote()
    expect(quote.filename).toMatch(/^quote-Q-\d{6}\.pdf$/)
    expect(quote.text).toMatch(/Quotation number: Q-\d{6}/)
    expect(quote.text).toContain('Prepared for Quote First (Pty) Ltd 1 Main Road, Sandton')
    expect(quote.text).toContain(`Total incl. VAT ${TOTAL}`)
    expect(quote.text).toContain('Valid until: 23 July 2025')

    await form().getByLabel('E-mail', { exact: true }).first().fill('accounts@quotefirst.test')
    await form().getByLabel('Telephone').fill('+27 11 555 0100')
    // A VAT number that SARS would not have issued is refused beside its field.
    await form().getByRole('radio', { name: 'Yes' }).check()
    await form().getByLabel('VAT number').fill('5123456789')
    await form().getByLabel('Purchase order number (optional)').fill('PO-2025-0088')
    const delegate = form().locator('fieldset.form__delegate').first()
    await delegate.getByLabel('Name').fill('Thandi Mokoena')
    await delegate.getByLabel('Position').fill('Director')
    await delegate.getByLabel('E-mail').fill('thandi@quotefirst.test')
    await form().getByRole('radio', { name: 'Bank Transfer' }).check()
    await form()
      .getByRole('checkbox', { name: /terms and conditions/ })
      .check()
    await form().getByRole('button', { name: 'Submit Form' }).click()
    await expect.poll(() => form().locator('#register-vatNumber-error').textContent()).toContain('10 digits starting with 4')
    await form().getByLabel('VAT number').fill('4123456789')
    await form().getByRole('button', { name: 'Submit Form' }).click()
    await page.waitForURL(/\/registrations\/[A-Z0-9]+\//)

    const link = page.getByRole('link', { name: /Download tax invoice INV-\d{6}/ })
    const invoice = pdftotext(await (await page.request.get(`${site.baseUrl}${await link.getAttribute('href')}`)).body())
    for (const expected of ['Your reference: PO-2025-0088', 'Quote First (Pty) Ltd', 'VAT number: 4123456789', `Total incl. VAT ${TOTAL}`]) {
      expect(invoice).toContain(expected)
    }
  })

  it('downloads a quote without JavaScript at phone width', async () => {
    page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await page.goto(`${site.baseUrl}${registerPath}`)
    await quoteForm().getByLabel('Attendance option').selectOption('table-5')
    await quoteForm().getByLabel('Number of delegates').fill('5')
    const quote = await downloadQuote()
    expect(quote.text).toContain('Economic Resilience Conference 2025: 1 R 34 950.00 R 34 950.00 Table of 5 delegates')
    expect(quote.text).toContain('Total incl. VAT R 40 192.50')
    expect(quote.text).toContain('Prepared for Your company (not named on this quotation)')
    // The quotation form fits the phone's width.
    const width = await quoteForm().evaluate((element) => element.getBoundingClientRect().right)
    expect(width).toBeLessThanOrEqual(390)
  })
})
