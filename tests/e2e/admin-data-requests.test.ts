// Personal data requests (POPIA) in Chromium against the real site: everything held about an address is found,
// exported as one JSON file and erased as far as the law lets go, the registration for an event still to come left
// whole; the export and the erasure are in the audit log.
import { describe, expect, it } from 'vitest'
import { enterTotpCode, signInCookie, type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { downloadedBytes, openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'

const OWNER: StaffAccount = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner', password: 'a long enough olu passphrase' }

const browser = useBrowser()
const { site, url } = useBackOfficeSite([OWNER])

async function postJson(pathname: string, body: unknown): Promise<Response> {
  const response = await fetch(url(pathname), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(response.status).toBe(201)
  return response
}

describe('personal data requests', () => {
  it('finds, exports and erases what is held about an address, leaving whole a registration for an event still to come', async () => {
    const body = registrationBody()
    const delegate = body.delegates[0]!.email
    const receipt = (await (await postJson('/api/registrations', body)).json()) as RegistrationReceipt
    await postJson('/api/contact', {
      fullName: 'Thandi Mokoena',
      companyName: '',
      email: delegate,
      phone: '+27 82 555 0101',
      interest: 'Workshop',
      message: 'Is there parking?',
    })

    const page = await openPage(browser(), 'phone', { acceptDownloads: true })
    await page.goto(url('/admin/data-requests'))
    await page.getByLabel('E-mail address').fill(OWNER.email)
    await page.getByLabel('Password').fill(OWNER.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await enterTotpCode(page, OWNER.email)
    await page.waitForURL((address) => address.pathname === '/admin/data-requests')
    await waitForHydration(page)

    await page.getByLabel('E-mail address').fill(delegate.toUpperCase())
    await page.getByRole('button', { name: 'Find' }).click()
    await page.getByRole('heading', { name: `Held about ${delegate}` }).waitFor()
    await page.getByRole('heading', { name: 'Registrations (1)' }).waitFor()
    await page.getByRole('heading', { name: 'Enquiries and training requests (1)' }).waitFor()
    expect(await page.locator('main').innerText()).toContain(`${receipt.reference}, Legal Opinion Writing 2025, as delegate`)
    expect(await accessibilityViolations(page)).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download everything as JSON' }).click()])
    expect(download.suggestedFilename()).toBe(`personal-data-${delegate}.json`)
    const exportedText = (await downloadedBytes(download)).toString('utf8')
    const exported = JSON.parse(exportedText) as {
      email: string
      registrations: Array<{ reference: string; roles: string[]; delegates: unknown[]; company: { email: string; tel: string } }>
      enquiries: Array<{ message: string }>
      emails: Array<{ topic: string }>
    }
    expect(exported.email).toBe(delegate)
    expect(exported.registrations).toEqual([expect.objectContaining({ reference: receipt.reference, roles: ['delegate'] })])
    expect(exported.enquiries).toEqual([expect.objectContaining({ message: 'Is there parking?' })])
    expect(exported.emails.map((email) => email.topic).sort()).toEqual(['contact.acknowledgement', 'registration.delegate'])
    // Only Thandi's own data: not her co-delegate's name, position or address, nor the company's accounts contact.
    const [coDelegate] = body.delegates.slice(1)
    expect(exported.registrations[0]?.delegates).toEqual([body.delegates[0]])
    expect(exported.registrations[0]?.company).toMatchObject({ email: '', tel: '' })
    for (const field of [coDelegate?.name, coDelegate?.position, coDelegate?.email, body.email, body.tel]) expect(exportedText).not.toContain(field)

    await page.getByRole('button', { name: 'Erase', exact: true }).click()
    // The confirmation box is required: nothing is erased until it is ticked.
    expect(await page.getByRole('status').count()).toBe(0)
    await page.getByLabel(`Erase what may be erased about ${delegate}; this cannot be undone`).check()
    await page.getByRole('button', { name: 'Erase', exact: true }).click()
    const status = page.getByRole('status')
    await status.filter({ hasText: 'Erased: 1 enquiries and training requests anonymised, 2 e-mails deleted.' }).waitFor()
    expect(await status.innerText()).toContain(`Not erased, the event not yet started: ${receipt.reference} (Legal Opinion Writing 2025).`)

    await page.getByLabel('E-mail address').fill(delegate)
    await page.getByRole('button', { name: 'Find' }).click()
    await page.getByRole('heading', { name: 'Enquiries and training requests (0)' }).waitFor()
    await page.getByRole('heading', { name: 'Registrations (1)' }).waitFor()
    await page.context().close()

    const cookie = await signInCookie(site().baseUrl, OWNER)
    const audit = await (await fetch(url('/admin/audit'), { headers: { cookie } })).text()
    expect(audit).toContain('Personal data exported')
    expect(audit).toContain('Personal data erased')
    expect(audit).toContain(delegate)
  })
})
