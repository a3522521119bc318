// The registrant's own changes from their private link, in Chromium at 375 px against the real site on SQLite and its
// SMTP sink: a colleague sent in a delegate's place (with JavaScript), a wrong e-mail refused beside its field with
// nothing changed, and a request to cancel (without JavaScript) showing the terms' fee first, which reaches the
// registrant and the office by e-mail and waits for a manager.
import { describe, expect, it } from 'vitest'
import { useBackOfficeSite } from '../support/admin.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { onSite, registrationBody, type RegistrationReceipt } from '../support/registrations.ts'

const browser = useBrowser()

describe('changes from the registrant’s private link', () => {
  // Two working days more than the half-fee line before Legal Opinion Writing (3 July 2025): the terms keep half.
  const backOffice = useBackOfficeSite([], { FORM_RATE_LIMIT: '0', SITE_DATE: '2025-06-19T09:00:00+02:00', ORGANISER_EMAIL: 'office@events.example.com' })

  async function register(): Promise<{ statusUrl: string; email: string; unique: string }> {
    const unique = Math.random().toString(36).slice(2, 8)
    const body = registrationBody({
      delegates: [
        { name: `Thandi Mokoena ${unique}`, position: 'Attorney', email: `thandi-${unique}@acme.test` },
        { name: `Pieter Botha ${unique}`, position: 'Paralegal', email: `pieter-${unique}@acme.test` },
      ],
    })
    const response = await fetch(backOffice.url('/api/registrations'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(response.status).toBe(201)
    const receipt = (await response.json()) as RegistrationReceipt
    return { statusUrl: onSite(receipt.statusUrl, backOffice.site().baseUrl), email: body.email, unique }
  }

  it('sends a colleague in a delegate’s place on a phone, refusing a wrong e-mail first', async () => {
    const { statusUrl, email, unique } = await register()
    const page = await openPage(browser(), 'phone')
    await page.setViewportSize({ width: 375, height: 812 })
    await page.goto(statusUrl)
    await waitForHydration(page)
    await page.getByRole('heading', { name: 'Change your registration' }).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)

    await page.getByLabel('Delegate replaced').selectOption({ label: `Pieter Botha ${unique}, Paralegal` })
    await page.getByLabel('Name of the person attending instead').fill(`Naledi Khumalo ${unique}`)
    await page.getByLabel('Their position').fill('Candidate attorney')
    await page.getByLabel('Their e-mail').fill('naledi at acme')
    await page.getByRole('button', { name: 'Send this person instead' }).click()
    await page.locator('#substitute-email-error').waitFor()
    expect(await page.getByText(`Pieter Botha ${unique}, Paralegal (pieter-${unique}@acme.test)`).count()).toBe(1)

    await page.getByLabel('Their e-mail').fill(`naledi-${unique}@acme.test`)
    await page.getByRole('button', { name: 'Send this person instead' }).click()
    await page.getByText('Done: the new delegate receives their pass by e-mail').waitFor()
    await page.getByText(`Naledi Khumalo ${unique}, Candidate attorney (naledi-${unique}@acme.test)`).waitFor()
    expect(await page.getByText(`Pieter Botha ${unique}, Paralegal`).count()).toBe(0)
    expect(await accessibilityViolations(page)).toEqual([])

    const confirmation = await backOffice
      .sink()
      .waitFor((mail) => mail.recipients.includes(email) && mail.parsed.subject === 'Delegate changed: Legal Opinion Writing 2025')
    expect(confirmation.parsed.text).toContain(`Naledi Khumalo ${unique} (Candidate attorney, naledi-${unique}@acme.test) now attends`)
    await backOffice.sink().waitFor((mail) => mail.recipients.includes(`naledi-${unique}@acme.test`))
    await page.context().close()
  })

  it('asks to cancel without JavaScript, showing the fee first; the office is told and the request waits for a manager', async () => {
    const { statusUrl, email } = await register()
    const page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await page.setViewportSize({ width: 375, height: 812 })
    await page.goto(statusUrl)
    // Two delegates at R 8 990 + VAT: R 20 677.00, half kept.
    await page.getByText('the terms keep a cancellation fee of 50% (R 10 338.50 incl. VAT) and credit R 10 338.50').waitFor()
    await page.getByRole('button', { name: 'Ask to cancel this registration' }).click()
    await page.getByText('Your request to cancel is with us').waitFor()
    await page.getByText(/^You asked to cancel on /).waitFor()
    expect(await page.getByRole('button', { name: 'Ask to cancel this registration' }).count()).toBe(0)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)

    const toRegistrant = await backOffice
      .sink()
      .waitFor((mail) => mail.recipients.includes(email) && /^Cancellation requested:/.test(mail.parsed.subject ?? ''))
    expect(toRegistrant.parsed.text).toContain('the terms keep a fee of 50% (R 10 338.50 incl. VAT)')
    const reference = /registrations\/([^/]+)\//.exec(statusUrl)![1]!
    await backOffice
      .sink()
      .waitFor(
        (mail) => mail.recipients.includes('office@events.example.com') && mail.parsed.subject === `Cancellation requested by the registrant: ${reference}`,
      )
    // Still registered until a manager approves: the page says so, and the delegates keep their places.
    await page.goto(statusUrl)
    await page.getByText(/^You asked to cancel on /).waitFor()
    expect(await page.getByText('This registration is cancelled').count()).toBe(0)
    await page.context().close()
  })
})
