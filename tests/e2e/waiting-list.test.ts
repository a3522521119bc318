// The waiting list of a sold-out event in Chromium, against the built site on 20 June 2025 (Legal Opinion Writing,
// 3 July 2025, with 2 seats at the venue and 1 online): visitors join from the Register tab without JavaScript (errors
// come back with what they typed) and with it; a cancellation in the back office offers the freed seats by e-mail
// (at a real SMTP server); the offer's link registers for the held seats while the event stays sold out for everyone
// else, and says so once used; with the business clock moved past the offer's 48 hours (SITE_DATE), the offer lapses
// and its seat goes to the next entry, by e-mail too; staff remove an entry and offer seats by hand.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStaffAccount, signInAt, type StaffAccount } from '../support/admin.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { onSite, registrationBody, type RegistrationReceipt } from '../support/registrations.ts'
import { repoRoot, startSite, type RunningSite } from '../support/site-server.ts'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts'

const OWNER: StaffAccount = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner', password: 'a long enough olu passphrase' }
const EVENT = '/workshop/legalOpinion'
const REGISTER_TAB = `${EVENT}?tab=register`

const browser = useBrowser()
let workDir: string
let dataDir: string
let env: Record<string, string>
let site: RunningSite
let sink: SmtpSink
let venueRegistration: RegistrationReceipt

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'waiting-list-e2e-'))
  dataDir = path.join(workDir, 'data')
  await cp(path.join(repoRoot, 'packages/content/dataset'), path.join(workDir, 'content'), { recursive: true })
  const datasetPath = path.join(workDir, 'content', 'production.ndjson')
  const documents = (await readFile(datasetPath, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  for (const document of documents) if (document._id === 'event-legal-opinion') Object.assign(document, { venueCapacity: 2, onlineCapacity: 1 })
  await writeFile(datasetPath, documents.map((document) => JSON.stringify(document)).join('\n') + '\n')
  await createStaffAccount(dataDir, OWNER)
  sink = await startSmtpSink()
  env = { DATA_DIR: dataDir, SMTP_URL: sink.url, CONTENT_DATASET_PATH: datasetPath, FORM_RATE_LIMIT: '0' }
  site = await startSite({ env: { ...env, SITE_DATE: '2025-06-20T10:00:00+02:00' } })
})

afterAll(async () => {
  await site?.stop()
  await sink?.stop()
  await rm(workDir, { recursive: true, force: true })
})

async function post(pathname: string, body: unknown): Promise<Response> {
  return fetch(`${site.baseUrl}${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

async function fillWaitingList(page: Page, values: { name: string; email: string; seats: string }): Promise<void> {
  const form = page.locator('form.waiting-list-form')
  await form.getByLabel('Name', { exact: true }).fill(values.name)
  await form.getByLabel('Company name').fill('Acme Legal')
  await form.getByLabel('E-mail').fill(values.email)
  await form.getByLabel('Telephone').fill('011 555 0100')
  await form.getByLabel('Seats wanted (1 to 10)').fill(values.seats)
  await form.getByRole('radio', { name: 'At the venue' }).check()
}

/** The offer e-mail sent to `email`, and its private link on the site under test. */
async function offerLink(email: string): Promise<string> {
  const mail = await sink.waitFor(
    (message) => message.recipients.includes(email) && (message.parsed.subject ?? '').startsWith('Seats are free for you'),
    20_000,
  )
  const link = /https?:\/\/\S+offer=[\w-]+/.exec(mail.parsed.text ?? '')?.[0]
  if (!link) throw new Error(`No offer link in: ${mail.parsed.text}`)
  return onSite(link, site.baseUrl)
}

async function waitingListStates(page: Page): Promise<string[]> {
  await signInAt(page, site.baseUrl, '/admin/events', OWNER)
  await page.getByRole('link', { name: /^Waiting list: \d+ for Legal Opinion Writing 2025$/ }).click()
  await page.getByRole('heading', { name: 'Waiting list: Legal Opinion Writing 2025' }).waitFor()
  return page.locator('main tbody tr').evaluateAll((rows) =>
    rows.map((row) =>
      Array.from(row.children, (cell) => (cell as HTMLElement).innerText.split('\n')[0]!.trim())
        .filter((text, index) => index !== 1 && index !== 4)
        .join(' | '),
    ),
  )
}

describe('the waiting list of a sold-out event', () => {
  it('takes visitors from the Register tab without JavaScript, errors shown with what they typed, and with it', async () => {
    venueRegistration = (await (await post('/api/registrations', registrationBody())).json()) as RegistrationReceipt
    expect(
      (
        await post(
          '/api/registrations',
          registrationBody({ attendanceOption: 'online', delegates: [{ name: 'Online One', position: 'Attorney', email: 'online1@acme.test' }] }),
        )
      ).status,
    ).toBe(201)

    const plain = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await plain.goto(`${site.baseUrl}${REGISTER_TAB}`)
    const panel = plain.getByRole('tabpanel')
    await panel.getByRole('heading', { name: 'Sold out' }).waitFor()
    expect(await panel.locator('form.registration-form').count()).toBe(0)
    await fillWaitingList(plain, { name: 'Naledi First', email: 'naledi@acme.test', seats: '11' })
    await plain.getByRole('button', { name: 'Join the waiting list' }).click()
    await plain.waitForURL((address) => address.pathname === `${EVENT}/waiting-list`)
    const summary = plain.locator('.form__summary[role="alert"]')
    expect(await summary.innerText()).toContain('Please enter the number of seats: a whole number from 1 to 10.')
    expect(await plain.getByLabel('Name', { exact: true }).inputValue()).toBe('Naledi First')
    expect(await plain.getByLabel('Seats wanted (1 to 10)').getAttribute('aria-invalid')).toBe('true')
    await plain.getByLabel('Seats wanted (1 to 10)').fill('2')
    await plain.getByRole('button', { name: 'Join the waiting list' }).click()
    await plain.getByRole('status').getByText('Thank you: you are number 1 on the waiting list.', { exact: false }).waitFor()
    await plain.context().close()

    const enhanced = await openPage(browser(), 'phone')
    await enhanced.goto(`${site.baseUrl}${REGISTER_TAB}`)
    await waitForHydration(enhanced)
    await fillWaitingList(enhanced, { name: 'Sipho Second', email: 'sipho@acme.test', seats: '1' })
    await enhanced.getByRole('button', { name: 'Join the waiting list' }).click()
    await enhanced.getByRole('status').getByText('Thank you: you are number 2 on the waiting list.', { exact: false }).waitFor()
    // Answered in place, in the background.
    expect(new URL(enhanced.url()).pathname).toBe(EVENT)
    await enhanced.context().close()

    const place = await sink.waitFor((message) => message.recipients.includes('naledi@acme.test'))
    expect(place.parsed.subject).toBe('Waiting list: Legal Opinion Writing 2025')
    expect(place.parsed.text).toContain('You are number 1 on the waiting list for Legal Opinion Writing 2025.')
  })

  it('offers the seats a cancellation frees by e-mail, and registers through the offer link while others see it sold out', async () => {
    const page = await openPage(browser(), 'phone')
    await signInAt(page, site.baseUrl, `/admin/registrations/${venueRegistration.reference}/cancel`, OWNER)
    await waitForHydration(page)
    await page.getByRole('button', { name: 'Confirm cancellation' }).click()
    await page
      .getByRole('status')
      .getByText(/^Cancelled with a 50% fee/)
      .waitFor()

    // Two venue seats freed: Naledi (2 seats) is first and fits; Sipho waits.
    const link = await offerLink('naledi@acme.test')
    // The offer's page is Naledi's own: neither the page cache nor a CDN keeps it.
    expect((await fetch(link)).headers.get('cache-control')).toBe('private, no-store')
    expect(await waitingListStates(page)).toEqual(['1 | 2 at the venue | Offered', '2 | 1 at the venue | Waiting'])

    const others = await openPage(browser(), 'phone')
    await others.goto(`${site.baseUrl}${REGISTER_TAB}`)
    await others.getByRole('tabpanel').getByRole('heading', { name: 'Sold out' }).waitFor()
    await others.context().close()

    await page.goto(link)
    await waitForHydration(page)
    const form = page.locator('form.registration-form')
    await page.getByText(/^2 seats at the venue are held for you until 22 June 2025/).waitFor()
    expect(await form.getByLabel('Company name').inputValue()).toBe('Acme Legal')
    await form.getByRole('radio', { name: /^Venue/ }).check()
    await form.getByLabel(/Workshop code/).fill('LOW2025')
    await form.getByLabel('Address').fill('1 Main Road, Sandton')
    await form.getByRole('radio', { name: 'No, the company is not a VAT vendor' }).check()
    // One delegate of the two seats held: the other goes to the next entry, Sipho.
    const delegate = form.locator('fieldset.form__delegate').nth(0)
    await delegate.getByLabel('Name', { exact: true }).fill('Naledi First')
    await delegate.getByLabel('Position').fill('Attorney')
    await delegate.getByLabel('E-mail').fill('naledi.delegate@acme.test')
    await form.getByRole('radio', { name: 'Bank Transfer' }).check()
    await form.getByRole('checkbox', { name: /terms and conditions/ }).check()
    await form.getByRole('button', { name: 'Submit Form' }).click()
    await page.waitForURL(/\/registrations\/[A-Z0-9]+\/[\w-]+$/)
    await page.getByRole('heading', { level: 1, name: 'Registration received' }).waitFor()

    await offerLink('sipho@acme.test')
    await page.goto(link)
    await page.getByRole('alert').getByText('This waiting-list offer was already used to register').waitFor()
    expect(await waitingListStates(page)).toEqual(['1 | 2 at the venue | Registered', '2 | 1 at the venue | Offered'])
    await page.context().close()
  })

  it('lets an offer lapse when the business clock passes its 48 hours, giving its seat to the next entry', async () => {
    const joined = await post('/api/waiting-list', {
      event: 'legalOpinion',
      name: 'Thabo Third',
      companyName: 'Acme',
      email: 'thabo@acme.test',
      tel: '011 555 0100',
      seats: 1,
      attendance: 'venue',
    })
    expect(await joined.json()).toEqual({ position: 3 })
    const siphoLink = await offerLink('sipho@acme.test')

    await site.stop()
    site = await startSite({ env: { ...env, SITE_DATE: '2025-06-23T10:00:00+02:00' } })

    const expired = await sink.waitFor(
      (message) => message.recipients.includes('sipho@acme.test') && (message.parsed.subject ?? '').startsWith('Your waiting-list offer has expired'),
      20_000,
    )
    expect(expired.parsed.text).toContain('were not registered for in time')
    await offerLink('thabo@acme.test')
    const page = await openPage(browser(), 'phone')
    expect(await waitingListStates(page)).toEqual(['1 | 2 at the venue | Registered', '2 | 1 at the venue | Offer expired', '3 | 1 at the venue | Offered'])
    await page.goto(onSite(siphoLink, site.baseUrl))
    await page.getByRole('alert').getByText('This waiting-list offer is no longer valid').waitFor()

    // Staff remove Thabo, whose seat is then free, and offer it to Sipho by hand: a new offer, e-mailed, audited.
    await waitingListStates(page)
    await page.getByRole('button', { name: 'Remove Thabo Third' }).click()
    await page.getByText('The entry was removed from the waiting list.').waitFor()
    await page.getByRole('button', { name: 'Offer seats to Sipho Second' }).click()
    await page.getByText('The seats were offered: the e-mail with the private link is on its way.').waitFor()
    await sink.waitFor(
      (message) => message.recipients.includes('sipho@acme.test') && (message.parsed.text ?? '').includes('held for you until 25 June 2025'),
      20_000,
    )
    expect(await waitingListStates(page)).toEqual(['1 | 2 at the venue | Registered', '2 | 1 at the venue | Offered', '3 | 1 at the venue | Removed'])
    await page.goto(`${site.baseUrl}/admin/audit`)
    const log = await page.locator('main').innerText()
    expect(log).toContain('Waiting list entry removed')
    expect(log).toContain('Waiting list seats offered')
    await page.context().close()
  })
})
