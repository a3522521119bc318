// A bank transfer from the public form to the receipt, in Chromium against the real site: a visitor registers by
// bank transfer through the Register tab; an owner made with `pnpm admin` records a part payment and then the rest,
// whose receipt with the tax invoice reaches a real SMTP server; the delegate list holds the delegate; a replaced
// delegate gets their confirmation; a staff account may not read the audit log. axe checks each form at phone width,
// a refused one included; one payment is recorded with JavaScript off.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { signInAt, type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { downloadedBytes, openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'

const OWNER: StaffAccount = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner', password: 'a long enough olu passphrase' }
const STAFF: StaffAccount = { email: 'lerato@example.com', name: 'Lerato Staff', role: 'staff', password: 'a long enough staff password' }

const browser = useBrowser()
const { site, sink, url } = useBackOfficeSite([OWNER, STAFF], { FORM_RATE_LIMIT: '0' })

/** axe finds nothing, and nothing is wider than the screen (the pages are checked at phone width). */
async function expectAccessible(page: Page): Promise<void> {
  const pathname = new URL(page.url()).pathname
  expect(await accessibilityViolations(page), `axe on ${pathname}`).toEqual([])
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `overflow on ${pathname}`).toBeLessThanOrEqual(0)
}

/** The facts list of the payment page as label → value. */
async function paymentFacts(page: Page): Promise<Record<string, string>> {
  const terms = await page.locator('dl.admin-facts dt').allInnerTexts()
  const values = await page.locator('dl.admin-facts dd').allInnerTexts()
  return Object.fromEntries(terms.map((term, index) => [term, values[index] ?? '']))
}

async function recordTransfer(page: Page, transfer: { amount: string; bankReference: string }): Promise<void> {
  await page.getByLabel('Amount received (rand)').fill(transfer.amount)
  await page.getByLabel('Bank reference').fill(transfer.bankReference)
  await page.getByRole('button', { name: 'Record the transfer' }).click()
}

describe('recording a bank transfer in the back office', () => {
  it('takes a registration from the public form to paid, with the receipt, the delegate list and a delegate change', async () => {
    const unique = Date.now().toString(36)
    const registrant = { company: `Mokoena Attorneys ${unique}`, email: `accounts-${unique}@mokoena.test` }
    const delegates = [
      { name: 'Thandi Mokoena', email: `thandi-${unique}@mokoena.test` },
      { name: 'Pieter Botha', email: `pieter-${unique}@mokoena.test` },
    ]

    const visitor = await openPage(browser(), 'phone')
    await visitor.goto(url('/workshop/legalOpinion?tab=register'))
    await waitForHydration(visitor)
    const form = visitor.locator('form.registration-form')
    await form.getByRole('radio', { name: /^Venue/ }).check()
    await form.getByLabel('Company name').fill(registrant.company)
    await form.getByLabel('Address').fill('1 Main Road, Sandton')
    await form.getByLabel('E-mail', { exact: true }).first().fill(registrant.email)
    await form.getByLabel('Telephone').fill('+27 11 555 0100')
    await form.getByLabel('VAT number').fill('4123456789')
    await form.getByRole('button', { name: 'Add delegate' }).click()
    for (const [row, delegate] of delegates.entries()) {
      const fieldset = form.locator('fieldset.form__delegate').nth(row)
      await fieldset.getByLabel('Name').fill(delegate.name)
      await fieldset.getByLabel('Position').fill('Attorney')
      await fieldset.getByLabel('E-mail').fill(delegate.email)
    }
    // Legal Opinion Writing is accredited for CPD: the second delegate gives their professional registration number.
    await form.locator('fieldset.form__delegate').nth(1).getByLabel('Professional registration number (optional)').fill('LPC 4567')
    await form.getByRole('radio', { name: 'Bank Transfer' }).check()
    await form.getByRole('checkbox', { name: /terms and conditions/ }).check()
    await form.getByRole('button', { name: 'Submit Form' }).click()
    await visitor.waitForURL(/\/registrations\/[A-Z0-9]+\/[\w-]+$/)
    const reference = /\/registrations\/([A-Z0-9]+)\//.exec(visitor.url())![1]!
    await visitor.context().close()

    const owner = await openPage(browser(), 'phone')
    await signInAt(owner, site().baseUrl, '/admin', OWNER)
    const paymentPath = `/admin/registrations/${reference}/payments/new`
    // Found as staff would find it: searched for in the registrations list, opened, then "Record a bank transfer".
    await owner.goto(url('/admin/registrations'))
    await owner.getByLabel('Search').fill(reference)
    await owner.getByRole('button', { name: 'Show registrations' }).click()
    await owner.getByRole('link', { name: reference, exact: true }).click()
    await owner.getByRole('heading', { level: 1, name: `Registration ${reference}` }).waitFor()
    await owner.getByRole('link', { name: 'Record a bank transfer' }).click()
    await owner.waitForURL((address) => address.pathname === paymentPath)
    await waitForHydration(owner)
    expect(await paymentFacts(owner)).toMatchObject({
      Reference: reference,
      Company: registrant.company,
      'Total incl. VAT': 'R 20 677.00',
      'Paid so far': 'R 0.00',
      Outstanding: 'R 20 677.00',
    })
    expect(await owner.getByLabel('Date received').inputValue()).toBe('2025-03-01')
    await expectAccessible(owner)

    await recordTransfer(owner, { amount: 'R 0.00', bankReference: 'FNB 77001' })
    const refusal = owner.locator('#field-amount-error')
    await refusal.waitFor()
    expect(await refusal.innerText()).toBe('Enter the amount in rand as on the bank statement, e.g. 8 990.00.')
    expect(await owner.getByLabel('Amount received (rand)').getAttribute('aria-invalid')).toBe('true')
    expect(await owner.getByLabel('Bank reference').inputValue()).toBe('FNB 77001')
    await expectAccessible(owner)

    await recordTransfer(owner, { amount: '8 990.00', bankReference: 'FNB 77001' })
    await owner.waitForURL((address) => address.pathname === `/admin/registrations/${reference}` && address.searchParams.get('recorded') === 'payment')
    await owner.getByRole('status').filter({ hasText: 'The bank transfer is recorded.' }).waitFor()
    await owner.goto(url(paymentPath))
    await waitForHydration(owner)
    expect(await paymentFacts(owner)).toMatchObject({ 'Paid so far': 'R 8 990.00', Outstanding: 'R 11 687.00' })

    await recordTransfer(owner, { amount: 'R 11,687.00', bankReference: 'FNB 77002' })
    await owner.waitForURL((address) => address.pathname === `/admin/registrations/${reference}`)
    const receipt = await sink().waitFor(
      (mail) => mail.recipients.includes(registrant.email) && mail.parsed.subject === `Payment received: registration ${reference}`,
      15_000,
    )
    expect(receipt.parsed.attachments.map((attachment) => [attachment.contentType, attachment.filename])).toEqual([
      ['application/pdf', expect.stringMatching(/^tax-invoice-INV-\d+\.pdf$/)],
    ])
    expect(receipt.parsed.attachments[0]!.content.subarray(0, 5).toString()).toBe('%PDF-')

    await owner.goto(url('/admin'))
    await owner.getByRole('link', { name: 'Delegate lists' }).click()
    await owner.getByRole('heading', { level: 1, name: 'Events and delegate lists' }).waitFor()
    await waitForHydration(owner)
    await expectAccessible(owner)
    const [download] = await Promise.all([
      owner.waitForEvent('download'),
      owner.getByRole('link', { name: 'Delegate list of Legal Opinion Writing 2025 as CSV' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('legalOpinion-delegates.csv')
    const csv = (await downloadedBytes(download)).toString('utf8')
    expect(csv).toContain(`${reference},${registrant.company},Pieter Botha,Attorney,LPC 4567,${delegates[1]!.email},Venue,Paid`)
    expect(csv).not.toMatch(/awaiting-payment|part-paid|,paid\r/)

    const successor = { name: 'Naledi Khumalo', email: `naledi-${unique}@mokoena.test` }
    await owner.goto(url(`/admin/registrations/${reference}/delegates/2`))
    await waitForHydration(owner)
    expect(await owner.getByLabel('Name').inputValue()).toBe('Pieter Botha')
    await expectAccessible(owner)
    await owner.getByLabel('Name').fill(successor.name)
    await owner.getByLabel('Position').fill('Candidate Attorney')
    await owner.getByLabel('E-mail').fill(successor.email)
    await owner.getByRole('button', { name: 'Save the delegate' }).click()
    await owner.waitForURL((address) => address.pathname === `/admin/registrations/${reference}` && address.searchParams.get('recorded') === 'delegate')
    const confirmation = await sink().waitFor((mail) => mail.recipients.includes(successor.email), 15_000)
    expect(confirmation.parsed.text).toContain(successor.name)
    expect(confirmation.parsed.subject).toContain('Legal Opinion Writing 2025')
    // The page lists each delegate's notice as it was sent: Pieter's still to Pieter, Naledi's to Naledi.
    const sentTo = async () => {
      await owner.reload()
      const rows = await owner
        .getByRole('table', { name: `E-mails about registration ${reference}, oldest first, with where each is in the outbox` })
        .locator('tbody tr')
        .evaluateAll((cells) => cells.map((row) => Array.from(row.children, (cell) => (cell as HTMLElement).innerText.trim())))
      return rows
        .filter((row) => row[0]?.startsWith('Notice to a delegate') && row[4]?.startsWith('Sent'))
        .map((row) => row[1])
        .sort()
    }
    await expect.poll(sentTo).toEqual([delegates[0]!.email, delegates[1]!.email, successor.email].sort())

    await owner.goto(url(`/admin/registrations/${reference}/company`))
    await waitForHydration(owner)
    expect(await owner.getByLabel('Company name').inputValue()).toBe(registrant.company)
    await expectAccessible(owner)
    await owner.context().close()
  })

  it('keeps the audit log from a staff account', async () => {
    const page = await openPage(browser(), 'phone')
    await signInAt(page, site().baseUrl, '/admin', STAFF)
    const refused = await page.goto(url('/admin/audit'))
    expect(refused?.status()).toBe(403)
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Not allowed')
    await page.context().close()
  })

  it('without JavaScript: a staff member records the whole amount and the registration is paid', async () => {
    const body = registrationBody()
    const registered = await fetch(url('/api/registrations'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const { reference } = (await registered.json()) as RegistrationReceipt
    const page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await signInAt(page, site().baseUrl, '/admin', STAFF)
    await page.goto(url(`/admin/registrations/${reference}/payments/new`))
    await recordTransfer(page, { amount: 'twenty thousand', bankReference: 'ABSA 9001' })
    expect(await page.locator('#field-amount-error').innerText()).toBe('Enter the amount in rand as on the bank statement, e.g. 8 990.00.')
    expect(await page.getByLabel('Bank reference').inputValue()).toBe('ABSA 9001')
    await recordTransfer(page, { amount: '20677', bankReference: 'ABSA 9001' })
    await page.waitForURL((address) => address.pathname === `/admin/registrations/${reference}` && address.searchParams.get('recorded') === 'payment')
    await page.goto(url(`/admin/registrations/${reference}/payments/new`))
    expect(await paymentFacts(page)).toMatchObject({ 'Paid so far': 'R 20 677.00', Outstanding: 'R 0.00' })
    expect(await page.getByRole('status').innerText()).toBe('This registration is paid in full; nothing is outstanding.')
    await sink().waitFor((mail) => mail.recipients.includes(body.email) && mail.parsed.subject === `Payment received: registration ${reference}`, 15_000)
    await page.context().close()
  })
})
