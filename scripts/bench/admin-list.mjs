// The back office's registration list at 10,000 registrations on SQLite: the list function the admin screen calls,
// in process (server time, no HTTP), for a few filter and search combinations. Registrations are made through the
// registration service itself, so rows, delegates and invoices are what the site stores.
import { percentile } from './registrations.mjs'
import { printTable } from './table.mjs'

export const title = 'Back-office registration list at 10,000 registrations (SQLite, server time)'

const REGISTRATIONS = 10_000
const SEED_CONCURRENCY = 32
const RUNS = 60
const P95_TARGET_MS = 200

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

export async function run() {
  const { createRegistrationService, listRegistrations, openDatabase, recordBankTransfer } = await import('../../packages/core/src/index.ts')
  const { SITE_NOW, fixedCatalog, temporaryDirectory } = await import('../../packages/core/src/test-support.ts')
  const dataDir = temporaryDirectory()
  const db = await openDatabase({ dataDir: dataDir.dir })
  try {
    const context = { db, catalog: fixedCatalog(), siteUrl: 'http://127.0.0.1', siteNow: () => SITE_NOW }
    const service = createRegistrationService({ ...context })
    let next = 0
    const seedStarted = performance.now()
    const references = []
    await Promise.all(
      Array.from({ length: SEED_CONCURRENCY }, async () => {
        while (next < REGISTRATIONS) {
          const index = next++
          const { receipt } = await service.createRegistration(seedBody(index))
          references[index] = receipt.reference
        }
      }),
    )
    // One registration in thirty part-paid, so the status filter has something to find.
    for (let index = 1; index < REGISTRATIONS; index += 30) {
      await recordBankTransfer(context, { reference: references[index], amountCents: 100_000, receivedOn: '2025-02-28', bankReference: `BENCH-${index}` }, { id: 'bench', name: 'Bench' })
    }
    console.log(`seeded ${REGISTRATIONS} registrations in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s\n`)

    const cases = [
      ['newest first, first page', {}],
      ['page 200 of 400', { page: 200 }],
      ['event', { eventSlug: 'Resilience' }],
      ['status part-paid', { status: 'part-paid' }],
      ['payment method and created dates', { paymentMethod: 'Credit/Debit Card', createdFrom: '2020-01-01', createdTo: '2099-12-31' }],
      ['search company', { search: 'cobalt mining 12' }],
      ['search delegate name', { search: 'PIETER BOTHA 99' }],
      ['search reference', { search: references[4321].slice(0, 6).toLowerCase() }],
      ['event and search e-mail', { eventSlug: 'legalOpinion', search: '@company5.test' }],
    ]
    const rows = []
    for (const [name, query] of cases) {
      const timings = []
      let total = 0
      for (let run = 0; run < RUNS; run += 1) {
        const started = performance.now()
        total = (await listRegistrations(context, { pageSize: 25, ...query })).total
        timings.push(performance.now() - started)
      }
      timings.sort((a, b) => a - b)
      const p95 = percentile(timings, 0.95)
      rows.push([name, String(total), `${percentile(timings, 0.5).toFixed(1)} ms`, `${p95.toFixed(1)} ms`, `<= ${P95_TARGET_MS} ms: ${p95 <= P95_TARGET_MS ? 'met' : 'not met'}`])
    }
    printTable(['list', 'matching', 'p50', 'p95', 'target (p95)'], rows)
  } finally {
    await db.close()
    dataDir.remove()
  }
}
