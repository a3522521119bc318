// A scan at the door answered by the server with 500 delegates on the event, on SQLite: POST of a pass code to the
// check-in desk's JSON route (…/check-in/live), signed in, against the built site. The server time is the site's own
// `responseTime` from its request log (matched by the X-Request-Id the bench sent): the guard, the staff command (the
// pass looked up, the check-in and its audit row written in one transaction, the day's counts read back) and the
// answer; the time the bench saw on loopback is printed beside it. Also timed: the same pass scanned again (refused,
// saying who was first) and the desk's search page. Registrations are made through the registration service itself.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createStaffAccount, signInCookie } from '../../tests/support/admin.ts'
import { startSite } from '../../tests/support/site-server.ts'
import { percentile } from './registrations.mjs'
import { printTable } from './table.mjs'
import { serverTimes } from './server-log.mjs'

export const title = 'Check-in scan with 500 delegates on the event (SQLite, POST …/check-in/live signed in)'

const REGISTRATIONS = 250
const DELEGATES_EACH = 2
const WARM_UP_SCANS = 10
const SCANS = 200
const REPEATS = 50
const SEARCHES = 50
const TARGET_MS = 300
const DESK = '/admin/events/event-legal-opinion/check-in'
const DAY = '2025-07-03'
const STAFF = /** @type {const} */ ({ email: 'bench-door@example.com', name: 'Bench Door', role: 'staff', password: 'the bench desk at the door 2025' })

/** Fills DATA_DIR's SQLite database with 500 delegates of Legal Opinion Writing; answers their pass codes. */
async function seed(dataDir) {
  const { createRegistration, openDatabase } = await import('../../packages/core/src/index.ts')
  const { SITE_NOW, fixedCatalog, testSiteLinks } = await import('../../packages/core/src/test-support.ts')
  const db = await openDatabase({ dataDir })
  try {
    const context = { db, catalog: fixedCatalog(), links: testSiteLinks('http://127.0.0.1'), siteNow: () => SITE_NOW }
    for (let index = 0; index < REGISTRATIONS; index++) {
      await createRegistration(context, {
        event: 'legalOpinion',
        code: 'LOW2025',
        companyName: `Door Bench ${index}`,
        address: '1 Main Road, Sandton',
        email: `bookings-${index}@door.test`,
        tel: '+27 11 555 0100',
        vatNumber: '4123456789',
        delegates: Array.from({ length: DELEGATES_EACH }, (_, delegate) => ({
          name: `Delegate ${index}-${delegate}`,
          position: 'Director',
          email: `d${delegate}-${index}@door.test`,
        })),
        attendanceOption: 'venue',
        paymentMethod: 'Bank Transfer',
        legalAgreement: true,
      })
    }
    // The seeded registrations' e-mails are not what is measured: marked sent, the site's outbox stays idle.
    await db.kysely.updateTable('outbox_messages').set({ status: 'sent', sent_at: new Date().toISOString() }).execute()
    return (await db.kysely.selectFrom('delegate_passes').select('code').execute()).map((row) => row.code)
  } finally {
    await db.close()
  }
}

export async function run() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'events-bench-check-in-'))
  try {
    const codes = await seed(dataDir)
    console.log(`seeded ${codes.length} delegates in ${REGISTRATIONS} registrations\n`)
    await createStaffAccount(dataDir, STAFF)
    // The morning of the first day: the door records only the day the business clock says it is.
    const site = await startSite({ env: { DATA_DIR: dataDir, SITE_DATE: `${DAY}T07:30:00+02:00` }, keepOutput: true })
    try {
      const cookie = await signInCookie(site.baseUrl, STAFF)
      const headers = (id) => ({ cookie, origin: site.baseUrl, 'x-request-id': id, accept: 'application/json' })
      const scan = async (id, code, expected) => {
        const started = performance.now()
        const response = await fetch(`${site.baseUrl}${DESK}/live`, { method: 'POST', headers: headers(id), body: new URLSearchParams({ day: DAY, code }) })
        await response.text()
        if (response.status !== expected) throw new Error(`A scan of ${code} answered ${response.status}, not ${expected}`)
        return performance.now() - started
      }
      /** @type {Array<{ id: string, clientMs: number }>} */
      const scans = []
      /** @type {Array<{ id: string, clientMs: number }>} */
      const repeats = []
      /** @type {Array<{ id: string, clientMs: number }>} */
      const searches = []
      const cases = { 'scan, checked in': scans, 'same pass again, refused': repeats, 'search by name (desk page)': searches }
      for (let index = 0; index < WARM_UP_SCANS + SCANS; index++) {
        const id = `bench-check-in-${index}`
        const clientMs = await scan(id, codes[index], 200)
        if (index >= WARM_UP_SCANS) scans.push({ id, clientMs })
      }
      for (let index = 0; index < REPEATS; index++) {
        const id = `bench-check-in-again-${index}`
        repeats.push({ id, clientMs: await scan(id, codes[WARM_UP_SCANS + index], 409) })
      }
      for (let index = 0; index < SEARCHES; index++) {
        const id = `bench-check-in-search-${index}`
        const started = performance.now()
        const response = await fetch(`${site.baseUrl}${DESK}?${new URLSearchParams({ day: DAY, q: `delegate ${index * 3}-1` })}`, { headers: headers(id) })
        await response.text()
        if (response.status !== 200) throw new Error(`The desk's search answered ${response.status}`)
        searches.push({ id, clientMs: performance.now() - started })
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
      const times = serverTimes(site.output())
      const rows = Object.entries(cases).map(([name, requests]) => {
        const server = requests.map((request) => times.get(request.id)).sort((a, b) => a - b)
        if (server.some((time) => time === undefined)) throw new Error(`The site's log lacks request lines of "${name}"`)
        const client = requests.map((request) => request.clientMs).sort((a, b) => a - b)
        const p95 = percentile(server, 0.95)
        return [
          name,
          String(requests.length),
          `${percentile(server, 0.5).toFixed(1)} ms`,
          `${p95.toFixed(1)} ms`,
          `${percentile(client, 0.95).toFixed(1)} ms`,
          `<= ${TARGET_MS} ms: ${p95 <= TARGET_MS ? 'met' : 'not met'}`,
        ]
      })
      printTable(['request', 'requests', 'server p50', 'server p95', 'HTTP p95', 'target (server p95)'], rows)
    } finally {
      await site.stop()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
