// The back office's writing screens and delegate lists over real HTTP against the built site: what each refusal
// answers and that it changes nothing, the cross-site guard, changes after an event started (a second instance on the
// same data, its business clock after the event's start), the downloads' types and file names, and the audit log.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStaffAccount, signInCookie, type StaffAccount } from '../support/admin.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts'
import { pdftotext } from '../../packages/core/src/test-support.ts'

const OWNER: StaffAccount = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner', password: 'a long enough olu passphrase' }
const STAFF: StaffAccount = { email: 'sipho@example.com', name: 'Sipho Staff', role: 'staff', password: 'a long enough staff password' }

let sink: SmtpSink
let dataDir: string
let site: RunningSite
/** The same data as `site`, on 3 July 2025 at 10:00, after Legal Opinion Writing 2025 began. */
let duringEvent: RunningSite
let staffCookie: string
let ownerCookie: string

beforeAll(async () => {
  sink = await startSmtpSink()
  dataDir = mkdtempSync(path.join(tmpdir(), 'events-admin-actions-'))
  await createStaffAccount(dataDir, OWNER)
  await createStaffAccount(dataDir, STAFF)
  const env = { DATA_DIR: dataDir, SMTP_URL: sink.url, FORM_RATE_LIMIT: '0' }
  site = await startSite({ env })
  duringEvent = await startSite({ env: { ...env, SITE_DATE: '2025-07-03T10:00:00+02:00' } })
  staffCookie = await signInCookie(site.baseUrl, STAFF)
  ownerCookie = await signInCookie(site.baseUrl, OWNER)
})
afterAll(async () => {
  await duringEvent?.stop()
  await site?.stop()
  await sink?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

/** A Legal Opinion registration by bank transfer: venue, two delegates, R 20 677.00 incl. VAT. */
async function register(): Promise<RegistrationReceipt & { body: ReturnType<typeof registrationBody> }> {
  const body = registrationBody()
  const response = await fetch(`${site.baseUrl}/api/registrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status).toBe(201)
  return { ...((await response.json()) as RegistrationReceipt), body }
}

/** A form post as the back office's own page sends it, unless `headers` say otherwise. */
function post(
  pathname: string,
  fields: Record<string, string>,
  { base = site.baseUrl, cookie = staffCookie, headers }: { base?: string; cookie?: string; headers?: Record<string, string> } = {},
) {
  return fetch(`${base}${pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: headers ?? { cookie, origin: base, 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams(fields),
  })
}

/** A page's text as a reader sees it: tags dropped, React's entities read back. */
async function pageText(response: Response): Promise<string> {
  const html = await response.text()
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
}

async function paymentPage(reference: string): Promise<string> {
  const response = await fetch(`${site.baseUrl}/admin/registrations/${reference}/payments/new`, { headers: { cookie: staffCookie } })
  expect(response.status).toBe(200)
  return pageText(response)
}

// Received on the site's day (SITE_DATE), the day the registrations are made: a transfer dated before its registration is refused.
const transfer = (overrides: Record<string, string> = {}) => ({ amount: '1 000.00', receivedOn: '2025-03-01', bankReference: 'FNB 1', note: '', ...overrides })

describe('recording a bank transfer', () => {
  it('shows the registration, what is paid and outstanding, and today in Johannesburg by the business clock', async () => {
    const { reference, body } = await register()
    const text = await paymentPage(reference)
    expect(text).toContain(`Reference ${reference}`)
    expect(text).toContain(`Company ${body.companyName}`)
    expect(text).toContain('Total incl. VAT R 20 677.00')
    expect(text).toContain('Paid so far R 0.00')
    expect(text).toContain('Outstanding R 20 677.00')
    const html = await (await fetch(`${site.baseUrl}/admin/registrations/${reference}/payments/new`, { headers: { cookie: staffCookie } })).text()
    expect(html).toMatch(/name="receivedOn"[^>]*value="2025-03-01"|value="2025-03-01"[^>]*name="receivedOn"/)
  })

  it('refuses a malformed amount beside the field, keeps what was typed, and records nothing', async () => {
    const { reference } = await register()
    const response = await post(
      `/admin/registrations/${reference}/payments/new`,
      transfer({ amount: 'eight thousand', bankReference: 'Typed ref 77', note: 'Kept note' }),
    )
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(html).toMatch(/<input(?=[^>]*name="amount")(?=[^>]*aria-invalid="true")[^>]*>/)
    expect(html).toContain('<p class="form__error" id="field-amount-error">Enter the amount in rand as on the bank statement, e.g. 8 990.00.</p>')
    expect(html).toContain('value="eight thousand"')
    expect(html).toContain('value="Typed ref 77"')
    expect(html).toContain('Kept note')
    expect(await paymentPage(reference)).toContain('Paid so far R 0.00')
  })

  it('records more than is owed in full: the registration paid, the surplus owed back', async () => {
    const { reference } = await register()
    const response = await post(`/admin/registrations/${reference}/payments/new`, transfer({ amount: 'R 30,000.00', bankReference: 'TOO MUCH 1' }))
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`/admin/registrations/${reference}?recorded=surplus`)
    const text = await paymentPage(reference)
    expect(text).toContain('Paid so far R 30 000.00')
    expect(text).toContain('Outstanding R 0.00')
  })

  it('records a part payment, then refuses the same bank reference however it is typed, and records the rest', async () => {
    const { reference, body } = await register()
    const part = await post(`/admin/registrations/${reference}/payments/new`, transfer({ amount: '8 990', bankReference: 'Capitec 4411' }))
    expect(part.status).toBe(302)
    expect(part.headers.get('location')).toBe(`/admin/registrations/${reference}?recorded=payment`)
    let text = await paymentPage(reference)
    expect(text).toContain('Paid so far R 8 990.00')
    expect(text).toContain('Outstanding R 11 687.00')

    const again = await post(`/admin/registrations/${reference}/payments/new`, transfer({ amount: '100', bankReference: ' capitec   4411 ' }))
    expect(again.status).toBe(409)
    const refusal = await again.text()
    expect(refusal).toMatch(/<input(?=[^>]*name="bankReference")(?=[^>]*aria-invalid="true")[^>]*>/)
    expect(refusal).toContain(`This bank reference was already recorded (registration ${reference}, received 2025-03-01). A transfer is recorded once.`)
    expect(await paymentPage(reference)).toContain('Outstanding R 11 687.00')

    const rest = await post(`/admin/registrations/${reference}/payments/new`, transfer({ amount: 'R 11,687.00', bankReference: 'Capitec 4412' }))
    expect(rest.status).toBe(302)
    text = await paymentPage(reference)
    expect(text).toContain('Outstanding R 0.00')
    expect(text).toContain('This registration is paid in full; nothing is outstanding.')
    const receipt = await sink.waitFor(
      (mail) => mail.recipients.includes(body.email) && mail.parsed.subject === `Payment received: registration ${reference}`,
      15_000,
    )
    expect(receipt.parsed.attachments.map(({ contentType, filename }) => [contentType, filename])).toEqual([
      ['application/pdf', expect.stringMatching(/INV-\d+/)],
    ])

    const log = await pageText(await fetch(`${site.baseUrl}/admin/audit`, { headers: { cookie: ownerCookie } }))
    expect(log).toContain(`sipho@example.com Registration payment recorded registration ${reference}`)
  })

  it('refuses a post another site made the browser send, and records nothing', async () => {
    const { reference } = await register()
    const pathname = `/admin/registrations/${reference}/payments/new`
    const crossSite = await post(pathname, transfer({ bankReference: 'CROSS 1' }), {
      headers: { cookie: staffCookie, origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' },
    })
    expect(crossSite.status).toBeGreaterThanOrEqual(400)
    const noOrigin = await post(pathname, transfer({ bankReference: 'CROSS 2' }), { headers: { cookie: staffCookie } })
    expect(noOrigin.status).toBe(403)
    expect(await paymentPage(reference)).toContain('Paid so far R 0.00')
  })

  it('answers 404 for a reference that does not exist', async () => {
    const response = await fetch(`${site.baseUrl}/admin/registrations/NOSUCH99/payments/new`, { headers: { cookie: staffCookie } })
    expect(response.status).toBe(404)
    expect(await pageText(response)).toContain('Not found Nothing is at this address in the back office.')
  })
})

describe('changing a delegate and the company details', () => {
  it('refuses a delegate without a name or with a malformed address beside each field, and changes nothing', async () => {
    const { reference, body } = await register()
    const response = await post(`/admin/registrations/${reference}/delegates/2`, { name: '', position: 'Paralegal', email: 'not an address' })
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(html).toContain('Nothing was changed. Correct the field marked below and send the form again.')
    expect(html).toContain('<p class="form__error" id="field-name-error">Name is required</p>')
    expect(html).toContain('<p class="form__error" id="field-email-error">Enter a valid e-mail address.</p>')
    const page = await pageText(await fetch(`${site.baseUrl}/admin/registrations/${reference}/delegates/2`, { headers: { cookie: staffCookie } }))
    expect(page).toContain('Replace Pieter Botha')
    expect(page).not.toContain(body.email.replace('bookings', 'nobody'))
  })

  it('replaces a delegate, whose successor gets the delegate’s confirmation, and records it in the audit log', async () => {
    const { reference } = await register()
    const successor = `naledi-${reference.toLowerCase()}@acme.test`
    const response = await post(`/admin/registrations/${reference}/delegates/2`, { name: 'Naledi Khumalo', position: 'Senior Paralegal', email: successor })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`/admin/registrations/${reference}?recorded=delegate`)
    const notice = await sink.waitFor((mail) => mail.recipients.includes(successor), 15_000)
    expect(notice.parsed.text).toContain('Naledi Khumalo')
    const log = await pageText(await fetch(`${site.baseUrl}/admin/audit`, { headers: { cookie: ownerCookie } }))
    expect(log).toContain(`sipho@example.com Registration delegate changed registration ${reference}`)
  })

  it('answers 404 for a delegate the registration does not have', async () => {
    const { reference } = await register()
    for (const delegate of ['3', '0', 'first']) {
      const response = await fetch(`${site.baseUrl}/admin/registrations/${reference}/delegates/${delegate}`, { headers: { cookie: staffCookie } })
      expect(response.status, delegate).toBe(404)
    }
  })

  it('corrects the company details, and refuses a VAT number SARS would not have issued beside its field', async () => {
    const { reference } = await register()
    const details = {
      companyName: 'Acme Legal (Pty) Ltd',
      address: '2 Side Road\nSandton',
      email: 'accounts@acme.test',
      tel: '+27 11 555 0199',
      vatNumber: '5999999999',
      purchaseOrderNumber: 'PO-7781',
    }
    // Correcting what the tax invoice names is a manager's: staff are refused.
    expect((await post(`/admin/registrations/${reference}/company`, { ...details, vatNumber: '4999999999' })).status).toBe(403)
    expect((await fetch(`${site.baseUrl}/admin/registrations/${reference}/company`, { headers: { cookie: staffCookie } })).status).toBe(403)
    const refused = await post(`/admin/registrations/${reference}/company`, details, { cookie: ownerCookie })
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain(
      '<p class="form__error" id="field-vatNumber-error">Enter the VAT number as SARS issued it: 10 digits starting with 4, e.g. 4123456789.</p>',
    )
    const corrected = await post(`/admin/registrations/${reference}/company`, { ...details, vatNumber: '4999999999' }, { cookie: ownerCookie })
    expect(corrected.status).toBe(302)
    expect(corrected.headers.get('location')).toBe(`/admin/registrations/${reference}?recorded=company`)
    const page = await (await fetch(`${site.baseUrl}/admin/registrations/${reference}/company`, { headers: { cookie: ownerCookie } })).text()
    expect(page).toContain('value="Acme Legal (Pty) Ltd"')
    expect(page).toContain('value="4999999999"')
    expect(page).toContain('value="PO-7781"')

    // Then the invoice is corrected: a credit note and a new tax invoice naming the details, both e-mailed.
    const correction = await post(`/admin/registrations/${reference}/company`, { intent: 'correct-invoice' }, { cookie: ownerCookie })
    expect(correction.status).toBe(302)
    expect(correction.headers.get('location')).toBe(`/admin/registrations/${reference}?recorded=invoice-corrected`)
    const mail = await sink.waitFor(
      (received) => received.parsed.subject?.startsWith('Corrected tax invoice') === true && received.parsed.subject.endsWith(reference),
    )
    expect(mail.recipients).toEqual(['accounts@acme.test'])
    expect(mail.parsed.attachments.map((attachment) => attachment.filename)).toEqual([
      expect.stringMatching(/^credit-note-CN-\d{6}\.pdf$/),
      expect.stringMatching(/^tax-invoice-INV-\d{6}\.pdf$/),
    ])
    const again = await post(`/admin/registrations/${reference}/company`, { intent: 'correct-invoice' }, { cookie: ownerCookie })
    expect(again.status).toBe(409)
  })

  it('refuses another person and the company once the event has started (a name may still be corrected), and says so on the page', async () => {
    const { reference, body } = await register()
    const cookie = await signInCookie(duringEvent.baseUrl, STAFF)
    const page = await fetch(`${duringEvent.baseUrl}/admin/registrations/${reference}/delegates/1`, { headers: { cookie } })
    const pageHtml = await pageText(page)
    expect(pageHtml).toContain(`Legal Opinion Writing 2025 has started: another person can no longer take ${body.delegates[0]!.name}’s place`)
    expect(pageHtml).not.toContain(`Replace ${body.delegates[0]!.name}`)

    const delegate = await post(
      `/admin/registrations/${reference}/delegates/1`,
      { name: 'Late Comer', position: 'Clerk', email: 'late@acme.test' },
      { base: duringEvent.baseUrl, cookie },
    )
    expect(delegate.status).toBe(409)
    expect(await pageText(delegate)).toContain('The event has started: only the name and position of a delegate can still be corrected.')
    const company = await post(
      `/admin/registrations/${reference}/company`,
      { companyName: 'Too Late Ltd', address: 'x', email: 'x@acme.test', tel: '011 555 0100', vatNumber: '' },
      { base: duringEvent.baseUrl, cookie: ownerCookie },
    )
    expect(company.status).toBe(409)
    const unchanged = await pageText(await fetch(`${site.baseUrl}/admin/registrations/${reference}/delegates/1`, { headers: { cookie: staffCookie } }))
    expect(unchanged).toContain(`Replace ${body.delegates[0]!.name}`)
  })
})

describe('the delegate lists', () => {
  it('lists the event with its delegates and serves the CSV, the workbook and the attendance register with their types and names', async () => {
    const { reference, body } = await register()
    const events = await pageText(await fetch(`${site.baseUrl}/admin/events`, { headers: { cookie: staffCookie } }))
    expect(events).toMatch(
      /Legal Opinion Writing 2025 3–4 July 2025 \d+ in \d+ registrations Seats: \d+ at the venue \(no limit\); \d+ online \(no limit\) Waiting list: 0 CSV Excel Check-in Joining instructions Messages to delegates Certificates Attendance register \(PDF\)/,
    )

    const csv = await fetch(`${site.baseUrl}/admin/events/event-legal-opinion/delegates.csv`, { headers: { cookie: staffCookie } })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="legalOpinion-delegates.csv"')
    expect(csv.headers.get('cache-control')).toBe('no-store')
    const bytes = Buffer.from(await csv.arrayBuffer())
    // The byte-order mark makes Excel read UTF-8; fetch's text() would drop it.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const rows = bytes.subarray(3).toString('utf8').split('\r\n')
    expect(rows[0]).toBe('Reference,Company,Delegate,Position,Professional registration number,E-mail,Option,Payment status')
    // No professional registration number was given: its column is empty.
    expect(rows).toContain(`${reference},${body.companyName},Thandi Mokoena,Attorney,,${body.delegates[0]!.email},Venue,Awaiting payment`)

    const xlsx = await fetch(`${site.baseUrl}/admin/events/event-legal-opinion/delegates.xlsx`, { headers: { cookie: staffCookie } })
    expect(xlsx.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(xlsx.headers.get('content-disposition')).toBe('attachment; filename="legalOpinion-delegates.xlsx"')
    expect(
      Buffer.from(await xlsx.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK')

    const pdf = await fetch(`${site.baseUrl}/admin/events/event-legal-opinion/attendance-register.pdf`, { headers: { cookie: staffCookie } })
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.headers.get('content-disposition')).toBe('inline; filename="legalOpinion-attendance-register.pdf"')
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')

    expect((await fetch(`${site.baseUrl}/admin/events/event-board-management/delegates.csv`, { headers: { cookie: staffCookie } })).status).toBe(404)
    const log = await pageText(await fetch(`${site.baseUrl}/admin/audit`, { headers: { cookie: ownerCookie } }))
    expect(log).toContain('sipho@example.com Delegate list downloaded event event-legal-opinion')
  })

  it('sends an anonymous download to sign in', async () => {
    const response = await fetch(`${site.baseUrl}/admin/events/event-legal-opinion/delegates.csv`, { redirect: 'manual' })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`/admin/sign-in?redirectTo=${encodeURIComponent('/admin/events/event-legal-opinion/delegates.csv')}`)
  })
})

describe('the Overdue list', () => {
  it('lists an unpaid registration past its due date with its days and amount, and reminds it on request', async () => {
    // Registered on the site's day (1 March 2025): due on 6 March; on 3 July it is 119 days overdue.
    const { reference } = await register()
    const cookie = await signInCookie(duringEvent.baseUrl, STAFF)
    const list = await fetch(`${duringEvent.baseUrl}/admin/overdue`, { headers: { cookie } })
    expect(list.status).toBe(200)
    const row = (await pageText(list)).split(reference)[1] ?? ''
    expect(row.replace(/ ;/g, ';').replace(/ ,/g, ',')).toMatch(
      /^ Legal Opinion Writing 2025; INV-\d{6}, due 2025-03-06 119 90 days and more R\s20\s677\.00 Acme Legal /,
    )
    const reminded = await post('/admin/overdue', { reference }, { base: duringEvent.baseUrl, cookie })
    expect(reminded.status).toBe(200)
    expect(await pageText(reminded)).toContain(`A payment reminder for R 20 677.00 is on its way to registration ${reference}.`)
    const mail = await sink.waitFor((received) => received.parsed.subject === `Payment reminder: R 20 677.00 owed for registration ${reference}`)
    expect(mail.parsed.text).toContain('Amount owed: R 20 677.00')
    const registrationPage = await pageText(await fetch(`${site.baseUrl}/admin/registrations/${reference}`, { headers: { cookie: staffCookie } }))
    expect(registrationPage).toContain('R 20 677.00 owed, sent by Sipho Staff')
  })
})

describe('statements of account', () => {
  it('shows a company its registrations with what is owed, as a page and a PDF, and e-mails it on request', async () => {
    const { reference, body } = await register()
    const page = await pageText(
      await fetch(`${site.baseUrl}/admin/statements?company=${encodeURIComponent(body.companyName.toUpperCase())}`, { headers: { cookie: staffCookie } }),
    )
    expect(page).toContain('R 20 677.00 owed')
    expect(page).toContain(reference)
    const pdf = await fetch(`${site.baseUrl}/admin/statements/statement.pdf?company=${encodeURIComponent(body.companyName)}`, {
      headers: { cookie: staffCookie },
    })
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    const text = pdftotext(new Uint8Array(await pdf.arrayBuffer()))
    expect(text).toContain('Statement of account')
    expect(text).toContain('Amount owed R 20 677.00')
    const sent = await post('/admin/statements', { companyName: body.companyName })
    expect(sent.status).toBe(200)
    const mail = await sink.waitFor((received) => received.parsed.subject === `Statement of account: ${body.companyName}, 1 March 2025`)
    expect(mail.recipients).toEqual([body.email])
  })
})
