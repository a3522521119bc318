// A sponsorship deal's money in the back office over real HTTP against the built site: its payment reminders ("Remind
// now" on the deal, the Overdue list), its place in the company's statement of account (page and PDF), and the site
// settings' default for sending its codes once paid, and a discount code made on the form and limited to the prices
// ticked, with mail to a real SMTP sink. A second instance on the same data runs with its
// business clock weeks later, when the deal's invoice is overdue.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStaffAccount, signInCookie, type StaffAccount } from '../support/admin.ts'
import { repoRoot, startSite, type RunningSite } from '../support/site-server.ts'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts'
import { registrationBody } from '../support/registrations.ts'
import { pdftotext } from '../../packages/core/src/test-support.ts'

const OWNER: StaffAccount = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner', password: 'a long enough olu passphrase' }

let sink: SmtpSink
let dataDir: string
let site: RunningSite
/**
 * The same data as `site`, on 10 April 2025: a deal invoiced on 1 March (due 6 March) is 35 days overdue. Its site
 * settings send sponsors' codes once paid.
 */
let later: RunningSite
let cookie: string
let laterCookie: string

beforeAll(async () => {
  sink = await startSmtpSink()
  dataDir = mkdtempSync(path.join(tmpdir(), 'events-sponsorship-money-'))
  await createStaffAccount(dataDir, OWNER)
  const env = { DATA_DIR: dataDir, SMTP_URL: sink.url, FORM_RATE_LIMIT: '0' }
  const content = path.join(dataDir, 'content')
  cpSync(path.join(repoRoot, 'packages/content/dataset'), content, { recursive: true })
  const datasetPath = path.join(content, 'production.ndjson')
  const documents = readFileSync(datasetPath, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  for (const document of documents) if (document._id === 'siteSettings') document.sponsorCodesOncePaid = true
  writeFileSync(datasetPath, documents.map((document) => JSON.stringify(document)).join('\n') + '\n')
  site = await startSite({ env })
  later = await startSite({ env: { ...env, SITE_DATE: '2025-04-10T10:00:00+02:00', CONTENT_DATASET_PATH: datasetPath } })
  cookie = await signInCookie(site.baseUrl, OWNER)
  laterCookie = await signInCookie(later.baseUrl, OWNER)
})
afterAll(async () => {
  await later?.stop()
  await site?.stop()
  await sink?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

/** A form post as the back office's own page sends it. */
function post(pathname: string, fields: Record<string, string>, { base = site.baseUrl, as = cookie }: { base?: string; as?: string } = {}) {
  return fetch(`${base}${pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: as, origin: base, 'sec-fetch-site': 'same-origin' },
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

/** Records a Gold deal for Resilience at R 80 000 excl. VAT (R 92 000.00 incl.): the package has no list price, so it is approved at once. */
async function recordDeal(companyName: string, contactEmail: string, overrides: Record<string, string> = {}): Promise<{ reference: string; id: string }> {
  const recorded = await post('/admin/sponsorship', {
    intent: 'record-deal',
    event: 'Resilience',
    packageId: 'sponsor-gold',
    companyName,
    address: '1 Commissioner Street\nJohannesburg',
    vatNumber: '',
    purchaseOrderNumber: '',
    contactName: 'Pieter Goud',
    contactEmail,
    contactTel: '+27 11 555 0200',
    agreedPrice: '80 000',
    ...overrides,
  })
  expect(recorded.status).toBe(200)
  expect(await pageText(recorded)).toContain('Deal recorded and approved')
  const html = await (await fetch(`${site.baseUrl}/admin/sponsorship`, { headers: { cookie } })).text()
  const article = html.split('<article').find((part) => part.includes(`>${companyName}<`))!
  return { reference: /Reference<\/dt><dd>([A-Z0-9]{8})</.exec(article)![1]!, id: /id="deal-([^"]+)"/.exec(article)![1]! }
}

describe('a sponsorship deal’s payment reminders', () => {
  it('reminds the sponsor’s contact from the deal’s page and from the Overdue list, where the deal shows its age', async () => {
    const contact = 'pieter@goldmining.example.com'
    const { reference, id } = await recordDeal('Gold Mining Ltd', contact)

    const reminded = await post('/admin/sponsorship', { intent: 'remind', reference })
    expect(reminded.status).toBe(200)
    expect(await pageText(reminded)).toContain('A payment reminder for R 92 000.00 is on its way to the sponsor’s contact.')
    const mail = await sink.waitFor((received) => received.parsed.subject === `Payment reminder: R 92 000.00 owed for sponsorship ${reference}`)
    expect(mail.recipients).toEqual([contact])
    expect(mail.parsed.attachments.map((attachment) => attachment.filename)).toEqual([expect.stringMatching(/^tax-invoice-INV-\d{6}\.pdf$/)])
    const dealPage = await pageText(await fetch(`${site.baseUrl}/admin/sponsorship`, { headers: { cookie } }))
    expect(dealPage).toContain('R 92 000.00 owed, sent by Olu Owner')

    const overdue = await pageText(await fetch(`${later.baseUrl}/admin/overdue`, { headers: { cookie: laterCookie } }))
    const row = overdue.split(`${reference} (sponsorship)`)[1] ?? ''
    expect(row.replace(/ ;/g, ';').replace(/ ,/g, ',')).toMatch(
      /^ Economic Resilience Conference 2025 \(Gold sponsorship\); INV-\d{6}, due 2025-03-06 35 30 days R\s92\s000\.00 Gold Mining Ltd /,
    )
    const overdueHtml = await (await fetch(`${later.baseUrl}/admin/overdue`, { headers: { cookie: laterCookie } })).text()
    expect(overdueHtml).toContain(`href="/admin/sponsorship#deal-${id}"`)
    const again = await post('/admin/overdue', { reference }, { base: later.baseUrl, as: laterCookie })
    expect(again.status).toBe(200)
    expect(await pageText(again)).toContain(`A payment reminder for R 92 000.00 is on its way to the contact of sponsorship deal ${reference}.`)
  })

  it('refuses "Remind now" for a cancelled deal in words, sending nothing', async () => {
    const { reference, id } = await recordDeal('Cancelled Sponsor Ltd', 'cancelled@sponsor.example.com')
    expect((await post('/admin/sponsorship', { intent: 'cancel-deal', dealId: id })).status).toBe(200)
    const refused = await post('/admin/sponsorship', { intent: 'remind', reference })
    expect(refused.status).toBe(409)
    expect(await pageText(refused)).toContain('This deal owes nothing on a tax invoice (it is paid, cancelled or not approved yet), so no reminder was sent.')
    expect(sink.received.filter((received) => received.parsed.subject?.includes(`for sponsorship ${reference}`))).toEqual([])
  })
})

describe('a company’s statement of account', () => {
  it('lists its sponsorship deal’s invoice among its registrations, linking each to its page, and in the PDF', async () => {
    const body = registrationBody({ companyName: 'Statement Sponsor Ltd' })
    const registered = await fetch(`${site.baseUrl}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(registered.status).toBe(201)
    const { reference: registration } = (await registered.json()) as { reference: string }
    const { reference, id } = await recordDeal('STATEMENT SPONSOR LTD', 'accounts@statementsponsor.example.com')

    const html = await (await fetch(`${site.baseUrl}/admin/statements?company=statement%20sponsor%20ltd`, { headers: { cookie } })).text()
    expect(html).toContain(`href="/admin/sponsorship#deal-${id}"`)
    expect(html).toContain(`href="/admin/registrations/${registration}"`)
    const page = await pageText(new Response(html))
    expect(page).toMatch(/Tax invoice INV-\d{6}: Gold sponsorship R\s92\s000\.00/)
    // The registration's R 20 677.00 and the deal's R 92 000.00.
    expect(page).toContain('R 112 677.00 owed')

    const pdf = await fetch(`${site.baseUrl}/admin/statements/statement.pdf?company=${encodeURIComponent('Statement Sponsor Ltd')}`, { headers: { cookie } })
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    const text = pdftotext(new Uint8Array(await pdf.arrayBuffer()))
    for (const shown of [reference, registration, 'Gold sponsorship', 'Amount owed R 112 677.00']) expect(text).toContain(shown)
  })
})

describe('the site-wide default for sending a deal’s codes once paid', () => {
  it('starts the deal form ticked or not as the Studio’s site settings say, and the deal records the form’s choice', async () => {
    const checkbox = async (base: string, as: string) => {
      const html = await (await fetch(`${base}/admin/sponsorship`, { headers: { cookie: as } })).text()
      return /<input[^>]*id="field-sendCodesWhen"[^>]*>/.exec(html)![0]
    }
    expect(await checkbox(site.baseUrl, cookie)).not.toContain('checked')
    expect(await checkbox(later.baseUrl, laterCookie)).toContain('checked=""')
    // Ticked (as the form starts on the later site), the deal's codes wait for the payment; unticked, they go at once.
    const held = await post(
      '/admin/sponsorship',
      {
        intent: 'record-deal',
        event: 'Resilience',
        packageId: 'sponsor-gold',
        companyName: 'Held Codes Ltd',
        address: '2 Main Road',
        contactName: 'Held Contact',
        contactEmail: 'held@codes.example.com',
        contactTel: '+27 11 555 0300',
        agreedPrice: '80 000',
        sendCodesWhen: 'paid',
      },
      { base: later.baseUrl, as: laterCookie },
    )
    expect(await pageText(held)).toContain('e-mailed to the contact; the codes follow once it is paid')
    const mail = await sink.waitFor((received) => received.recipients.includes('held@codes.example.com'))
    expect(mail.parsed.subject).toMatch(/^Tax invoice INV-\d{6}: your Gold sponsorship/)
  })
})

describe('a discount code made on the back office’s form', () => {
  it('takes off only the prices ticked, a table among them, says so in the list, and keeps the ticks when refused', async () => {
    const ticked = (code: string, percent: string) =>
      fetch(`${site.baseUrl}/admin/sponsorship`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, origin: site.baseUrl, 'sec-fetch-site': 'same-origin' },
        body: new URLSearchParams([
          ['intent', 'create-code'],
          ['kind', 'percent'],
          ['percent', percent],
          ['code', code],
          ['optionKeys', 'online'],
          ['optionKeys', 'table-10'],
        ]),
      })
    const refused = await ticked('TICKED-TOO-MUCH', '150')
    expect(refused.status).toBe(400)
    const form = await refused.text()
    expect(/<input[^>]*value="online"[^>]*>/.exec(form)![0]).toContain('checked=""')
    expect(/<input[^>]*value="venue"[^>]*>/.exec(form)![0]).not.toContain('checked')

    const created = await pageText(await ticked('TICKED-ONLINE', '20'))
    expect(created).toContain('Discount code TICKED-ONLINE created.')
    expect(created).toMatch(/Discount\s*:\s*20% \(Online, Table of 10 only\)/)
    const register = async (attendanceOption: string) => {
      const response = await fetch(`${site.baseUrl}/api/registrations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(registrationBody({ attendanceOption, discountCode: 'TICKED-ONLINE' })),
      })
      return { status: response.status, body: (await response.json()) as { total?: string; error?: { code: string } } }
    }
    expect(await register('venue')).toMatchObject({ status: 422, body: { error: { code: 'discount-code-option-excluded' } } })
    // Legal Opinion Writing online: 2 × R 5 990 less 20% = R 9 584.00 + VAT R 1 437.60.
    expect(await register('online')).toMatchObject({ status: 201, body: { total: '11021.60' } })
  })
})
