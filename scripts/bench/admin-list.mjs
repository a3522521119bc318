// The back office's registration list at 10,000 registrations on SQLite: GET /admin/registrations over HTTP, signed in,
// against the built site, for a few filter and search combinations. The server time is the site's own `responseTime`
// from its request log (the line carries the X-Request-Id the bench sent), so it covers the guard, the query, the
// rendering and writing the page, and leaves the client out; the time the bench saw on loopback is printed beside it.
// Registrations are made through the registration service itself, so rows, delegates and invoices are what the site
// stores.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createStaffAccount, signInCookie } from '../../tests/support/admin.ts'
import { startSite } from '../../tests/support/site-server.ts'
import { percentile } from './registrations.mjs'
import { printTable } from './table.mjs'
import { serverTimes } from './server-log.mjs'

export const title = 'Back-office registration list at 10,000 registrations (SQLite, GET /admin/registrations signed in)'

const REGISTRATIONS = 10_000
const SEED_CONCURRENCY = 32
const WARM_UP_RUNS = 5
const RUNS = 60
const P95_TARGET_MS = 200
const OWNER = /** @type {const} */ ({ email: 'bench-owner@example.com', name: 'Bench Owner', role: 'owner', password: 'a long enough bench password' })

const COMPANIES = ['Acme Legal', 'Bolt Engineering', 'Cobalt Mining', 'Delta Attorneys', 'Ekhaya Holdings', 'Fynbos Consulting']
const SURNAMES = ['Nkosi', 'van Wyk', 'Mokoena', 'Botha', 'Naidoo', 'Dlamini', 'Pillay', 'Smith']

function seedBody(index) {
  const company = `${COMPANIES[index % COMPANIES.length]} ${index}`
  const resilience = index % 2 === 0
  return {
    event: resilience ? 'Resilience' : 'legalOpinion',
    code: resilience ? 'ERC2025' : 'LOW2025',
    companyName: company,
    address: '1 Main Road, Sandton',
    email: `bookings-${index}@company${index % 97}.test`,
    tel: '+27 11 555 0100',
    vatNumber: '4123456789',
    delegates: [
      { name: `Thandi ${SURNAMES[index % SURNAMES.length]}`, position: 'Director', email: `thandi-${index}@bench.test` },
      { name: `Pieter ${SURNAMES[(index + 3) % SURNAMES.length]} ${index}`, position: 'Manager', email: `pieter-${index}@bench.test` },
    ],
    attendanceOption: 'venue',
    paymentMethod: index % 3 === 0 ? 'Credit/Debit Card' : 'Bank Transfer',
    legalAgreement: true,
  }
}

/** Fills DATA_DIR's SQLite database with the registrations; answers their references in order. */
async function seed(dataDir) {
  const { createRegistration, openDatabase, recordBankTransfer } = await import('../../packages/core/src/index.ts')
  const { SITE_NOW, fixedCatalog, testSiteLinks } = await import('../../packages/core/src/test-support.ts')
  const { migrateStaffTables, staffAuditWriter } = await import('../../packages/staff/src/index.ts')
  const db = await openDatabase({ dataDir })
  try {
    // The part-payments are recorded as staff record them: with their audit rows in the staff package's log.
    await migrateStaffTables(/** @type {Parameters<typeof migrateStaffTables>[0]} */ (/** @type {unknown} */ (db.kysely)), db.dialect)
    const context = { db, catalog: fixedCatalog(), links: testSiteLinks('http://127.0.0.1'), siteNow: () => SITE_NOW, audit: staffAuditWriter }
    /** @type {import('../../packages/core/src/index.ts').StaffActor} */
    const bench = { id: 'bench', name: 'Bench', email: 'bench@example.com', role: 'manager', ipAddress: null }
    let next = 0
    const references = []
    await Promise.all(
      Array.from({ length: SEED_CONCURRENCY }, async () => {
        while (next < REGISTRATIONS) {
          const index = next++
          const { receipt } = await createRegistration(context, seedBody(index))
          references[index] = receipt.reference
        }
      }),
    )
    // One registration in thirty part-paid, so the status filter has something to find.
    for (let index = 1; index < REGISTRATIONS; index += 30) {
      await recordBankTransfer(context, { reference: references[index], amount: '1000.00', receivedOn: '2025-02-28', bankReference: `BENCH-${index}` }, bench)
    }
    // The seeded registrations' 40,000 e-mails are not what is measured: marked sent, the site's outbox stays idle.
    await db.kysely.updateTable('outbox_messages').set({ status: 'sent', sent_at: new Date().toISOString() }).execute()
    return references
  } finally {
    await db.close()
  }
}

export async function run() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'events-bench-admin-list-'))
  try {
    const seedStarted = performance.now()
    const references = await seed(dataDir)
    console.log(`seeded ${REGISTRATIONS} registrations in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s\n`)
    await createStaffAccount(dataDir, OWNER)
    const site = await startSite({ env: { DATA_DIR: dataDir }, keepOutput: true })
    try {
      const cookie = await signInCookie(site.baseUrl, OWNER)
      const cases = [
        ['newest first, first page', {}],
        ['page 200 of 400', { page: '200' }],
        ['event', { event: 'Resilience' }],
        ['status part-paid', { status: 'part-paid' }],
        ['payment method and dates', { method: 'Credit/Debit Card', from: '2020-01-01', to: '2099-12-31' }],
        ['search company', { q: 'cobalt mining 12' }],
        ['search delegate name', { q: 'PIETER BOTHA 99' }],
        ['search reference', { q: references[4321].slice(0, 6).toLowerCase() }],
        ['event and search e-mail', { event: 'legalOpinion', q: '@company5.test' }],
      ]
      const measured = []
      for (const [name, query] of cases) {
        const address = `${site.baseUrl}/admin/registrations?${new URLSearchParams(query)}`
        const requests = []
        for (let attempt = 0; attempt < WARM_UP_RUNS + RUNS; attempt += 1) {
          const id = `bench-admin-list-${measured.length}-${attempt}`
          const started = performance.now()
          const response = await fetch(address, { headers: { cookie, 'x-request-id': id } })
          const page = await response.text()
          const clientMs = performance.now() - started
          if (response.status !== 200) throw new Error(`${address} answered ${response.status}`)
          const matching = /<p role="status">([^<]*)<\/p>/.exec(page)?.[1] ?? ''
          if (attempt >= WARM_UP_RUNS) requests.push({ id, clientMs, matching })
        }
        measured.push({ name, requests })
      }
      // The request lines are written as each response finishes; a moment later every one is in the output.
      await new Promise((resolve) => setTimeout(resolve, 200))
      const times = serverTimes(site.output())
      const rows = measured.map(({ name, requests }) => {
        const server = requests.map((request) => times.get(request.id)).sort((a, b) => a - b)
        if (server.some((time) => time === undefined)) throw new Error(`The site's log lacks request lines of "${name}"`)
        const client = requests.map((request) => request.clientMs).sort((a, b) => a - b)
        const p95 = percentile(server, 0.95)
        const matching = /^(\d+|No)/.exec(requests[0]?.matching ?? '')?.[1] ?? '?'
        return [
          name,
          matching === 'No' ? '0' : matching,
          `${percentile(server, 0.5).toFixed(1)} ms`,
          `${p95.toFixed(1)} ms`,
          `${percentile(client, 0.95).toFixed(1)} ms`,
          `<= ${P95_TARGET_MS} ms: ${p95 <= P95_TARGET_MS ? 'met' : 'not met'}`,
        ]
      })
      printTable(['list', 'matching', 'server p50', 'server p95', 'HTTP p95', 'target (server p95)'], rows)
    } finally {
      await site.stop()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
