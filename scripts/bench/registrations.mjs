// Registrations per second through POST /api/registrations on SQLite, durable (WAL, synchronous=FULL: every commit
// is on disk before the 201), from 16 concurrent clients, against absolute targets: at least 500 a second with a p99
// of at most 100 ms. Beside it, as context only: the registration service called in process without HTTP (what the
// registration's own work and storage cost) and a bare node:http JSON echo (what HTTP alone costs on this machine).
import { spawn } from 'node:child_process'
import { Agent, request } from 'node:http'
import { startSite } from '../../tests/support/site-server.ts'
import { cores, printTable, printTargets } from './table.mjs'

export const title = `Registrations per second (SQLite, synchronous=FULL, 16 concurrent clients, ${cores} cores)`

const CONCURRENCY = 16
const WARM_UP_REQUESTS = 200
const MEASURE_MS = 8_000
const PER_SECOND_TARGET = 500
const P99_TARGET_MS = 100

// The echo runs in its own process, like the site, so neither shares the load generator's event loop.
const echoServerSource = `
const { createServer } = require('node:http')
const server = createServer((req, res) => {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    const body = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8')))
    res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  })
})
server.listen(0, '127.0.0.1', () => console.log(server.address().port))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
`

async function startEchoServer() {
  const child = spawn(process.execPath, ['--input-type=commonjs', '-e', echoServerSource], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`The echo server exited with code ${code}`)))
    child.stdout.once('data', (chunk) => resolve(Number(chunk.toString().trim())))
  })
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve)
        child.kill('SIGTERM')
      }),
  }
}

let sequence = 0

// Each body is different (company, e-mails, key), so every post is a new registration rather than a replay.
export function registrationBody() {
  sequence += 1
  const id = `${process.pid}-${sequence}`
  return JSON.stringify({
    event: 'Resilience',
    code: 'ERC2025',
    companyName: `Bench Company ${id}`,
    address: '1 Main Road, Sandton',
    email: `bookings-${id}@bench.test`,
    tel: '+27 11 555 0100',
    vatNumber: '4123456789',
    delegates: [
      { name: 'Thandi Mokoena', position: 'Director', email: `thandi-${id}@bench.test` },
      { name: 'Pieter Botha', position: 'Manager', email: `pieter-${id}@bench.test` },
    ],
    attendanceOption: 'venue',
    paymentMethod: 'Bank Transfer',
    legalAgreement: true,
  })
}

/** POSTs a JSON body; resolves with the status and the answer's text, or rejects when the status is not `expectedStatus`. */
export function post(agent, url, body, expectedStatus, headers = {}) {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
      (response) => {
        const chunks = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          if (expectedStatus !== undefined && response.statusCode !== expectedStatus)
            reject(new Error(`${url} answered ${response.statusCode}: ${text.slice(0, 200)}`))
          else resolve({ status: response.statusCode, text })
        })
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

export function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * fraction) - 1)]
}

/**
 * Runs `concurrency` callers of `submitOne` back to back: first a warm-up, then for `durationMs`; returns the rate
 * and latencies.
 */
export async function measure(submitOne, { concurrency = CONCURRENCY, durationMs = MEASURE_MS } = {}) {
  let warmUpLeft = WARM_UP_REQUESTS
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (warmUpLeft-- > 0) await submitOne()
    }),
  )
  const latencies = []
  const started = performance.now()
  const deadline = started + durationMs
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const submitted = performance.now()
        await submitOne()
        latencies.push(performance.now() - submitted)
      }
    }),
  )
  const elapsedSeconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return { perSecond: latencies.length / elapsedSeconds, count: latencies.length, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) }
}

/**
 * POST /api/registrations at `baseUrl` from 16 clients; every answer must be 201. `headers` gives each post's extra
 * headers; `onAccepted` is told each answer's reference.
 */
/**
 * @param {string} baseUrl
 * @param {{ headers?: () => Record<string, string>, onAccepted?: (reference: string) => void, durationMs?: number }} [options]
 */
export async function measureRegistrations(baseUrl, { headers = () => ({}), onAccepted = () => {}, durationMs = MEASURE_MS } = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const submitOne = async () => {
    const { text } = await post(agent, `${baseUrl}/api/registrations`, registrationBody(), 201, headers())
    onAccepted(JSON.parse(text).reference)
  }
  try {
    return await measure(submitOne, { durationMs })
  } finally {
    agent.destroy()
  }
}

// The service the route calls, called directly on a fresh SQLite database with a fixed catalog: no HTTP, no
// Express, no outbox worker. What it reaches is the most any change to the HTTP side could give the endpoint.
async function measureServiceInProcess() {
  const { createRegistration, openDatabase } = await import('../../packages/core/src/index.ts')
  const { SITE_NOW, fixedCatalog, temporaryDirectory, testSiteLinks } = await import('../../packages/core/src/test-support.ts')
  const dataDir = temporaryDirectory()
  const db = await openDatabase({ dataDir: dataDir.dir })
  try {
    const context = { db, catalog: fixedCatalog(), links: testSiteLinks('http://127.0.0.1'), siteNow: () => SITE_NOW }
    return await measure(() => createRegistration(context, JSON.parse(registrationBody())))
  } finally {
    await db.close()
    dataDir.remove()
  }
}

async function measureEcho() {
  const server = await startEchoServer()
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  try {
    return await measure(() => post(agent, `${server.baseUrl}/`, registrationBody(), 201))
  } finally {
    agent.destroy()
    await server.stop()
  }
}

export async function run() {
  // A site of its own: no per-IP limit (every post comes from 127.0.0.1) and a fresh SQLite database.
  const site = await startSite({ env: { FORM_RATE_LIMIT: '0' } })
  let registrations
  try {
    registrations = await measureRegistrations(site.baseUrl)
  } finally {
    await site.stop()
  }
  const serviceInProcess = await measureServiceInProcess()
  const echo = await measureEcho()

  const row = (name, result) => [name, String(result.count), result.perSecond.toFixed(0), `${result.p50.toFixed(1)} ms`, `${result.p99.toFixed(1)} ms`]
  printTable(
    ['endpoint', 'requests', 'per second', 'p50', 'p99'],
    [
      row('POST /api/registrations', registrations),
      row('context: registration service in process (no HTTP)', serviceInProcess),
      row('context: node:http JSON echo (no work, no storage)', echo),
    ],
  )
  printTargets([
    {
      figure: 'registrations per second',
      measured: registrations.perSecond.toFixed(0),
      target: `>= ${PER_SECOND_TARGET}`,
      met: registrations.perSecond >= PER_SECOND_TARGET,
    },
    { figure: 'registration p99', measured: `${registrations.p99.toFixed(1)} ms`, target: `<= ${P99_TARGET_MS} ms`, met: registrations.p99 <= P99_TARGET_MS },
  ])
}
