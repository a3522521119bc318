// The day at the door is the server's, in Chromium at 390 px against the real site on SQLite: delegates register
// before the event; on the first day a second-day check-in is refused naming both days; then the site is restarted
// on the same port with its business clock on the second day, under screens left open overnight. The screen with
// JavaScript follows the new day without a reload; the one without it posts the old day and is refused, nothing
// recorded on the wrong day.
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { signInAt, type StaffAccount, useBackOfficeData } from '../support/admin.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { registrationBody } from '../support/registrations.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'

const THANDI: StaffAccount = { email: 'thandi@example.com', name: 'Thandi Zulu', role: 'staff', password: 'door keeper at the indaba 2025' }
const CHECK_IN = '/admin/events/event-legal-opinion/check-in'
const DAY_ONE_MORNING = '2025-07-03T07:45:00+02:00'
const DAY_TWO_MORNING = '2025-07-04T07:45:00+02:00'

const browser = useBrowser()

describe('the server decides the day at the door', () => {
  const backOffice = useBackOfficeData([THANDI])
  let site: RunningSite | undefined
  afterAll(async () => {
    await site?.stop()
  })

  /** The site restarted on the same port with the business clock at `siteDate`: open pages carry on against it. */
  async function moveClock(siteDate: string): Promise<RunningSite> {
    const port = site ? Number(new URL(site.baseUrl).port) : undefined
    await site?.stop()
    site = await startSite({ env: { ...backOffice.siteEnv(), FORM_RATE_LIMIT: '0', SITE_DATE: siteDate }, ...(port ? { port } : {}) })
    return site
  }

  async function desk(javaScriptEnabled: boolean): Promise<Page> {
    const page = await openPage(browser(), 'phone', { javaScriptEnabled })
    await signInAt(page, site!.baseUrl, CHECK_IN, THANDI)
    await page.getByRole('heading', { level: 1, name: 'Check-in: Legal Opinion Writing 2025' }).waitFor()
    if (javaScriptEnabled) await waitForHydration(page)
    return page
  }

  async function scan(page: Page, code: string): Promise<void> {
    await page.getByLabel('Pass code').fill(code)
    await page.keyboard.press('Enter')
  }

  it('refuses another day, follows the day change on an open screen, and refuses a stale screen’s day', async () => {
    // Before the event (the tests' 1 March 2025), two delegates register and are e-mailed their passes.
    await moveClock('2025-03-01T09:00:00+02:00')
    const unique = Math.random().toString(36).slice(2, 8)
    const delegates = ['Lindiwe Sithole', 'Karabo Mokoena'].map((name, index) => ({
      name: `${name} ${unique}`,
      position: 'Attorney',
      email: `door-${index}-${unique}@acme.test`,
    }))
    const response = await fetch(`${site!.baseUrl}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationBody({ delegates })),
    })
    expect(response.status).toBe(201)
    const codes: string[] = []
    for (const delegate of delegates) {
      const mail = await backOffice.sink().waitFor((received) => received.recipients.includes(delegate.email))
      codes.push(/pass ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(mail.parsed.text ?? '')![1]!)
    }
    const [lindiwe, karabo] = [delegates[0]!, delegates[1]!]
    const [lindiweCode, karaboCode] = codes as [string, string]

    await moveClock(DAY_ONE_MORNING)
    const open = await desk(true)
    const withoutScript = await desk(false)
    await open.getByText('Recording today: day 1 of 2, 03 Jul 2025.').waitFor()

    // A second-day code posted on the first day: refused, naming both days, nothing recorded.
    const early = await open.request.post(`${site!.baseUrl}${CHECK_IN}/live`, {
      form: { intent: 'check-in', day: '2025-07-04', code: lindiweCode },
      headers: { Origin: site!.baseUrl, Accept: 'application/json' },
    })
    expect(early.status()).toBe(409)
    expect(await early.json()).toEqual({
      ok: false,
      status: 409,
      message: 'Nothing recorded: this screen was on Friday, 04 July, but today is Thursday, 03 July. The screen now records today: scan again.',
      today: '2025-07-03',
    })
    expect(await open.locator('.check-in-counts').innerText()).toMatch(/^0 checked in/)

    await scan(open, lindiweCode)
    await open.locator('.check-in-answer').getByText(`${lindiwe.name} checked in.`).waitFor()

    // Overnight the clock moves to the second day under both open screens.
    await moveClock(DAY_TWO_MORNING)
    // The screen with JavaScript follows the server's day by its counts' poll, without a reload, and records it.
    await open.getByText('Recording today: day 2 of 2, 04 Jul 2025.').waitFor({ timeout: 15_000 })
    expect(await open.locator('.check-in-counts').innerText()).toMatch(/^0 checked in/)
    await scan(open, lindiweCode)
    await open.locator('.check-in-answer').getByText(`${lindiwe.name} checked in.`).waitFor()

    // The screen without JavaScript still posts the first day: refused, saying which day it is now.
    await scan(withoutScript, karaboCode)
    await withoutScript
      .getByRole('alert')
      .getByText('Nothing recorded: this screen was on Thursday, 03 July, but today is Friday, 04 July. The screen now records today: scan again.')
      .waitFor()
    await withoutScript.goto(`${site!.baseUrl}${CHECK_IN}`)
    await withoutScript.getByText('Recording today: day 2 of 2, 04 Jul 2025.').waitFor()
    expect(await withoutScript.locator('.check-in-counts').innerText()).toMatch(/^1 checked in/)
    await withoutScript.getByLabel('Name, company or reference').fill(karabo.name)
    await withoutScript.getByRole('button', { name: 'Search' }).click()
    await withoutScript.getByRole('button', { name: `Check in ${karabo.name}` }).waitFor()

    await open.context().close()
    await withoutScript.context().close()
  })
})
