// The back office's registration screens in Chromium against the real site: an owner made with `pnpm admin` signs in,
// reads the dashboard's figures for registrations made through the JSON API, finds them in the list, opens one, sends
// its confirmation again (received by a real SMTP server) and sends a failed e-mail again from E-mails; a card payment
// through the sandbox shows on the dashboard and its receipt is resent. Then axe at phone width, the filter form and the
// resend button without JavaScript, refused posts, and paging.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStaffAccount, openWithSession, signInAt, signInCookie, type StaffAccount } from '../support/admin.ts'
import { accessibilityViolations } from '../support/axe.ts'
import { openPage, useBrowser, waitForHydration } from '../support/browser.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'
import { OUTBOX_METRICS_TOKEN, waitForEmptyOutbox } from '../support/outbox.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../support/smtp-sink.ts'

const OWNER: StaffAccount = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner', password: 'a long enough olu passphrase' }

const browser = useBrowser()
let site: RunningSite
let sink: SmtpSink
let dataDir: string
/** The owner's session, signed in once: the tests open their screens with it (see openWithSession). */
let ownerSession: string
/** Registered by bank transfer and by card, each with two delegates at the venue price: R 20 677.00 incl. VAT. */
interface Registered {
  reference: string
  /** The registrant's private page, where a card registration is paid. */
  statusUrl: string
  companyName: string
  email: string
  delegateEmails: string[]
}
let bank: Registered
let card: Registered

async function register(overrides: Record<string, unknown>): Promise<Registered> {
  const body = registrationBody(overrides)
  const response = await fetch(`${site.baseUrl}/api/registrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status).toBe(201)
  const { reference, statusUrl } = (await response.json()) as RegistrationReceipt
  return { reference, statusUrl, companyName: body.companyName, email: body.email, delegateEmails: body.delegates.map((delegate) => delegate.email) }
}

/** The e-mails about a registration: to its registrant or delegates, or naming its reference (the organiser's). */
const mailsAbout = (registration: Registered) =>
  sink.received.filter(
    (mail) =>
      mail.parsed.subject?.includes(registration.reference) ||
      mail.recipients.some((address) => address === registration.email || registration.delegateEmails.includes(address)),
  )

/** Waits until the sink has received at least `count` e-mails about the registration. */
async function waitForMailsAbout(registration: Registered, count: number): Promise<ReceivedMail[]> {
  await sink.waitFor(() => mailsAbout(registration).length >= count, 15_000)
  return mailsAbout(registration)
}

beforeAll(async () => {
  sink = await startSmtpSink()
  dataDir = mkdtempSync(path.join(tmpdir(), 'events-admin-registrations-'))
  await createStaffAccount(dataDir, OWNER)
  // The paging test registers more than a page of registrations from this one address.
  site = await startSite({ env: { DATA_DIR: dataDir, SMTP_URL: sink.url, FORM_RATE_LIMIT: '0', METRICS_TOKEN: OUTBOX_METRICS_TOKEN } })
  bank = await register({})
  card = await register({ companyName: `Bolt Engineering ${Math.random().toString(36).slice(2, 8)}`, paymentMethod: 'Credit/Debit Card' })
  // Each registration's four e-mails (registrant, organiser, two delegates) are out before the tests look at them.
  await waitForMailsAbout(bank, 4)
  await waitForMailsAbout(card, 4)
  ownerSession = await signInCookie(site.baseUrl, OWNER)
})
afterAll(async () => {
  await site?.stop()
  await sink?.stop()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

const url = (pathname: string) => `${site.baseUrl}${pathname}`

async function expectAccessible(page: Page): Promise<void> {
  expect(await accessibilityViolations(page), `axe on ${new URL(page.url()).pathname}`).toEqual([])
}

/** The cells of a table's rows, as text, header row left out. */
async function tableRows(page: Page, tableName: string | RegExp): Promise<string[][]> {
  const table = page.getByRole('table', { name: tableName })
  return table
    .locator('tbody tr, tfoot tr')
    .evaluateAll((rows) => rows.map((row) => Array.from(row.children, (cell) => (cell as HTMLElement).innerText.trim())))
}

/** Marks a registration's e-mail to the organiser as given up on, as the outbox does after a day of refusals. */
function failOrganiserMail(reference: string): void {
  const database = new DatabaseSync(path.join(dataDir, 'events.sqlite'), { timeout: 5_000 })
  try {
    const changed = database
      .prepare(
        `update outbox_messages set status = 'failed', attempts = 9, last_error = '550 5.1.1 Mailbox unavailable'
         where topic = 'registration.organiser' and source_id = (select id from registrations where reference = ?)`,
      )
      .run(reference)
    expect(changed.changes).toBe(1)
  } finally {
    database.close()
  }
}

/** Marks the e-mails of a registration to one address as uncertain, as the outbox does when their sending was interrupted. */
function markUncertain(reference: string, recipient: string): string {
  const database = new DatabaseSync(path.join(dataDir, 'events.sqlite'), { timeout: 5_000 })
  try {
    const row = database
      .prepare(`select id from outbox_messages where status = 'sent' and sent_to = ? and source_id = (select id from registrations where reference = ?)`)
      .get(JSON.stringify([recipient]), reference) as { id: string } | undefined
    expect(row).toBeDefined()
    database
      .prepare(`update outbox_messages set status = 'uncertain', sent_at = null, last_error = 'Sending was interrupted', message_id = ? where id = ?`)
      .run(`<outbox-${row!.id}@example.com>`, row!.id)
    return row!.id
  } finally {
    database.close()
  }
}

describe('the back office’s registration screens', () => {
  it('shows the dashboard’s figures, finds registrations in the list, opens one and resends its confirmation', async () => {
    const page = await openPage(browser(), 'desktop')
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(`${error.message} at ${page.url()}`))
    await signInAt(page, site.baseUrl, '/admin', OWNER)
    // The sign-in's own notice (a browser new to the account) is still being sent as the dashboard first loads.
    await waitForEmptyOutbox(site)
    await page.reload()
    await waitForHydration(page)

    // Two registrations of R 20 677.00, none paid: both amounts await payment.
    expect(await tableRows(page, 'Registrations, delegates and money per upcoming event, soonest first; amounts incl. VAT')).toEqual([
      [
        'Legal Opinion Writing 2025',
        '03 Jul 2025',
        '2',
        '4',
        '4 at the venue (no limit); 0 online (no limit)',
        '0',
        'R 0.00',
        'R 0.00',
        'R 0.00',
        'R 41 354.00',
      ],
    ])
    const outbox = page.getByRole('region', { name: 'E-mail outbox' })
    expect(await outbox.locator('dl').innerText()).toMatch(/Waiting to be sent\s+0\s+Failed\s+0/)

    await page.getByRole('link', { name: 'Registrations', exact: true }).click()
    await page.getByRole('heading', { name: 'Registrations', level: 1 }).waitFor()
    await waitForHydration(page)
    expect((await tableRows(page, 'Registrations, page 1 of 1; amounts incl. VAT')).map((row) => row[0])).toEqual([card.reference, bank.reference])

    await page.getByLabel('Search').fill(bank.reference.toLowerCase())
    await page.getByRole('button', { name: 'Show registrations' }).click()
    await page.waitForURL((address) => address.searchParams.get('q') === bank.reference.toLowerCase())
    await page.getByRole('status').getByText('1 registration match').waitFor()
    expect((await tableRows(page, 'Registrations, page 1 of 1; amounts incl. VAT')).map((row) => row[0])).toEqual([bank.reference])

    await page.getByLabel('Search').fill(card.companyName.toUpperCase())
    await page.getByRole('button', { name: 'Show registrations' }).click()
    await page.waitForURL((address) => address.searchParams.get('q') === card.companyName.toUpperCase())
    await page.getByRole('status').getByText('1 registration match').waitFor()
    const [cardRow] = await tableRows(page, 'Registrations, page 1 of 1; amounts incl. VAT')
    expect(cardRow?.[0]).toBe(card.reference)
    expect(cardRow?.[2]).toContain(card.companyName)
    expect(cardRow?.slice(4)).toEqual(['2', 'Card / EFT / GPay', 'Awaiting payment', 'R 20 677.00', 'R 0.00'])

    await page.getByLabel('Search').fill('')
    await page.getByLabel('Payment method').selectOption({ label: 'Bank Transfer' })
    await page.getByRole('button', { name: 'Show registrations' }).click()
    await page.waitForURL((address) => address.searchParams.get('method') === 'bank-transfer')
    // The address changes before the filtered list replaces the one before it.
    await expect.poll(async () => (await tableRows(page, 'Registrations, page 1 of 1; amounts incl. VAT')).map((row) => row[0])).toEqual([bank.reference])

    await page.getByRole('link', { name: bank.reference }).click()
    await page.getByRole('heading', { name: `Registration ${bank.reference}`, level: 1 }).waitFor()
    await waitForHydration(page)
    expect(await tableRows(page, `Delegates of registration ${bank.reference}`)).toEqual([
      expect.arrayContaining(['Thandi Mokoena', 'Attorney']),
      expect.arrayContaining(['Pieter Botha', 'Paralegal']),
    ])
    const amounts = await page.getByRole('region', { name: 'Amounts' }).innerText()
    expect(amounts).toMatch(/Subtotal \(excl\. VAT\)\s+R 17 980\.00/)
    expect(amounts).toMatch(/VAT \(15%\)\s+R 2 697\.00/)
    expect(amounts).toMatch(/Total \(incl\. VAT\)\s+R 20 677\.00/)
    expect(amounts).toMatch(/Outstanding\s+R 20 677\.00/)

    const invoiceLink = page.getByRole('link', { name: /^Download tax invoice INV-\d{6} \(PDF\)$/ })
    const invoice = await page.request.get(url((await invoiceLink.getAttribute('href')) ?? ''))
    expect(invoice.status()).toBe(200)
    expect(invoice.headers()['content-type']).toBe('application/pdf')
    expect((await invoice.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-')

    const emailsTable = `E-mails about registration ${bank.reference}, oldest first, with where each is in the outbox`
    const emailsBefore = await tableRows(page, emailsTable)
    expect(emailsBefore).toHaveLength(4)
    expect(emailsBefore.every((row) => row[4]?.startsWith('Sent'))).toBe(true)
    // Each is listed as it was sent: the confirmation with its invoice and calendar invite attached.
    expect(emailsBefore.find((row) => row[0]?.startsWith('Confirmation to the registrant'))?.slice(1, 3)).toEqual([
      bank.email,
      expect.stringMatching(/^event\.ics, tax-invoice-INV-\d{6}\.pdf$/),
    ])
    expect(await page.getByRole('button', { name: 'Resend receipt' }).count()).toBe(0)

    await page.getByRole('button', { name: 'Resend confirmation' }).click()
    await page.waitForURL((address) => address.searchParams.get('resent') === 'confirmation')
    expect(await page.getByRole('status').innerText()).toContain('The confirmation is queued to be sent again')
    const resent = (await waitForMailsAbout(bank, 5)).filter((mail) => mail.recipients.includes(bank.email))
    expect(resent).toHaveLength(2)
    expect(resent[1]?.parsed.subject).toBe(resent[0]?.parsed.subject)
    expect(resent[1]?.parsed.attachments.map((attachment) => attachment.contentType)).toContain('application/pdf')

    // The outbox records the delivery just after the mail server has taken the message.
    const confirmationRows = async () => {
      await page.reload()
      return (await tableRows(page, emailsTable)).filter((row) => row[0]?.startsWith('Confirmation to the registrant'))
    }
    await expect
      .poll(async () => (await confirmationRows()).map((row) => [row[1], row[4]?.split(' ')[0]]))
      .toEqual([
        [bank.email, 'Sent'],
        [bank.email, 'Sent'],
      ])
    const trail = await tableRows(page, `What staff did about registration ${bank.reference}, newest first`)
    expect(trail).toEqual([[expect.any(String), OWNER.email, 'Registration mail resent', expect.stringContaining('mail: confirmation')]])
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('sends a failed e-mail again from E-mails, and the dashboard counts it until then', async () => {
    const before = await waitForMailsAbout(card, 4)
    const organiserCopy = before.find((mail) => !mail.recipients.some((address) => address === card.email || card.delegateEmails.includes(address)))
    expect(organiserCopy).toBeDefined()
    failOrganiserMail(card.reference)

    const page = await openPage(browser(), 'desktop')
    await openWithSession(page, site.baseUrl, '/admin', ownerSession)
    const outbox = page.getByRole('region', { name: 'E-mail outbox' })
    expect(await outbox.locator('dl').innerText()).toMatch(/Failed\s+1/)
    await outbox.getByRole('link', { name: 'See the failed e-mail' }).click()
    await page.getByRole('heading', { name: 'E-mails', level: 1 }).waitFor()
    await waitForHydration(page)
    const [failed] = await tableRows(page, 'Failed e-mails, newest first')
    expect(failed?.slice(0, 3)).toEqual([expect.stringContaining('New registration, to the organiser'), organiserCopy!.recipients.join(', '), card.reference])
    expect(failed?.[4]).toBe('550 5.1.1 Mailbox unavailable (9 attempts)')

    await page.getByRole('button', { name: /^Retry:/ }).click()
    await page.waitForURL((address) => address.searchParams.has('retried'))
    expect(await page.getByRole('status').innerText()).toContain('The e-mail is back in the queue')
    const after = await waitForMailsAbout(card, 5)
    expect(after[4]?.recipients).toEqual(organiserCopy!.recipients)
    expect(after[4]?.parsed.subject).toBe(organiserCopy!.parsed.subject)
    await page.reload()
    await page.getByText('No e-mail has failed.').waitFor()

    await page.goto(url(`/admin/registrations/${card.reference}`))
    const trail = await tableRows(page, `What staff did about registration ${card.reference}, newest first`)
    expect(trail).toEqual([[expect.any(String), OWNER.email, 'Outbox message retried', expect.stringContaining('status: Waiting to be sent')]])
    await page.context().close()
  })

  it('without JavaScript: marks an e-mail not known to have arrived as arrived, or sends it again, audited', async () => {
    const [arrivedTo, againTo] = bank.delegateEmails
    const arrivedId = markUncertain(bank.reference, arrivedTo!)
    markUncertain(bank.reference, againTo!)
    const copiesTo = (address: string) => sink.received.filter((mail) => mail.recipients.includes(address))
    const againBefore = copiesTo(againTo!)
    expect(againBefore).toHaveLength(1)

    // With the rows there, the page passes axe at phone width and does not scroll sideways.
    const checked = await openPage(browser(), 'phone')
    await openWithSession(checked, site.baseUrl, '/admin/emails', ownerSession)
    await waitForHydration(checked)
    await expectAccessible(checked)
    expect(await checked.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0)
    await checked.context().close()

    const page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await openWithSession(page, site.baseUrl, '/admin', ownerSession)
    const outbox = page.getByRole('region', { name: 'E-mail outbox' })
    expect(await outbox.locator('dl').innerText()).toMatch(/Not known whether they arrived\s+2/)
    await outbox.getByRole('link', { name: 'Decide about the 2 e-mails not known to have arrived' }).click()
    const rows = await tableRows(page, 'E-mails not known to have arrived, newest first')
    expect(rows.map((row) => row.slice(1, 3)).sort()).toEqual(
      [
        [arrivedTo, bank.reference],
        [againTo, bank.reference],
      ].sort(),
    )

    await page.getByRole('button', { name: new RegExp(`^It arrived: .* to ${arrivedTo!.replace(/[.]/g, '\\.')}$`) }).click()
    await page.waitForURL((address) => address.searchParams.get('settled') === 'arrived')
    expect(await page.getByRole('status').innerText()).toBe('The e-mail is recorded as sent; it will not be sent again.')
    await page.getByRole('button', { name: new RegExp(`^Send again: .* to ${againTo!.replace(/[.]/g, '\\.')}$`) }).click()
    await page.waitForURL((address) => address.searchParams.get('settled') === 'send-again')
    expect(await page.getByRole('status').innerText()).toContain('goes out again within a minute, under the same Message-ID')
    await sink.waitFor(() => copiesTo(againTo!).length === 2, 15_000)
    const [first, second] = copiesTo(againTo!)
    expect(second?.parsed.messageId).toBe(first?.parsed.messageId)
    expect(copiesTo(arrivedTo!)).toHaveLength(1)
    await page.reload()
    await page.getByText('No e-mail is uncertain.').waitFor()

    // A second decision about a settled e-mail is refused with words, changing nothing.
    const cookie = ownerSession
    const again = await fetch(url('/admin/emails'), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: site.baseUrl, 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ message: arrivedId, outcome: 'send-again' }),
    })
    expect(again.status).toBe(409)
    expect(await again.text()).toContain('Only an e-mail whose delivery is uncertain can be marked as arrived or sent again; this one is already sent.')

    await page.goto(url(`/admin/registrations/${bank.reference}`))
    const trail = await tableRows(page, `What staff did about registration ${bank.reference}, newest first`)
    expect(trail.slice(0, 2).map((row) => row[2])).toEqual(['Outbox message sent again', 'Outbox message marked arrived'])
    await page.context().close()
    // Two browser contexts, axe and two decisions: longer than one screen's test on a busy machine.
  }, 150_000)

  it('passes axe on the dashboard, the list and a registration’s page at phone width, without sideways scrolling of the page', async () => {
    const page = await openPage(browser(), 'phone')
    await openWithSession(page, site.baseUrl, '/admin', ownerSession)
    for (const pathname of ['/admin', `/admin/registrations?q=${bank.reference}`, `/admin/registrations/${bank.reference}`, '/admin/emails']) {
      await page.goto(url(pathname))
      await waitForHydration(page)
      await expectAccessible(page)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      expect(overflow, `${pathname} is wider than the phone`).toBe(0)
    }
    await page.context().close()
  })

  it('without JavaScript: filters the list through the address and resends a confirmation', async () => {
    const page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await openWithSession(page, site.baseUrl, '/admin', ownerSession)
    await page.getByRole('link', { name: 'Registrations', exact: true }).click()
    await page.getByLabel('Payment method').selectOption({ label: 'Card / EFT / GPay' })
    await page.getByRole('button', { name: 'Show registrations' }).click()
    await page.waitForURL((address) => address.searchParams.get('method') === 'card')
    expect((await tableRows(page, 'Registrations, page 1 of 1; amounts incl. VAT')).map((row) => row[0])).toEqual([card.reference])
    await page.getByLabel('Registered from').fill('2099-01-01')
    await page.getByRole('button', { name: 'Show registrations' }).click()
    await page.waitForURL((address) => address.searchParams.get('from') === '2099-01-01')
    expect(await page.getByRole('status').innerText()).toBe('No registration matches.')

    await page.goto(url('/admin/registrations?event=an-event-no-longer-in-the-content'))
    expect(await page.getByLabel('Event').inputValue()).toBe('an-event-no-longer-in-the-content')
    expect(await page.getByRole('status').innerText()).toBe('No registration matches.')

    const refused = await page.goto(url('/admin/registrations?from=yesterday'))
    expect(refused?.status()).toBe(400)
    expect(await page.getByRole('alert').innerText()).toBe('Enter the from date as YYYY-MM-DD.')

    await page.goto(url(`/admin/registrations/${card.reference}`))
    const sentBefore = mailsAbout(card).filter((mail) => mail.recipients.includes(card.email)).length
    await page.getByRole('button', { name: 'Resend confirmation' }).click()
    await page.waitForURL((address) => address.searchParams.get('resent') === 'confirmation')
    expect(await page.getByRole('status').innerText()).toContain('The confirmation is queued to be sent again')
    await sink.waitFor(() => mailsAbout(card).filter((mail) => mail.recipients.includes(card.email)).length === sentBefore + 1, 15_000)
    await page.context().close()
  })

  it('counts a card payment on the dashboard, shows its checkout on the registration’s page and resends the receipt', async () => {
    const page = await openPage(browser(), 'desktop')
    await page.goto(card.statusUrl)
    await page.getByRole('button', { name: 'Pay R 20 677.00' }).click()
    await page.waitForURL('**/payments/sandbox/*')
    await page.getByRole('button', { name: 'Pay R 20 677.00' }).click()
    await page.waitForURL('**/payment/success')
    const receiptSubject = `Payment received: registration ${card.reference}`
    await sink.waitFor((mail) => mail.parsed.subject === receiptSubject, 15_000)

    await openWithSession(page, site.baseUrl, '/admin', ownerSession)
    expect(await tableRows(page, 'Registrations, delegates and money per upcoming event, soonest first; amounts incl. VAT')).toEqual([
      [
        'Legal Opinion Writing 2025',
        '03 Jul 2025',
        '2',
        '4',
        '4 at the venue (no limit); 0 online (no limit)',
        '0',
        'R 20 677.00',
        'R 0.00',
        'R 20 677.00',
        'R 20 677.00',
      ],
    ])
    await page.goto(url(`/admin/registrations/${card.reference}`))
    await waitForHydration(page)
    const [checkout] = await tableRows(page, 'Checkouts')
    expect(checkout?.slice(2, 4)).toEqual(['sandbox', 'R 20 677.00'])
    // One statement: the invoice charged, the card payment taking it off, adding up to nothing outstanding.
    expect(await tableRows(page, /^Statement of registration/)).toEqual([
      [expect.any(String), expect.stringMatching(/^Tax invoice INV-\d{6}$/), 'R 20 677.00'],
      [expect.any(String), 'Card payment received', '-R 20 677.00'],
      ['Outstanding', 'R 0.00'],
    ])

    await page.getByRole('button', { name: 'Resend receipt' }).click()
    await page.waitForURL((address) => address.searchParams.get('resent') === 'receipt')
    expect(await page.getByRole('status').innerText()).toContain('The payment receipt is queued to be sent again')
    await sink.waitFor(() => sink.received.filter((mail) => mail.parsed.subject === receiptSubject).length === 2, 15_000)
    const receipts = sink.received.filter((mail) => mail.parsed.subject === receiptSubject)
    expect(receipts[1]?.recipients).toEqual([card.email])
    // A copy of the receipt that was sent, word for word.
    expect(receipts[1]?.parsed.text).toBe(receipts[0]?.parsed.text)
    expect(receipts[1]?.parsed.text).toContain('R 20 677.00')
    await page.context().close()
  })

  it('refuses a resend another site posted, and answers an unknown registration, e-mail or choice with a message, changing nothing', async () => {
    const cookie = ownerSession
    const post = (
      pathname: string,
      fields: Record<string, string>,
      headers: Record<string, string> = { origin: site.baseUrl, 'sec-fetch-site': 'same-origin' },
    ) => fetch(url(pathname), { method: 'POST', redirect: 'manual', headers: { cookie, ...headers }, body: new URLSearchParams(fields) })
    const confirmationsQueued = async () =>
      ((await (await fetch(url(`/admin/registrations/${bank.reference}`), { headers: { cookie } })).text()).match(/Confirmation to the registrant/g) ?? [])
        .length
    const queuedBefore = await confirmationsQueued()

    expect(
      (await post(`/admin/registrations/${bank.reference}`, { mail: 'confirmation' }, { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' }))
        .status,
    ).toBeGreaterThanOrEqual(400)
    expect((await post(`/admin/registrations/${bank.reference}`, { mail: 'confirmation' }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403)
    const unknownMail = await post(`/admin/registrations/${bank.reference}`, { mail: 'invoice' })
    expect(unknownMail.status).toBe(400)
    expect(await unknownMail.text()).toContain('Choose one of the options offered.')
    const unpaidReceipt = await post(`/admin/registrations/${bank.reference}`, { mail: 'receipt' })
    expect(unpaidReceipt.status).toBe(409)
    expect(await unpaidReceipt.text()).toContain('the registration is not paid in full yet')
    expect(await confirmationsQueued()).toBe(queuedBefore)

    const unknownMessage = await post('/admin/emails', { message: 'no-such-message' })
    expect(unknownMessage.status).toBe(404)
    expect(await unknownMessage.text()).toContain('That e-mail does not exist (any more). Reload the list of e-mails.')
    const missing = await fetch(url('/admin/registrations/ZZZZ9999'), { headers: { cookie } })
    expect(missing.status).toBe(404)
    expect(await missing.text()).toContain('Nothing is at this address in the back office.')
    expect((await fetch(url('/admin/registrations/ZZZZ9999/invoice.pdf'), { headers: { cookie } })).status).toBe(404)
  })

  it('pages through a filtered list, the filters kept in the next and previous links', async () => {
    // With the bank registration already there, 25 more make 26 bank transfers: a page of 25 and a page of 1.
    const more: Registered[] = []
    for (let index = 0; index < 25; index += 1)
      more.push(await register({ delegates: [{ name: `Delegate ${index}`, position: 'Clerk', email: `delegate-${index}@paging.test` }] }))
    const page = await openPage(browser(), 'phone', { javaScriptEnabled: false })
    await openWithSession(page, site.baseUrl, '/admin', ownerSession)
    await page.goto(url('/admin/registrations?method=Bank+Transfer'))
    expect(await page.getByRole('status').innerText()).toBe('26 registrations match, newest first; page 1 of 2.')
    expect((await tableRows(page, 'Registrations, page 1 of 2; amounts incl. VAT')).map((row) => row[0])).toEqual(
      more.map((registration) => registration.reference).reverse(),
    )
    expect(await page.getByRole('link', { name: 'Previous page' }).count()).toBe(0)

    await page.getByRole('link', { name: 'Next page' }).click()
    await page.waitForURL((address) => address.searchParams.get('page') === '2' && address.searchParams.get('method') === 'bank-transfer')
    expect((await tableRows(page, 'Registrations, page 2 of 2; amounts incl. VAT')).map((row) => row[0])).toEqual([bank.reference])
    expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0)
    await page.getByRole('link', { name: 'Previous page' }).click()
    await page.waitForURL((address) => !address.searchParams.has('page') && address.searchParams.get('method') === 'bank-transfer')
    await page.getByRole('table', { name: 'Registrations, page 1 of 2; amounts incl. VAT' }).waitFor()
    await page.context().close()
  })
})
