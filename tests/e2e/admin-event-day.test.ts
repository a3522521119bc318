// The back office around an event's days, in Chromium against the real site on SQLite: the attendance register of the
// two-day Economic Resilience Conference (23–24 July 2025) lists the venue's delegates only, with a signature column
// per day and the unpaid marked; a bank transfer dated before its registration or after today is refused beside the
// field and records nothing; and the cancel screen of a registration whose event is over says so in words, the whole
// fee applying. Each screen is checked with axe at phone width.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { extractText, getDocumentProxy } from 'unpdf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStaffAccount, signInAt, type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'

const OWNER: StaffAccount = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner', password: 'a long enough olu passphrase' }

const browser = useBrowser()

async function register(baseUrl: string, overrides: Record<string, unknown>): Promise<RegistrationReceipt> {
  const response = await fetch(`${baseUrl}/api/registrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(registrationBody(overrides)),
  })
  expect(response.status).toBe(201)
  return (await response.json()) as RegistrationReceipt
}

/** A Resilience registration of the given delegates (by name), by bank transfer. */
function resilience(option: 'venue' | 'online', names: string[]): Record<string, unknown> {
  const unique = Math.random().toString(36).slice(2, 8)
  return {
    event: 'Resilience',
    code: 'ERC2025',
    attendanceOption: option,
    delegates: names.map((name, index) => ({ name, position: 'Director', email: `delegate-${index}-${unique}@resilience.test` })),
  }
}

async function expectAccessible(page: Page): Promise<void> {
  expect(await accessibilityViolations(page), `axe on ${new URL(page.url()).pathname}`).toEqual([])
}

describe('the attendance register and a bank transfer’s date', () => {
  const { site, url } = useBackOfficeSite([OWNER], { FORM_RATE_LIMIT: '0' })

  it('refuses a transfer dated before the registration or after today, records nothing, then records it', async () => {
    const paid = await register(site().baseUrl, resilience('venue', ['Sipho Ndlovu']))
    const page = await openPage(browser(), 'phone')
    await signInAt(page, site().baseUrl, `/admin/registrations/${paid.reference}/payments/new`, OWNER)
    await waitForHydration(page)

    const attempt = async (receivedOn: string) => {
      await page.getByLabel('Amount received (rand)').fill('9 763.50')
      await page.getByLabel('Date received').fill(receivedOn)
      await page.getByLabel('Bank reference').fill(`RES ${receivedOn}`)
      await page.getByRole('button', { name: 'Record the transfer' }).click()
    }
    // The site's today is 1 March 2025; the registration was made today.
    await attempt('2024-01-01')
    const dateError = page.locator('#field-receivedOn-error')
    await dateError.getByText('The date cannot be before the registration was made.').waitFor()
    expect(await page.getByLabel('Date received').getAttribute('aria-invalid')).toBe('true')
    await expectAccessible(page)
    await attempt('2025-03-02')
    await dateError.getByText('The date cannot be later than today.').waitFor()
    expect(await page.locator('main').innerText()).toMatch(/Paid so far\s+R 0\.00/)

    await attempt('2025-03-01')
    await page.waitForURL((address) => address.pathname === `/admin/registrations/${paid.reference}` && address.searchParams.get('recorded') === 'payment')
    await page.getByRole('heading', { level: 1, name: `Registration ${paid.reference}` }).waitFor()
    expect(await page.locator('dl.admin-facts').first().innerText()).toMatch(/Status\s+Paid/)
    await page.context().close()
  })

  it('prints the venue’s delegates only, a signature column per day, the unpaid marked', async () => {
    await register(site().baseUrl, resilience('venue', ['Lindiwe Dube', 'Johan Smit']))
    await register(site().baseUrl, resilience('online', ['Refilwe Molefe']))
    const page = await openPage(browser(), 'phone')
    await signInAt(page, site().baseUrl, '/admin/events', OWNER)
    await expectAccessible(page)
    const link = page.getByRole('link', { name: /^Attendance register \(PDF\) of Economic Resilience/ })
    const response = await page.request.get(url((await link.getAttribute('href')) ?? ''))
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toBe('application/pdf')
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await response.body())), { mergePages: true })

    expect(text).toContain('Attendance register: Economic Resilience')
    expect(text).toContain('Signature Wed 23 Jul')
    expect(text).toContain('Signature Thu 24 Jul')
    expect(text).toContain('3 delegates')
    for (const name of ['Lindiwe Dube', 'Johan Smit', 'Sipho Ndlovu']) expect(text).toContain(name)
    // The online delegate signs no sheet at the venue.
    expect(text).not.toContain('Refilwe Molefe')
    // Sipho's registration is paid (the test before); Lindiwe's and Johan's await payment and are marked so.
    // In capitals, as wide as the payment column allows ("AWAITING PAYM…").
    expect(text.match(/AWAITING/g) ?? []).toHaveLength(2)
    expect(text).toMatch(/Sipho Ndlovu[^]*?Paid/)
    await page.context().close()
  })
})

describe('the cancel screen once the event is over', () => {
  let dataDir: string
  let site: RunningSite | undefined

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'events-admin-event-day-'))
  })
  afterAll(async () => {
    await site?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('says how many days after the event began it is, in words, and proposes the whole fee', async () => {
    await createStaffAccount(dataDir, OWNER)
    // Registered in March, when registration is open; the back office then runs on 31 July, after the 3 July event.
    site = await startSite({ env: { DATA_DIR: dataDir } })
    const registration = await register(site.baseUrl, {})
    await site.stop()
    site = await startSite({ env: { DATA_DIR: dataDir, SITE_DATE: '2025-07-31T10:00:00+02:00' } })

    const page = await openPage(browser(), 'phone')
    await signInAt(page, site.baseUrl, `/admin/registrations/${registration.reference}/cancel`, OWNER)
    await page.getByRole('heading', { name: 'The fee the terms propose: 100%' }).waitFor()
    const text = await page.locator('main').innerText()
    expect(text).toContain('Today, Thu, 31 July 2025, is 28 days after the event began on Thu, 3 July 2025: the whole fee applies.')
    expect(text).not.toMatch(/-\d+ calendar days|0 working days|working-days|cancellation\./)
    await expectAccessible(page)
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
    await page.context().close()
  })
})
