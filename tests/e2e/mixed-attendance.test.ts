// One booking sending some delegates to the venue and one online, in Chromium at 375 px against the real site on
// SQLite and its SMTP sink: each delegate's "Attends" choice prices them at their own option and the total follows
// live (and, without JavaScript, after "Update total"); the tax invoice has a line per kind with VAT once on the
// total; the online delegate's e-mail gives the joining wording and no door pass.
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { pdftotext } from '../../packages/core/src/test-support.ts'
import { useBackOfficeSite } from '../support/admin.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'

const browser = useBrowser()
let page: Page

afterEach(async () => {
  await page?.context().close()
})

const form = () => page.locator('form.registration-form')
const delegateRows = () => form().locator('fieldset.form__delegate')
const summaryText = async () => (await page.locator('.order-summary').innerText()).replace(/\s+/g, ' ')

async function fillCompany(unique: string): Promise<void> {
  await form().getByLabel('Company name').first().fill(`Mixed Holdings ${unique}`)
  await form().getByLabel('Address').first().fill('3 Bree Street, Cape Town')
  await form().getByLabel('E-mail', { exact: true }).first().fill(`accounts-${unique}@mixed.test`)
  await form().getByLabel('Telephone').fill('+27 11 555 0100')
}

async function fillDelegates(unique: string, names: string[]): Promise<void> {
  for (const [index, name] of names.entries()) {
    await delegateRows().nth(index).getByLabel('Name').fill(`${name} ${unique}`)
    await delegateRows().nth(index).getByLabel('Position').fill('Economist')
    await delegateRows().nth(index).getByLabel('E-mail').fill(`${name.toLowerCase()}-${unique}@mixed.test`)
  }
}

describe('venue and online delegates in one booking', () => {
  const backOffice = useBackOfficeSite([], { FORM_RATE_LIMIT: '0' })

  it('books 2 at the venue and 1 online on a phone: the live total, the invoice lines, the online delegate’s mail', async () => {
    const unique = Math.random().toString(36).slice(2, 8)
    page = await openPage(browser(), 'phone', { viewport: { width: 375, height: 800 } })
    await page.goto(`${backOffice.site().baseUrl}/conference/Resilience?tab=register`)
    await waitForHydration(page)
    await form().locator('#register-option-venue').check()
    await form().getByRole('button', { name: 'Add delegate' }).click()
    await form().getByRole('button', { name: 'Add delegate' }).click()
    await expect.poll(() => delegateRows().count()).toBe(3)
    await fillCompany(unique)
    await fillDelegates(unique, ['Zanele', 'Kabelo', 'Lerato'])
    await delegateRows().nth(2).getByLabel('Attends').selectOption('online')
    // 2 × R 8 490 + R 5 490 = R 22 470.00; VAT R 3 370.50; R 25 840.50.
    await expect.poll(summaryText).toMatch(/At the venue 2 × R 8 490\.00 Online 1 × R 5 490\.00 .*R 22 470\.00 .*R 3 370\.50 .*R 25 840\.50/)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)

    await form().getByRole('radio', { name: 'Bank Transfer' }).check()
    await form()
      .getByRole('checkbox', { name: /terms and conditions/ })
      .check()
    await form().getByRole('button', { name: 'Submit Form' }).click()
    await page.waitForURL(/\/registrations\/[A-Z0-9]+\//)
    await page.getByRole('heading', { name: 'Joining online' }).waitFor()
    await page.getByRole('link', { name: `Lerato ${unique}’s personal link to join online` }).waitFor()
    expect(await page.getByText(`Open Lerato ${unique}’s pass`).count()).toBe(0)
    await page.getByText(`Open Zanele ${unique}’s pass`).waitFor()

    const invoice = await fetch(
      `${page
        .url()
        .replace(/[?#].*$/, '')
        .replace(/\/$/, '')}/invoice.pdf`,
    )
    expect(invoice.status).toBe(200)
    const text = pdftotext(new Uint8Array(await invoice.arrayBuffer()))
    // pdftotext puts the wrapped end of each description ("Venue", "Online") after the line's amounts.
    expect(text).toMatch(/Conference 2025: 2 R 8 490\.00 R 16 980\.00 Venue .* 2 delegates: Zanele \w+, Kabelo \w+ /)
    expect(text).toMatch(/Conference 2025: 1 R 5 490\.00 R 5 490\.00 Online .* Online Delegate: Lerato \w+ /)
    expect(text).toContain('R 3 370.50')
    expect(text).toContain('R 25 840.50')

    const online = await backOffice.sink().waitFor((mail) => mail.recipients.includes(`lerato-${unique}@mixed.test`))
    expect(online.parsed.text).toContain('Online: we e-mail each delegate their own joining link')
    expect(online.parsed.text).not.toContain('Indaba')
    expect(online.parsed.text).not.toMatch(/pass/i)
    expect(online.parsed.attachments.map((attachment) => attachment.contentType)).not.toContain('image/png')
    const venue = await backOffice.sink().waitFor((mail) => mail.recipients.includes(`zanele-${unique}@mixed.test`))
    expect(venue.parsed.attachments.map((attachment) => attachment.contentType)).toContain('image/png')
  })

  it('prices the mix without JavaScript once the visitor updates the total', async () => {
    page = await openPage(browser(), 'phone', { viewport: { width: 375, height: 800 }, javaScriptEnabled: false })
    await page.goto(`${backOffice.site().baseUrl}/conference/Resilience?tab=register`)
    await form().locator('#register-option-venue').check()
    await form().getByRole('button', { name: 'Add delegate' }).click()
    await form().getByRole('button', { name: 'Add delegate' }).click()
    await expect.poll(() => delegateRows().count()).toBe(3)
    await delegateRows().nth(2).getByLabel('Attends').selectOption('online')
    await form().getByRole('button', { name: 'Update total' }).click()
    await expect.poll(summaryText).toMatch(/At the venue 2 × R 8 490\.00 Online 1 × R 5 490\.00 .*R 25 840\.50/)
    expect(await delegateRows().nth(2).getByLabel('Attends').inputValue()).toBe('online')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  })
})
