// A quotation becomes a registration, in the browser at phone width: the quote's PDF carries a link that starts the
// Register tab with the quotation's number, company, option and number of delegates; the registration made from it
// records the quotation, and staff see the quote converted. A quotation number of another event, or one never issued,
// is refused beside its field and registers nothing.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { pdftotext } from '../../packages/core/src/test-support.ts'
import { signInAt, type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { downloadedBytes, openPage, useBrowser, waitForHydration } from '../support/browser.ts'

const LERATO: StaffAccount = { email: 'lerato@example.com', name: 'Lerato Finance', role: 'manager', password: 'ledger lines at the indaba 2025' }

const browser = useBrowser()
let page: Page

afterEach(async () => {
  await page?.context().close()
})

const form = () => page.locator('form.registration-form')
const quoteForm = () => page.locator('section.registration-quote form')

/** The registration address the quotation's PDF gives, put together again where pdftotext broke it over lines. */
function registrationLinkOf(quoteText: string): string {
  const link = /register at (\S+(?:\s+\S+)*?)\. Please quote/.exec(quoteText)?.[1]
  if (!link) throw new Error(`The quotation names no address to register at:\n${quoteText}`)
  return link.replace(/\s+/g, '')
}

async function fillTheRest(delegates: Array<{ name: string; email: string }>): Promise<void> {
  await form().getByLabel('E-mail', { exact: true }).first().fill('accounts@fromquote.test')
  await form().getByLabel('Telephone').fill('+27 11 555 0100')
  if ((await form().getByLabel('Address').first().inputValue()) === '') await form().getByLabel('Address').first().fill('3 Bree Street, Cape Town')
  const fieldsets = form().locator('fieldset.form__delegate')
  for (const [index, delegate] of delegates.entries()) {
    await fieldsets.nth(index).getByLabel('Name').fill(delegate.name)
    await fieldsets.nth(index).getByLabel('Position').fill('Economist')
    await fieldsets.nth(index).getByLabel('E-mail').fill(delegate.email)
  }
  await form().getByRole('radio', { name: 'Bank Transfer' }).check()
  await form()
    .getByRole('checkbox', { name: /terms and conditions/ })
    .check()
}

describe('a quotation converted into a registration', () => {
  const { site } = useBackOfficeSite([LERATO], { FORM_RATE_LIMIT: '0' })

  it('starts the Register tab from the quote’s link, records the quotation and shows staff the quote converted', async () => {
    page = await openPage(browser(), 'phone', { viewport: { width: 375, height: 800 } })
    await page.goto(`${site().baseUrl}/conference/Resilience?tab=register`)
    await waitForHydration(page)
    await quoteForm().getByLabel('Attendance option').selectOption('venue')
    await quoteForm().getByLabel('Number of delegates').fill('2')
    await quoteForm().getByLabel('Company name (optional)').fill('From Quote Holdings (Pty) Ltd')
    await quoteForm().getByLabel('Company address (optional)').fill('12 Rivonia Road, Sandton')
    const [download] = await Promise.all([page.waitForEvent('download'), quoteForm().getByRole('button', { name: 'Download a quote (PDF)' }).click()])
    const quote = pdftotext(await downloadedBytes(download))
    const quoteNumber = /Quotation number: (Q-\d{6})/.exec(quote)?.[1]
    expect(quoteNumber).toBeDefined()
    const link = registrationLinkOf(quote)
    expect(new URL(link).searchParams.get('quotation')).toBe(quoteNumber)

    await page.goto(link)
    await waitForHydration(page)
    expect(await form().getByLabel('Quotation number (optional)').inputValue()).toBe(quoteNumber)
    expect(await form().getByLabel('Company name').first().inputValue()).toBe('From Quote Holdings (Pty) Ltd')
    expect(await form().locator('#register-option-venue').isChecked()).toBe(true)
    await expect.poll(() => form().locator('fieldset.form__delegate').count()).toBe(2)
    await fillTheRest([
      { name: 'Zanele Quote', email: 'zanele@fromquote.test' },
      { name: 'Kabelo Quote', email: 'kabelo@fromquote.test' },
    ])
    // The page fits the phone with the form filled in.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await form().getByRole('button', { name: 'Submit Form' }).click()
    await page.waitForURL(/\/registrations\/[A-Z0-9]+\//)
    const reference = /\/registrations\/([A-Z0-9]+)\//.exec(page.url())![1]!

    const staff = await openPage(browser(), 'desktop')
    await signInAt(staff, site().baseUrl, '/admin/quotes', LERATO)
    await staff.goto(`${site().baseUrl}/admin/quotes?number=${quoteNumber}`)
    await staff.getByRole('heading', { name: `Quotation ${quoteNumber}` }).waitFor()
    await staff.getByRole('link', { name: reference }).waitFor()
    await staff.goto(`${site().baseUrl}/admin/registrations/${reference}`)
    await staff.getByRole('link', { name: quoteNumber }).waitFor()
    await staff.context().close()
  })

  it('refuses a quotation number never issued, or issued for another event, beside its field, registering nothing', async () => {
    page = await openPage(browser(), 'phone', { viewport: { width: 375, height: 800 }, javaScriptEnabled: false })
    // A quotation for another event.
    await page.goto(`${site().baseUrl}/workshop/legalOpinion?tab=register`)
    await quoteForm().getByLabel('Attendance option').selectOption({ index: 1 })
    const [download] = await Promise.all([page.waitForEvent('download'), quoteForm().getByRole('button', { name: 'Download a quote (PDF)' }).click()])
    const otherEventQuote = /Quotation number: (Q-\d{6})/.exec(pdftotext(await downloadedBytes(download)))![1]!

    for (const [quotationNumber, message] of [
      [otherEventQuote, 'This quotation is for another event.'],
      ['Q-999999', 'We have no quotation with this number.'],
    ] as const) {
      await page.goto(`${site().baseUrl}/conference/Resilience?tab=register`)
      await form().locator('#register-option-venue').check()
      await form().getByLabel('Company name').first().fill('Wrong Quote (Pty) Ltd')
      await form().getByLabel('Quotation number (optional)').fill(quotationNumber)
      await fillTheRest([{ name: 'Nomsa Wrong', email: 'nomsa@wrongquote.test' }])
      await form().getByRole('button', { name: 'Submit Form' }).click()
      await page.locator('#register-quotationNumber-error').getByText(message, { exact: false }).waitFor()
      expect(page.url()).not.toMatch(/\/registrations\//)
    }
  })
})
