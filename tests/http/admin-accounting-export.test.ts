// The accounting export over real HTTP against the built site: the download's type and name, a refusal's answer that
// records nothing, the settings a manager's only, the cross-site guard, and an anonymous post sent to sign in.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStaffAccount, signInCookie, type StaffAccount } from '../support/admin.ts'
import { registrationBody } from '../support/registrations.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'

const OWNER: StaffAccount = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner', password: 'a long enough olu passphrase' }
const STAFF: StaffAccount = { email: 'sipho@example.com', name: 'Sipho Staff', role: 'staff', password: 'a long enough staff password' }

let dataDir: string
let site: RunningSite
let staffCookie: string
let ownerCookie: string

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'events-accounting-export-'))
  await createStaffAccount(dataDir, OWNER)
  await createStaffAccount(dataDir, STAFF)
  site = await startSite({ env: { DATA_DIR: dataDir, FORM_RATE_LIMIT: '0' } })
  staffCookie = await signInCookie(site.baseUrl, STAFF)
  ownerCookie = await signInCookie(site.baseUrl, OWNER)
})
afterAll(async () => {
  await site?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

function post(pathname: string, fields: Record<string, string>, headers: Record<string, string>) {
  return fetch(`${site.baseUrl}${pathname}`, { method: 'POST', redirect: 'manual', headers, body: new URLSearchParams(fields) })
}

const sameSite = (cookie: string) => ({ cookie, origin: site.baseUrl, 'sec-fetch-site': 'same-origin' })
const MARCH = { package: 'xero', file: 'sales', from: '2025-03-01', to: '2025-03-31' }
const SETTINGS = { xeroAccountCode: '200', xeroTaxType: 'Standard Rate Sales', sageLedgerAccount: '1000', sageVatRate: 'Standard' }

describe('the accounting export', () => {
  it('refuses the sales file before the settings are set, keeps them from staff, then downloads each document once', async () => {
    const response = await fetch(`${site.baseUrl}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationBody()),
    })
    expect(response.status).toBe(201)

    const unset = await post('/admin/reports/accounting-export.csv', MARCH, sameSite(staffCookie))
    expect(unset.status).toBe(400)
    expect(await unset.text()).toContain('Set the account code and tax-rate name of each accounting package first')

    const byStaff = await post('/admin/reports?from=2025-03-01&to=2025-03-31', SETTINGS, sameSite(staffCookie))
    expect(byStaff.status).toBe(403)
    const crossSite = await post('/admin/reports', SETTINGS, { cookie: ownerCookie, origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' })
    expect(crossSite.status).toBeGreaterThanOrEqual(400)
    expect((await post('/admin/reports', SETTINGS, sameSite(ownerCookie))).status).toBe(200)

    const reversed = await post('/admin/reports/accounting-export.csv', { ...MARCH, from: '2025-03-31', to: '2025-03-01' }, sameSite(staffCookie))
    expect(reversed.status).toBe(400)
    const exportedByOtherSite = await post('/admin/reports/accounting-export.csv', MARCH, {
      cookie: staffCookie,
      origin: 'https://attacker.example',
      'sec-fetch-site': 'cross-site',
    })
    expect(exportedByOtherSite.status).toBeGreaterThanOrEqual(400)
    const anonymous = await post('/admin/reports/accounting-export.csv', MARCH, { origin: site.baseUrl, 'sec-fetch-site': 'same-origin' })
    expect(anonymous.status).toBeGreaterThanOrEqual(300)
    expect(anonymous.status).not.toBe(200)

    const first = await post('/admin/reports/accounting-export.csv', MARCH, sameSite(staffCookie))
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(first.headers.get('content-disposition')).toBe('attachment; filename="xero-sales-2025-03-01-to-2025-03-31.csv"')
    const rows = parse(await first.text(), { columns: true }) as Array<Record<string, string>>
    expect(rows.map((row) => [row['*UnitAmount'], row['TaxAmount'], row['*AccountCode']])).toEqual([['17980.00', '2697.00', '200']])

    const second = await post('/admin/reports/accounting-export.csv', MARCH, sameSite(staffCookie))
    expect(parse(await second.text(), { columns: true })).toEqual([])
  })
})
