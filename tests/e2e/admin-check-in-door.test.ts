// The door's answers in Chromium at 390 px against the real site on SQLite, four staff phones at once: a scan updates
// the delegate's row and the counts without loading the list again (no route data requested after the first load);
// the answer fills the screen, green or red, and the pass code field is ready for the next scan; and with the venue's
// Wi-Fi down each phone judges a scan at once by the list it keeps: an unknown code, a cancelled pass and a code
// scanned twice are refused, a known one admitted as provisional and confirmed when the connection returns.
import { cancelRegistration, openDatabase } from '../../packages/core/src/index.ts'
import { fixedCatalog, SITE_NOW, TEST_MANAGER, testSiteLinks } from '../../packages/core/src/test-support.ts'
import { staffAuditWriter } from '../../packages/staff/src/audit.ts'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { signInAt, type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'

const DOOR_STAFF: StaffAccount[] = [1, 2, 3, 4].map((index) => ({
  email: `door-${index}@example.com`,
  name: `Door Staff ${index}`,
  role: 'staff',
  password: `door phone number ${index} at the venue 2025`,
}))
const CHECK_IN = '/admin/events/event-legal-opinion/check-in'

const browser = useBrowser()

describe('the door answers at once, online and offline', () => {
  const backOffice = useBackOfficeSite(DOOR_STAFF, { FORM_RATE_LIMIT: '0', SITE_DATE: '2025-07-03T07:30:00+02:00' })

  /** Registers delegates (unique names); answers the receipt and each delegate's e-mailed pass code. */
  async function register(names: string[]): Promise<{ receipt: RegistrationReceipt; passes: Array<{ name: string; code: string }> }> {
    const unique = Math.random().toString(36).slice(2, 8)
    const delegates = names.map((name, index) => ({ name: `${name} ${unique}`, position: 'Attorney', email: `door-${index}-${unique}@acme.test` }))
    const response = await fetch(backOffice.url('/api/registrations'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationBody({ delegates })),
    })
    expect(response.status).toBe(201)
    const receipt = (await response.json()) as RegistrationReceipt
    const passes = []
    for (const delegate of delegates) {
      const mail = await backOffice.sink().waitFor((received) => received.recipients.includes(delegate.email))
      passes.push({ name: delegate.name, code: /pass ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(mail.parsed.text ?? '')![1]! })
    }
    return { receipt, passes }
  }

  async function desk(account: StaffAccount): Promise<Page> {
    const page = await openPage(browser(), 'phone')
    await signInAt(page, backOffice.site().baseUrl, CHECK_IN, account)
    await page.getByRole('heading', { level: 1, name: 'Check-in: Legal Opinion Writing 2025' }).waitFor()
    await waitForHydration(page)
    return page
  }

  async function scan(page: Page, code: string): Promise<void> {
    await page.getByLabel('Pass code').fill(code)
    await page.keyboard.press('Enter')
  }

  /** The page's requests for route data (a reload of the list) from now on. */
  function routeDataRequests(page: Page): string[] {
    const seen: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('.data')) seen.push(request.url())
    })
    return seen
  }

  /** Waits until the phone keeps the event's list with these codes (it fetches it on opening). */
  async function listKept(page: Page, codes: string[]): Promise<void> {
    await page.waitForFunction((wanted) => {
      const kept = Object.keys(localStorage)
        .filter((key) => key.startsWith('events-check-in-list:'))
        .map((key) => localStorage.getItem(key) ?? '')
        .join('')
      return wanted.every((code) => kept.includes(code.replace('-', '')))
    }, codes)
  }

  it('four phones at 390 px scan without reloading the list, each answer filling the screen and the field ready again', async () => {
    const { passes } = await register(['Nomsa Dube', 'Kabelo Molefe', 'Ruth Adams', 'Zanele Mbeki'])
    const phones = await Promise.all(DOOR_STAFF.map((account) => desk(account)))
    const reloads = phones.map((phone) => routeDataRequests(phone))
    await Promise.all(phones.map((phone, index) => scan(phone, passes[index]!.code)))
    for (const [index, phone] of phones.entries()) {
      const green = phone.locator('.check-in-result--green.check-in-result--full')
      await green.getByText(`${passes[index]!.name} checked in.`).waitFor()
      const box = (await green.boundingBox())!
      expect([box.width, box.height]).toEqual([390, 844])
      expect(await green.innerText()).toContain('Not paid in full')
      expect(await phone.evaluate(() => document.activeElement?.id)).toBe('check-in-code')
    }

    // The same pass on another phone: red, full screen, naming who was first; typed straight in without a tap.
    const [first, second] = phones as [Page, Page]
    await first.keyboard.type(passes[1]!.code)
    await first.keyboard.press('Enter')
    const red = first.locator('.check-in-result--red.check-in-result--full')
    await red.getByText(new RegExp(`^${passes[1]!.name}: already checked in at \\d\\d:\\d\\d by Door Staff 2\\.$`)).waitFor()
    // The full-screen answer lets taps and keys through, then shrinks to its place above the field.
    await red.waitFor({ state: 'detached' })
    await first.locator('.check-in-result--red').waitFor()
    // Five scans answered on four phones, and not one of them loaded the page's data again.
    expect(reloads.flat()).toEqual([])

    // The row of a delegate checked in from the list changes in place.
    await second.getByLabel('Name, company or reference').fill(passes[0]!.name)
    await second.getByRole('button', { name: 'Search' }).click()
    await second.getByRole('button', { name: `Undo the check-in of ${passes[0]!.name}` }).waitFor()
    const afterSearch = routeDataRequests(second)
    await second.getByRole('button', { name: `Undo the check-in of ${passes[0]!.name}` }).click()
    await second.getByRole('button', { name: `Check in ${passes[0]!.name}` }).waitFor()
    expect(afterSearch).toEqual([])
    for (const phone of phones) await phone.context().close()
  })

  it('judges offline scans at once by the list kept on each phone: unknown, cancelled, twice, and admitted provisionally', async () => {
    const { passes } = await register(['Themba Nkosi', 'Grace Pillay'])
    const cancelled = await register(['Peter Smit'])
    const db = await openDatabase({ dataDir: backOffice.site().dataDir })
    try {
      const context = { db, catalog: fixedCatalog(), links: testSiteLinks(), now: () => new Date(), siteNow: () => SITE_NOW, audit: staffAuditWriter }
      await cancelRegistration(context, { reference: cancelled.receipt.reference, delegateIds: 'all' }, TEST_MANAGER)
    } finally {
      await db.close()
    }
    const phones = await Promise.all(DOOR_STAFF.map((account) => desk(account)))
    await Promise.all(
      phones.map((phone) =>
        listKept(
          phone,
          [...passes, ...cancelled.passes].map((pass) => pass.code),
        ),
      ),
    )
    for (const phone of phones) await phone.context().setOffline(true)
    const [first, second, third, fourth] = phones as [Page, Page, Page, Page]
    const [themba, grace] = passes as [{ name: string; code: string }, { name: string; code: string }]

    await scan(first, 'ZZZZ-ZZZZ')
    await first
      .getByRole('alert')
      .getByText('ZZZZ-ZZZZ is not a pass of this event (no connection: judged by the list on this device). Nothing recorded.')
      .waitFor()
    await scan(second, cancelled.passes[0]!.code)
    await second.getByRole('alert').getByText(`The pass of ${cancelled.passes[0]!.name} is cancelled. Nothing recorded.`).waitFor()
    await scan(third, themba.code)
    await third.getByText(`${themba.name}: in, provisional (no connection). It is confirmed when the connection returns.`).waitFor()
    expect(await third.locator('.check-in-result--provisional').innerText()).toContain('Not paid in full')
    await scan(third, themba.code.toLowerCase())
    await third.getByRole('alert').getByText(`${themba.name}: already checked in today (no connection: judged by the list on this device).`).waitFor()
    await scan(fourth, grace.code)
    await fourth.getByText(`${grace.name}: in, provisional (no connection). It is confirmed when the connection returns.`).waitFor()
    for (const phone of [first, second]) expect(await phone.getByText(/scans? waits? on this device/).count()).toBe(0)
    await third.getByText('1 scan waits on this device for the connection; it is sent when it returns.').waitFor()

    for (const phone of phones) await phone.context().setOffline(false)
    // Confirmed by the server once each: green, and nothing left waiting.
    await third.locator('.check-in-result--green').getByText(`${themba.name} checked in.`).waitFor({ timeout: 15_000 })
    await fourth.locator('.check-in-result--green').getByText(`${grace.name} checked in.`).waitFor({ timeout: 15_000 })
    await third.getByText('scan waits on this device').waitFor({ state: 'detached' })
    await first.waitForFunction(() => document.querySelector('.check-in-counts')?.textContent?.match(/^(\d+) checked in/)?.[1] !== undefined)

    // Signing out leaves nothing of the delegates on the phone.
    await first.goto(backOffice.url('/admin'))
    await waitForHydration(first)
    await first.getByRole('button', { name: 'Sign out', exact: true }).click()
    await first.waitForURL((address) => !address.pathname.startsWith('/admin') || address.pathname.includes('sign-in'))
    expect(await first.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('events-check-in-list:')))).toEqual([])
    for (const phone of phones) await phone.context().close()
  })
})
