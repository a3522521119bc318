// "Download a quote" over real HTTP against the built site: the plain form's post answered with the numbered
// quotation PDF (read back with poppler's pdftotext), priced as the registration is; a refused request sent back to
// the Register tab with the reason; and staff finding the quotation by its number.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { formatRand } from '../../packages/pricing/src/index.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pdftotext } from '../../packages/core/src/test-support.ts'
import { createStaffAccount, signInCookie, type StaffAccount } from '../support/admin.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts'

const STAFF: StaffAccount = { email: 'sipho@example.com', name: 'Sipho Staff', role: 'staff', password: 'a long enough staff password' }

let sink: SmtpSink
let dataDir: string
let site: RunningSite

beforeAll(async () => {
  sink = await startSmtpSink()
  dataDir = mkdtempSync(path.join(tmpdir(), 'events-quotes-'))
  await createStaffAccount(dataDir, STAFF)
  site = await startSite({ env: { DATA_DIR: dataDir, SMTP_URL: sink.url, FORM_RATE_LIMIT: '0' } })
})
afterAll(async () => {
  await site?.stop()
  await sink?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

/** The quotation form's post, as a browser sends it without JavaScript. */
function postQuote(fields: Record<string, string>) {
  return fetch(`${site.baseUrl}/workshop/legalOpinion/quote`, { method: 'POST', redirect: 'manual', body: new URLSearchParams(fields) })
}

describe('Download a quote', () => {
  it('answers the form with a numbered quotation PDF that charges what the registration charges, and staff find it by number', async () => {
    const response = await postQuote({ attendanceOption: 'venue', delegates: '2', companyName: 'Acme Legal Services', address: '12 Main Road\r\nRosebank' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    const filename = /filename="(quote-(Q-\d{6})\.pdf)"/.exec(response.headers.get('content-disposition') ?? '')
    expect(filename).not.toBeNull()
    const number = filename![2]!
    const text = pdftotext(new Uint8Array(await response.arrayBuffer()))

    const registered = await fetch(`${site.baseUrl}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationBody()),
    })
    const receipt = (await registered.json()) as RegistrationReceipt & { totalCents: number }
    for (const expected of [
      `Quotation number: ${number}`,
      'Date: 1 March 2025',
      'Valid until: ',
      'Prepared for Acme Legal Services 12 Main Road Rosebank',
      `Total incl. VAT ${formatRand(receipt.totalCents)}`,
      'reserves no seat',
      'Bank details',
    ]) {
      expect(text).toContain(expected)
    }

    const cookie = await signInCookie(site.baseUrl, STAFF)
    const found = (await (await fetch(`${site.baseUrl}/admin/quotes?number=${number.toLowerCase()}`, { headers: { cookie } })).text()).replaceAll(
      '<!-- -->',
      '',
    )
    expect(found).toContain(`Quotation ${number}`)
    expect(found).toContain('Acme Legal Services')
    const pdf = await fetch(`${site.baseUrl}/admin/quotes/${number}.pdf`, { headers: { cookie } })
    expect(pdf.status).toBe(200)
    expect(pdftotext(new Uint8Array(await pdf.arrayBuffer()))).toContain(`Quotation number: ${number}`)
    // Without signing in, the PDF is not served: the back office sends the visitor to sign in.
    const anonymous = await fetch(`${site.baseUrl}/admin/quotes/${number}.pdf`, { redirect: 'manual' })
    expect(anonymous.headers.get('content-type')).not.toBe('application/pdf')
    expect([302, 303, 401, 403]).toContain(anonymous.status)
  })

  it('sends a request without an option back to the Register tab, which says what is missing, and numbers nothing', async () => {
    const refused = await postQuote({ attendanceOption: '', delegates: '2' })
    expect(refused.status).toBe(303)
    const location = refused.headers.get('location')
    expect(location).toBe('/workshop/legalOpinion?tab=register&quote=missing-fields#register-quote')
    const page = await (await fetch(`${site.baseUrl}${location}`)).text()
    expect(page).toContain('Please fill in all required fields before submitting.')
    expect(page).toContain('Download a quote (PDF)')
  })
})
