// Discount codes at the site's edge: POST /api/registrations and the quotation take `discountCode`, the Register tab
// checks a code (an event link's `?code=`, or its Apply button without JavaScript) and shows the new total, and a
// wrong, other-event or spent code is refused in the visitor's words with nothing stored.
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registrationBody } from '../support/registrations.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'

interface Answer {
  status: number
  body: { reference?: string; total?: string; status?: string; error?: { code: string; message: string; fields: Record<string, string> } }
}

describe('discount codes at the site’s edge', () => {
  let site: RunningSite
  let database: () => DatabaseSync

  const addCode = (code: string, columns: Record<string, string | number | null> = {}) => {
    const db = database()
    try {
      const row = {
        id: randomUUID(),
        code,
        kind: 'percent',
        percent: 50,
        amount_cents: null,
        event_id: 'event-legal-opinion',
        event_title: 'Legal Opinion',
        max_uses: null,
        valid_from: null,
        valid_until: null,
        option_keys: '',
        includes_tables: 0,
        source_label: 'Platinum sponsor discount',
        deal_id: null,
        voided_at: null,
        claimed_at: null,
        created_at: new Date().toISOString(),
        created_by: 'Test',
        ...columns,
      }
      const names = Object.keys(row)
      db.prepare(`insert into discount_codes (${names.join(', ')}) values (${names.map(() => '?').join(', ')})`).run(...Object.values(row))
    } finally {
      db.close()
    }
  }
  const count = (table: string) => {
    const db = database()
    try {
      return Number((db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n)
    } finally {
      db.close()
    }
  }
  const register = async (overrides: Record<string, unknown>): Promise<Answer> => {
    const response = await fetch(`${site.baseUrl}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationBody(overrides)),
    })
    return { status: response.status, body: (await response.json()) as Answer['body'] }
  }
  const postForm = (pathAndQuery: string, fields: Record<string, string>) =>
    fetch(`${site.baseUrl}${pathAndQuery}`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' })

  beforeAll(async () => {
    site = await startSite({ env: { FORM_RATE_LIMIT: '0' } })
    database = () => {
      const db = new DatabaseSync(path.join(site.dataDir, 'events.sqlite'))
      // The site's outbox writes too: wait for its turn as the site's own connection does.
      db.exec('PRAGMA busy_timeout = 5000')
      return db
    }
    addCode('PLAT50')
    addCode('ONCE', { max_uses: 1, source_label: 'Discount' })
    addCode('OTHER', { event_id: 'event-resilience' })
    addCode('PLAT-SEATS', { kind: 'complimentary', percent: null, max_uses: 3, source_label: 'Platinum sponsor complimentary seat' })
  })

  afterAll(async () => {
    await site?.stop()
  })

  it('registers through the API at the discounted price in force, early-bird included', async () => {
    // Early-bird R7 990 less 50% is R3 995 a delegate; two: R7 990.00 + VAT R1 198.50.
    const answer = await register({ attendanceOption: 'early-bird', discountCode: 'plat50' })
    expect(answer.status).toBe(201)
    expect(answer.body.total).toBe('9188.50')
  })

  it.each([
    ['NOPE', 422, 'This code is not valid. Please check it, or register without it.'],
    ['OTHER', 422, 'This code is for another event.'],
  ])('refuses the code %s in the visitor’s words, storing nothing', async (discountCode, status, message) => {
    const before = { registrations: count('registrations'), invoices: count('invoices'), outbox: count('outbox_messages') }
    const answer = await register({ discountCode })
    expect(answer.status).toBe(status)
    expect(answer.body.error?.fields).toEqual({ discountCode: message })
    expect({ registrations: count('registrations'), invoices: count('invoices'), outbox: count('outbox_messages') }).toEqual(before)
  })

  it('refuses a spent code once its one use is taken', async () => {
    expect((await register({ discountCode: 'ONCE', delegates: registrationBody().delegates.slice(0, 1) })).status).toBe(201)
    const spent = await register({ discountCode: 'ONCE' })
    expect(spent.status).toBe(409)
    expect(spent.body.error?.fields).toEqual({ discountCode: 'This code has already been used as many times as it allows.' })
  })

  it('makes a complimentary seat R 0, paid, with no payment page, and marks it on the status page', async () => {
    const answer = await register({ discountCode: 'plat-seats', paymentMethod: 'card', delegates: registrationBody().delegates.slice(0, 1) })
    expect(answer.status).toBe(201)
    expect(answer.body).toMatchObject({ total: '0.00', status: 'paid' })
    expect(answer.body).not.toHaveProperty('paymentUrl')
    const statusUrl = (answer.body as { statusUrl: string }).statusUrl
    const page = await (await fetch(statusUrl.replace(/^https?:\/\/[^/]+/, site.baseUrl))).text()
    expect(page).toContain('A sponsor’s complimentary seat: nothing to pay.')
    expect(page).toContain('Platinum sponsor complimentary seat (code PLAT-SEATS)')
  })

  it('shows the new total on the Register tab from an event link’s ?code=, privately, and why a wrong one gives nothing', async () => {
    const page = await fetch(`${site.baseUrl}/workshop/legalOpinion?tab=register&code=plat50`)
    expect(page.headers.get('cache-control')).toContain('no-store')
    const html = await page.text()
    expect(html).toContain('Platinum sponsor discount 50% (code PLAT50) applied.')
    expect(html).toContain('value="plat50"')

    const wrong = await (await fetch(`${site.baseUrl}/workshop/legalOpinion?tab=register&code=nope`)).text()
    expect(wrong).toContain('This code is not valid. Please check it, or register without it.')
  })

  it('checks a code with the Apply button without JavaScript and shows the discounted total', async () => {
    const fields = {
      attendanceOption: 'venue',
      code: 'LOW2025',
      'delegates.0.name': 'Thandi Mokoena',
      'delegates.0.position': 'Attorney',
      'delegates.0.email': 'thandi@acme.test',
      paymentMethod: 'bank-transfer',
      discountCode: 'PLAT50',
      intent: 'apply-code',
    }
    const applied = await postForm('/workshop/legalOpinion?tab=register', fields)
    expect(applied.status).toBe(200)
    const html = await applied.text()
    // Venue R8 990 less 50%: R4 495.00 + VAT R674.25.
    expect(html).toContain('Platinum sponsor discount 50% (code PLAT50) applied.')
    expect(html).toContain('-R 4 495.00')
    expect(html).toContain('R 5 169.25')

    const refused = await postForm('/workshop/legalOpinion?tab=register', { ...fields, discountCode: 'OTHER' })
    expect(refused.status).toBe(422)
    expect(await refused.text()).toContain('This code is for another event.')
  })

  it('prices a quotation with the code, its discount on its own line', async () => {
    const response = await postForm('/workshop/legalOpinion/quote', { attendanceOption: 'online', delegates: '2', discountCode: 'PLAT50' })
    expect(response.headers.get('content-type')).toBe('application/pdf')
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: Buffer.from(await response.arrayBuffer()) }).toString()
    expect(text).toContain('Platinum sponsor discount 50% (code')
    // Online R5 990 less 50% for two: R5 990.00 + VAT R898.50.
    expect(text).toContain('R 6 888.50')
  })
})
