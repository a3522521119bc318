// Registrations per second through POST /api/registrations on SQLite at 16 concurrent clients, against a bare
// node:http JSON echo measured in the same run on the same machine: the ratio says what the whole stack costs.
// The same echo behind the site's Express middleware (compression, JSON body parser) is measured too: it is the
// ceiling any Express route reaches on this machine before doing any work of its own. The registration service
// called in process, without HTTP, shows how much of the cost is the registration's own work and storage.
import { spawn } from 'node:child_process'
import { Agent, request } from 'node:http'
import path from 'node:path'
import { repoRoot, startSite } from '../../tests/support/site-server.ts'
import { printTable } from './table.mjs'

export const title = 'Registrations per second (SQLite, 16 concurrent clients)'

const CONCURRENCY = 16
const WARM_UP_REQUESTS = 200
const MEASURE_MS = 8_000
const RATIO_TARGET = 0.3

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

const expressEchoSource = `
const compression = require('compression')
const express = require('express')
const app = express()
app.use(compression())
app.post('/', express.json({ limit: '100kb' }), (req, res) => res.status(201).json(req.body))
const server = app.listen(0, '127.0.0.1', () => console.log(server.address().port))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
`

/** Starts a reference server from source in its own process; cwd decides where its require() looks for packages. */
async function startReferenceServer(source, cwd = process.cwd()) {
  const child = spawn(process.execPath, ['--input-type=commonjs', '-e', source], { cwd, stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`The echo server exited with code ${code}`)))
    child.stdout.once('data', (chunk) => resolve(Number(chunk.toString().trim())))
  })
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => {
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

function post(agent, url, body, expectedStatus) {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      response.resume()
      response.on('end', () => {
        if (response.statusCode !== expectedStatus) reject(new Error(`${url} answered ${response.statusCode}`))
        else resolve()
      })
    })
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

export function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * fraction) - 1)]
}

/** Runs CONCURRENCY callers of `submitOne` back to back: first a warm-up, then for MEASURE_MS; returns the rate and latencies. */
export async function measure(submitOne) {
  let warmUpLeft = WARM_UP_REQUESTS
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (warmUpLeft-- > 0) await submitOne()
    }),
  )
  const latencies = []
  const started = performance.now()
  const deadline = started + MEASURE_MS
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
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

async function measurePosts(url) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  try {
    return await measure(() => post(agent, url, registrationBody(), 201))
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

export async function run() {
  // A site of its own: no per-IP limit (every post comes from 127.0.0.1) and a fresh SQLite database.
  const site = await startSite({ env: { FORM_RATE_LIMIT: '0' } })
  let registrations
  try {
    registrations = await measurePosts(`${site.baseUrl}/api/registrations`)
  } finally {
    await site.stop()
  }
  const measureReference = async (source, cwd) => {
    const server = await startReferenceServer(source, cwd)
    try {
      return await measurePosts(`${server.baseUrl}/`)
    } finally {
      await server.stop()
    }
  }
  const echoResult = await measureReference(echoServerSource)
  const expressEcho = await measureReference(expressEchoSource, path.join(repoRoot, 'apps/site'))
  const serviceInProcess = await measureServiceInProcess()

  const row = (name, result) => [
    name,
    String(result.count),
    result.perSecond.toFixed(0),
    `${result.p50.toFixed(1)} ms`,
    `${result.p99.toFixed(1)} ms`,
    (result.perSecond / echoResult.perSecond).toFixed(2),
  ]
  printTable(
    ['endpoint', 'requests', 'per second', 'p50', 'p99', 'ratio to echo'],
    [
      row('POST /api/registrations', registrations),
      row('node:http JSON echo', echoResult),
      row('Express JSON echo (ceiling)', expressEcho),
      row('registration service in process (no HTTP)', serviceInProcess),
    ],
  )
  const ratio = registrations.perSecond / echoResult.perSecond
  console.log(`\nratio to the echo: ${ratio.toFixed(2)} (target >= ${RATIO_TARGET}: ${ratio >= RATIO_TARGET ? 'met' : 'not met'})`)
}
