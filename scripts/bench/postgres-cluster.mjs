// Two site processes on one PostgreSQL database behind a small round-robin proxy, as a deployment with several
// instances runs: registrations per second through the proxy (16 clients, each post from its own forwarded client
// address), every registrant's confirmation sent exactly once (counted per reference at a loopback SMTP server both
// processes send to), and the form rate limit shared (FORM_RATE_LIMIT + 1 posts from one address, alternating
// between the processes: the last one is refused although neither process saw more than half of them).
// The bench makes a database of its own on the server (bench_<pid>) and drops it afterwards.
import { Agent, createServer, request } from 'node:http'
import { createRequire } from 'node:module'
import path from 'node:path'
import { postgresClientConfig } from '../../packages/core/src/db/open-database.ts'
import { freePort, repoRoot, startSite } from '../../tests/support/site-server.ts'
import { startMailSink, waitForConfirmations } from './mail-sink.mjs'
import { measureRegistrations, post, registrationBody } from './registrations.mjs'
import { cores, printTable, printTargets } from './table.mjs'

export const title = `Registrations on PostgreSQL, two site processes behind a round-robin proxy (16 clients, ${cores} cores)`

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://127.0.0.1:5432/postgres'
const PER_SECOND_TARGET = 300
const FORM_RATE_LIMIT = 20
const SITES = 2
// How long the confirmations of the measured registrations may take to arrive before the bench stops waiting, and
// how long it then listens on for a second copy of any of them.
const DELIVERY_WAIT_MS = 5 * 60_000
const DUPLICATE_WATCH_MS = 5_000

// pg is the core package's dependency; the bench borrows it rather than adding it to the workspace root.
const pg = createRequire(path.join(repoRoot, 'packages/core/package.json'))('pg')

function databaseUrl(name) {
  const url = new URL(SERVER_URL)
  url.pathname = `/${name}`
  return url.href
}

/** Runs one statement against the server's maintenance database; rejects when the server cannot be reached. */
async function administer(statement) {
  // The site's own reading of the URL: a URL without a user connects as PGUSER or the operating-system user.
  const client = new pg.Client({ ...postgresClientConfig(SERVER_URL), connectionTimeoutMillis: 3_000 })
  client.on('error', () => {})
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/**
 * A round-robin HTTP proxy in front of `targets`: each request goes to the next one, with the client's address
 * appended to X-Forwarded-For as a real proxy does (the sites trust a proxy on loopback). Counts the requests each
 * target got.
 */
async function startRoundRobinProxy(targets) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 })
  const served = targets.map(() => 0)
  let next = 0
  const server = createServer((incoming, outgoing) => {
    const index = next
    next = (next + 1) % targets.length
    served[index] += 1
    const target = new URL(incoming.url ?? '/', targets[index])
    const forwardedFor = [incoming.headers['x-forwarded-for'], incoming.socket.remoteAddress].filter(Boolean).join(', ')
    const proxied = request(target, { method: incoming.method, headers: { ...incoming.headers, 'x-forwarded-for': forwardedFor }, agent }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(outgoing)
    })
    proxied.on('error', () => outgoing.writeHead(502).end())
    incoming.pipe(proxied)
  })
  const port = await freePort()
  await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)))
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    stop: () => {
      agent.destroy()
      return new Promise((resolve) => server.close(resolve))
    },
  }
}

/** A different documentation-range address (RFC 5737, 198.18.0.0/15) for every post, so no post is rate limited. */
function distinctAddresses() {
  let counter = 0
  return () => {
    counter += 1
    return `198.${18 + ((counter >> 16) & 1)}.${(counter >> 8) & 255}.${counter & 255}`
  }
}

export async function run() {
  const database = `bench_${process.pid}`
  try {
    await administer(`create database ${database}`)
  } catch (caught) {
    const error = /** @type {{ message?: string, code?: string }} */ (caught)
    console.log(
      `skipped: no PostgreSQL at ${SERVER_URL} (${error.message || error.code}); set BENCH_DATABASE_URL to a server the bench may create a database on.`,
    )
    return
  }
  const sink = await startMailSink()
  const sites = []
  let proxy
  try {
    const env = { DATABASE_URL: databaseUrl(database), SMTP_URL: sink.url, FORM_RATE_LIMIT: String(FORM_RATE_LIMIT) }
    // One after the other: the first brings the schema up to date, the second finds it so.
    for (let index = 0; index < SITES; index++) sites.push(await startSite({ env }))
    proxy = await startRoundRobinProxy(sites.map((site) => site.baseUrl))

    const accepted = new Set()
    const nextAddress = distinctAddresses()
    const throughput = await measureRegistrations(proxy.url, {
      headers: () => ({ 'x-forwarded-for': nextAddress() }),
      onAccepted: (reference) => accepted.add(reference),
    })
    const servedDuringThroughput = [...proxy.served]

    // The limit shared: FORM_RATE_LIMIT + 1 posts from one address, one after the other, so the proxy alternates.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const limitStatuses = []
    try {
      for (let attempt = 0; attempt <= FORM_RATE_LIMIT; attempt++) {
        const answer = await post(agent, `${proxy.url}/api/registrations`, registrationBody(), undefined, { 'x-forwarded-for': '203.0.113.7' })
        limitStatuses.push(answer.status)
        if (answer.status === 201) accepted.add(JSON.parse(answer.text).reference)
      }
    } finally {
      agent.destroy()
    }
    const allowedBeforeLimit = limitStatuses.slice(0, FORM_RATE_LIMIT).every((status) => status === 201)
    const lastRefused = limitStatuses[FORM_RATE_LIMIT] === 429

    const deliveryStarted = performance.now()
    const delivery = await waitForConfirmations(sink, accepted, DELIVERY_WAIT_MS)
    const deliverySeconds = ((delivery.lastAt ?? performance.now()) - deliveryStarted) / 1000
    await new Promise((resolve) => setTimeout(resolve, DUPLICATE_WATCH_MS))
    const { counts } = await waitForConfirmations(sink, accepted, 0)
    const sentTwice = [...counts.values()].filter((count) => count > 1).length
    const sentOnce = [...accepted].filter((reference) => counts.get(reference) === 1).length

    printTable(
      ['through the proxy', 'requests', 'per second', 'p50', 'p99', 'per process'],
      [
        [
          'POST /api/registrations',
          String(throughput.count),
          throughput.perSecond.toFixed(0),
          `${throughput.p50.toFixed(1)} ms`,
          `${throughput.p99.toFixed(1)} ms`,
          servedDuringThroughput.join(' / '),
        ],
      ],
    )
    console.log(
      `\n${accepted.size} registrations accepted; their confirmations arrived within ${deliverySeconds.toFixed(1)} s of the last post; ${sink.received.length} e-mails in all.`,
    )
    console.log(`${FORM_RATE_LIMIT + 1} posts from one address across ${SITES} processes (limit ${FORM_RATE_LIMIT} a minute): ${limitStatuses.join(' ')}`)
    printTargets([
      {
        figure: 'registrations per second (PostgreSQL, 2 processes)',
        measured: throughput.perSecond.toFixed(0),
        target: `>= ${PER_SECOND_TARGET}`,
        met: throughput.perSecond >= PER_SECOND_TARGET,
      },
      {
        figure: 'each confirmation sent exactly once',
        measured: `${sentOnce} of ${accepted.size} once, ${sentTwice} twice or more`,
        target: `${accepted.size} once`,
        met: sentOnce === accepted.size,
      },
      {
        figure: 'form rate limit shared',
        measured: `posts 1-${FORM_RATE_LIMIT} ${allowedBeforeLimit ? 'accepted' : 'not all accepted'}, post ${FORM_RATE_LIMIT + 1} answered ${limitStatuses[FORM_RATE_LIMIT]}`,
        target: `post ${FORM_RATE_LIMIT + 1} refused (429)`,
        met: allowedBeforeLimit && lastRefused,
      },
    ])
  } finally {
    await proxy?.stop()
    for (const site of sites) await site.stop()
    await sink.stop()
    await administer(`drop database if exists ${database} with (force)`)
  }
}
