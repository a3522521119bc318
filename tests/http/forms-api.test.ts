// The registration, contact and training-request endpoints and the registrant's status page over real HTTP,
// against the built site with its e-mails delivered to a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, recordBankTransfer } from '../../packages/core/src/index.ts'
import { staffAuditWriter } from '../../packages/staff/src/index.ts'
import { fixedCatalog } from '../../packages/core/src/test-support.ts'
import { createSiteLinks } from '../../apps/site/app/lib/site-links.ts'
import { OUTBOX_METRICS_TOKEN, waitForEmptyOutbox } from '../support/outbox.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'
import { onSite, registrationBody } from '../support/registrations.ts'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts'

const ORGANISER = 'bookings@organiser.test'
const RATE_LIMIT = 3

let site: RunningSite
let closedSite: RunningSite
let sink: SmtpSink

beforeAll(async () => {
  sink = await startSmtpSink()
  // 10 April 2025: every event open, the Board Management early-bird (31 March) over, the others' (25 April) not.
  ;[site, closedSite] = await Promise.all([
    startSite({
      env: {
        SMTP_URL: sink.url,
        ORGANISER_EMAIL: ORGANISER,
        FORM_RATE_LIMIT: String(RATE_LIMIT),
        SITE_DATE: '2025-04-10T09:00:00+02:00',
        METRICS_TOKEN: OUTBOX_METRICS_TOKEN,
      },
    }),
    // 1 July 2025: the June workshops have started, so their registration is closed.
    startSite({ env: { SMTP_URL: sink.url, SITE_DATE: '2025-07-01T09:00:00+02:00' } }),
  ])
})

afterAll(async () => {
  await Promise.all([site?.stop(), closedSite?.stop()])
  await sink?.stop()
})

// Every test posts from its own address (the server trusts X-Forwarded-For from loopback), so the per-IP limit
// of one test never refuses another's posts.
let nextAddress = 1
function freshAddress(): string {
  nextAddress += 1
  return `198.51.100.${nextAddress}`
}

/** A receipt, an accepted enquiry or an error body: the fields the tests read. */
interface AnswerBody {
  reference: string
  statusUrl: string
  id: string
  error: { code: string; message: string; fields: Record<string, string> }
  [field: string]: unknown
}

interface PostOptions {
  ip?: string
  headers?: Record<string, string>
  base?: string
}

async function postJson(path: string, body: unknown, { ip = freshAddress(), headers = {}, base = site.baseUrl }: PostOptions = {}) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  return { response, status: response.status, json: text.startsWith('{') ? (JSON.parse(text) as AnswerBody) : undefined, text }
}

describe('POST /api/registrations', () => {
  it('answers 201 with the receipt, priced on the server whatever total the client sent', async () => {
    const body = registrationBody({ totalPrice: '1.00' })
    const { status, json, response } = await postJson('/api/registrations', body)
    expect(status).toBe(201)
    // Legal Opinion venue: 2 × R8 990 = R17 980 + 15% VAT = R20 677.00.
    expect(json).toMatchObject({ total: '20677.00', totalCents: 2_067_700, currency: 'ZAR', status: 'awaiting-payment' })
    expect(json!.reference).toMatch(/^[A-Z0-9]{6,}$/)
    expect(json!.statusUrl).toMatch(new RegExp(`/registrations/${json!.reference}/[\\w-]+$`))
    expect(response.headers.get('location')).toBe(json!.statusUrl)

    const organiserMail = await sink.waitFor((mail) => mail.recipients.includes(ORGANISER) && mail.parsed.subject?.includes(json!.reference) === true)
    expect(organiserMail.parsed.subject).toBe(`Legal Opinion Delegate Registration ${json!.reference}`)
    expect(organiserMail.parsed.replyTo?.text).toContain(body.email)
    expect(organiserMail.parsed.text).toContain(body.companyName)
    expect(organiserMail.parsed.text).toContain('Thandi Mokoena')

    const confirmation = await sink.waitFor((mail) => mail.recipients.includes(body.email))
    expect(confirmation.parsed.subject).toContain(json!.reference)
    expect(confirmation.parsed.text).toContain('20')
    const delegateNotice = await sink.waitFor((mail) => mail.recipients.includes(body.delegates[1]!.email))
    expect(delegateNotice.parsed.subject).toContain('Legal Opinion Writing')
  })

  it('answers 422 with the specification’s message and each missing field', async () => {
    const { status, json } = await postJson(
      '/api/registrations',
      registrationBody({ companyName: '', delegates: [{ name: 'A', position: '', email: 'a@acme.test' }] }),
    )
    expect(status).toBe(422)
    expect(json).toEqual({
      error: {
        code: 'missing-fields',
        message: 'Please fill in all required fields before submitting.',
        fields: { companyName: 'Company name is required', 'delegates.0.position': 'Position is required' },
      },
    })
  })

  it('leads an unticked legal agreement with the specification’s required-fields message', async () => {
    const { status, json } = await postJson('/api/registrations', registrationBody({ legalAgreement: false }))
    expect(status).toBe(422)
    expect(json!.error).toEqual({
      code: 'missing-fields',
      message: 'Please fill in all required fields before submitting.',
      fields: { legalAgreement: 'Please accept the terms and conditions before submitting.' },
    })
  })

  it('refuses more delegates than a table admits, an option the event does not offer, and an early-bird after its date', async () => {
    const delegates = Array.from({ length: 6 }, (_, index) => ({ name: `D${index}`, position: 'Manager', email: `d${index}@acme.test` }))
    const table = await postJson('/api/registrations', registrationBody({ event: 'Resilience', code: 'RES2025', attendanceOption: 'table-5', delegates }))
    expect(table.status).toBe(422)
    expect(table.json!.error.fields.delegates).toBe('You can only add up to 5 delegates for this option.')

    const notOffered = await postJson('/api/registrations', registrationBody({ attendanceOption: 'table-10' }))
    expect(notOffered.status).toBe(422)
    expect(notOffered.json!.error.code).toBe('option-not-offered')

    const lateEarlyBird = await postJson('/api/registrations', registrationBody({ event: 'boardManagement', code: 'BMG2025', attendanceOption: 'early-bird' }))
    expect(lateEarlyBird.status).toBe(409)
    expect(lateEarlyBird.json!.error.code).toBe('option-unavailable')
  })

  it('answers 409 once registration has closed and 404 for an unknown event', async () => {
    const closed = await postJson('/api/registrations', registrationBody({ event: 'boardManagement', code: 'BMG2025' }), { base: closedSite.baseUrl })
    expect(closed.status).toBe(409)
    expect(closed.json!.error).toMatchObject({ code: 'registration-closed', message: 'Registration for this event has closed.' })
    const unknown = await postJson('/api/registrations', registrationBody({ event: 'no-such-event' }))
    expect(unknown.status).toBe(404)
    expect(unknown.json!.error.code).toBe('unknown-event')
  })

  it('makes one registration for one Idempotency-Key, and refuses the key with different details', async () => {
    const body = registrationBody()
    const key = `key-${Math.random()}`
    const ip = freshAddress()
    const first = await postJson('/api/registrations', body, { ip, headers: { 'idempotency-key': key } })
    const second = await postJson('/api/registrations', body, { ip, headers: { 'idempotency-key': key } })
    expect(first.status).toBe(201)
    expect(second.status).toBe(201)
    expect(second.json!.reference).toBe(first.json!.reference)
    const changed = await postJson('/api/registrations', { ...body, companyName: 'Someone Else' }, { ip, headers: { 'idempotency-key': key } })
    expect(changed.status).toBe(409)
    expect(changed.json!.error.code).toBe('idempotency-conflict')
  })

  it('pretends to accept a filled honeypot and stores and sends nothing', async () => {
    const body = registrationBody({ honeypot: 'http://spam.example' })
    const { status, json } = await postJson('/api/registrations', body)
    expect(status).toBe(201)
    const page = await fetch(onSite(json!.statusUrl, site.baseUrl), { headers: { accept: 'application/json' } })
    expect(page.status).toBe(404)
    await waitForEmptyOutbox(site)
    expect(sink.received.some((mail) => mail.recipients.includes(body.email))).toBe(false)
  })
})

describe('refused requests', () => {
  it.each([['/api/registrations'], ['/api/contact'], ['/api/training-requests']])(
    '%s: 413 over 100 KB, 415 for another content type, 400 for malformed JSON, all with the error body',
    async (path) => {
      const large = await postJson(path, JSON.stringify({ message: 'x'.repeat(101 * 1024) }))
      expect(large.status).toBe(413)
      expect(large.json!.error.code).toBe('payload-too-large')

      const wrongType = await postJson(path, 'fullName=A', { headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      expect(wrongType.status).toBe(415)
      expect(wrongType.json!.error).toEqual({ code: 'unsupported-media-type', message: expect.any(String), fields: {} })

      const malformed = await postJson(path, '{"fullName": ')
      expect(malformed.status).toBe(400)
      expect(malformed.json!.error.code).toBe('invalid-request')

      for (const junk of ['null', '[]', '"text"', '42', '{"__proto__": {"x": 1}}', '{"delegates": "none", "event": ["x"]}']) {
        const answer = await postJson(path, junk)
        expect(answer.status, `${path} with ${junk}`).toBeGreaterThanOrEqual(400)
        expect(answer.status, `${path} with ${junk}`).toBeLessThan(500)
        expect(answer.json!.error.code).toEqual(expect.any(String))
      }
    },
  )

  it('a page form post over 100 KB gets 413 and one of another type 415', async () => {
    const large = await fetch(`${site.baseUrl}/?index`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': freshAddress() },
      body: `message=${'x'.repeat(101 * 1024)}`,
    })
    expect(large.status).toBe(413)
    const json = await fetch(`${site.baseUrl}/?index`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshAddress() },
      body: '{}',
    })
    expect(json.status).toBe(415)
  })

  it(`answers 429 with a clear message after ${RATE_LIMIT} posts a minute from one address, for the API and the forms alike`, async () => {
    const ip = freshAddress()
    for (let post = 0; post < RATE_LIMIT; post++) {
      expect((await postJson('/api/contact', {}, { ip })).status).toBe(422)
    }
    const refused = await postJson('/api/contact', {}, { ip })
    expect(refused.status).toBe(429)
    expect(refused.response.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(refused.json!.error.message).toBe('Too many submissions from your connection. Please wait a minute and try again.')

    const formIp = freshAddress()
    const form = new URLSearchParams({ fullName: '', email: '', phone: '', interest: '', message: '' })
    let last: Response | undefined
    for (let post = 0; post <= RATE_LIMIT; post++) {
      last = await fetch(`${site.baseUrl}/?index`, { method: 'POST', headers: { 'x-forwarded-for': formIp }, body: form })
    }
    expect(last!.status).toBe(429)
    expect(await last!.text()).toContain('Too many submissions from your connection. Please wait a minute and try again.')
  })
})

describe('POST /api/contact and /api/training-requests', () => {
  it('stores an enquiry, answers 201 and mails the organiser (reply-to the sender) and the sender', async () => {
    const email = `enquirer-${Math.random().toString(36).slice(2, 8)}@client.test`
    const { status, json } = await postJson('/api/contact', {
      fullName: 'Naledi Dlamini',
      companyName: '',
      email,
      phone: '+27 82 555 0101',
      interest: 'Sponsership',
      message: 'We would like to sponsor the PFAS conference.',
    })
    expect(status).toBe(201)
    expect(json!.id).toEqual(expect.any(String))
    const organiserMail = await sink.waitFor((mail) => mail.recipients.includes(ORGANISER) && mail.parsed.replyTo?.text.includes(email) === true)
    expect(organiserMail.parsed.subject).toBe('Website enquiry: Sponsorship')
    expect(organiserMail.parsed.text).toContain('We would like to sponsor the PFAS conference.')
    const acknowledgement = await sink.waitFor((mail) => mail.recipients.includes(email))
    expect(acknowledgement.parsed.subject).toContain('Thank you for contacting')
    expect(acknowledgement.parsed.text).not.toContain('Naledi')
    expect(acknowledgement.parsed.text).not.toContain('PFAS')
  })

  it('answers 422 to a contact enquiry with a message naming each missing field', async () => {
    const { status, json } = await postJson('/api/contact', { fullName: 'Naledi Dlamini', email: 'naledi@client.test', interest: 'Conference' })
    expect(status).toBe(422)
    expect(json!.error).toEqual({
      code: 'missing-fields',
      message: 'Please fill in all required fields before submitting.',
      fields: { phone: 'Phone is required', message: 'Message is required' },
    })
  })

  it('answers 422 with the training request’s own messages', async () => {
    const { status, json } = await postJson('/api/training-requests', { kind: 'online' })
    expect(status).toBe(422)
    expect(json!.error.message).toBe('Please fill in all required fields before submitting.')
    expect(json!.error.fields).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      phone: 'Phone is required',
      organization: 'Organization is required',
      message: 'Message is required',
    })
  })

  it('stores a training request and mails the organiser', async () => {
    const email = `trainee-${Math.random().toString(36).slice(2, 8)}@client.test`
    const { status } = await postJson('/api/training-requests', {
      kind: 'inhouse',
      name: 'Sipho Nkosi',
      email,
      phone: '+27 11 555 0102',
      organization: 'City Water',
      message: 'Governance training for 20 managers',
    })
    expect(status).toBe(201)
    const organiserMail = await sink.waitFor((mail) => mail.recipients.includes(ORGANISER) && mail.parsed.replyTo?.text.includes(email) === true)
    expect(organiserMail.parsed.subject).toBe('In-house training request')
    expect(organiserMail.parsed.text).toContain('City Water')
  })
})

describe('the status URL', () => {
  it('answers JSON to Accept: application/json and a private, unindexed page to browsers', async () => {
    const { json: receipt } = await postJson('/api/registrations', registrationBody({ paymentMethod: 'Bank Transfer' }))
    const statusUrl = onSite(receipt!.statusUrl, site.baseUrl)

    const asJson = await fetch(statusUrl, { headers: { accept: 'application/json' } })
    expect(asJson.status).toBe(200)
    expect(asJson.headers.get('cache-control')).toBe('private, no-store')
    expect(await asJson.json()).toEqual({
      reference: receipt!.reference,
      status: 'awaiting-payment',
      event: expect.objectContaining({ slug: 'legalOpinion', title: 'Legal Opinion Writing 2025' }),
      total: '20677.00',
      totalCents: 2_067_700,
      paidCents: 0,
      outstandingCents: 2_067_700,
      currency: 'ZAR',
      paymentMethod: 'bank-transfer',
      delegates: [expect.objectContaining({ name: 'Thandi Mokoena' }), expect.objectContaining({ name: 'Pieter Botha' })],
    })

    const asHtml = await fetch(statusUrl, { headers: { accept: 'text/html' } })
    expect(asHtml.status).toBe(200)
    expect(asHtml.headers.get('cache-control')).toBe('private, no-store')
    expect(asHtml.headers.get('x-robots-tag')).toBe('noindex')
    const html = await asHtml.text()
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>')
    expect(html).toContain(receipt!.reference)
    expect(html).toContain('What happens next')
    expect(html).toContain('Branch code')

    const wrongSecret = await fetch(`${statusUrl.replace(/\/[^/]+$/, '/not-the-secret')}`, { headers: { accept: 'application/json' } })
    expect(wrongSecret.status).toBe(404)
  })

  it('shows a bank transfer short of the total as part-paid, with what was received and what is still to pay', async () => {
    const { json: receipt } = await postJson('/api/registrations', registrationBody({ paymentMethod: 'Bank Transfer' }))
    const statusUrl = onSite(receipt!.statusUrl, site.baseUrl)
    // Recorded as the back office does, on the site's own SQLite database, once the site has sent the registration's
    // e-mails: a second writer whose transaction overlaps the outbox's updates gets SQLITE_BUSY at once.
    await waitForEmptyOutbox(site)
    const db = await openDatabase({ dataDir: site.dataDir })
    try {
      // The site's own audit log (the staff package's) takes the command's row, as the back office's screens write it.
      const context = { db, catalog: fixedCatalog(), links: createSiteLinks(site.baseUrl), audit: staffAuditWriter }
      const actor = { id: 'staff', name: 'Staff', email: 'staff@example.com', role: 'staff' as const, ipAddress: '127.0.0.1' }
      await recordBankTransfer(
        context,
        { reference: receipt!.reference, amount: '5000.00', receivedOn: '2025-04-10', bankReference: `HTTP-${receipt!.reference}` },
        actor,
      )
    } finally {
      await db.close()
    }

    const asJson = await fetch(statusUrl, { headers: { accept: 'application/json' } })
    expect(await asJson.json()).toMatchObject({ status: 'part-paid', totalCents: 2_067_700, paidCents: 500_000, outstandingCents: 1_567_700 })
    const html = await (await fetch(statusUrl, { headers: { accept: 'text/html' } })).text()
    expect(html).toContain('Part payment received.')
    expect(html).toMatch(/We have received <span class="amount">R 5 000\.00<\/span>;.*<span class="amount">R 15 677\.00<\/span> is still to be paid/s)
    expect(html).toContain('Branch code')
  })
})

describe('the registration form post (no JavaScript)', () => {
  function formBody(token: string, extra: Record<string, string> = {}): URLSearchParams {
    return new URLSearchParams({
      token,
      intent: 'submit',
      code: 'LOW2025',
      companyName: 'Form Posting Ltd',
      address: '2 Side Street, Midrand',
      email: 'form@posting.test',
      tel: '+27 11 555 0199',
      vatNumber: '4999999999',
      'delegates.0.name': 'Lindiwe Zulu',
      'delegates.0.position': 'Office Manager',
      'delegates.0.email': 'lindiwe@posting.test',
      attendanceOption: 'online',
      paymentMethod: 'Bank Transfer',
      legalAgreement: 'on',
      ...extra,
    })
  }
  const submit = (body: URLSearchParams) =>
    fetch(`${site.baseUrl}/workshop/legalOpinion?tab=register`, { method: 'POST', body, redirect: 'manual', headers: { 'x-forwarded-for': freshAddress() } })

  it('redirects (303) to the status page, and the same submission token twice makes one registration', async () => {
    const token = `form-${Math.random()}`
    const first = await submit(formBody(token))
    const second = await submit(formBody(token))
    expect(first.status).toBe(303)
    expect(first.headers.get('location')).toMatch(/^\/registrations\/[A-Z0-9]+\/[\w-]+$/)
    expect(second.headers.get('location')).toBe(first.headers.get('location'))
  })

  it('acknowledges a filled honeypot in the page and stores nothing', async () => {
    const answer = await submit(formBody(`form-${Math.random()}`, { honeypot: 'spam', email: 'robot@posting.test' }))
    expect(answer.status).toBe(200)
    expect(await answer.text()).toContain('Thank you. Your registration was received.')
    await waitForEmptyOutbox(site)
    expect(sink.received.some((mail) => mail.recipients.includes('robot@posting.test'))).toBe(false)
  })
})

describe('the Register tab', () => {
  it('shows an early-bird after its date as closed and a started event as closed with the contact link', async () => {
    const open = await (await fetch(`${site.baseUrl}/workshop/boardManagement?tab=register`)).text()
    expect(open).toMatch(/<input type="radio" id="register-option-early-bird"[^>]*disabled=""/)
    expect(open).toContain('(closed)')

    const closed = await (await fetch(`${closedSite.baseUrl}/workshop/boardManagement?tab=register`)).text()
    expect(closed).toContain('Registration is closed')
    expect(closed).toContain('href="/workshop/boardManagement/contact"')
    expect(closed).not.toContain('Submit Form')
  })
})
