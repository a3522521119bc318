// A burst of 2,000 registrations sent at an even pace over 10 seconds to one site on SQLite, whatever its answers
// take: every 201 must be a stored registration (its reference counted in the database afterwards) and every
// registrant's confirmation must reach a real SMTP server on loopback within 60 seconds of the burst's last answer.
// The confirmations are counted per reference too, so a message sent twice shows.
import { Agent } from 'node:http'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { startSite } from '../../tests/support/site-server.ts'
import { startMailSink, waitForConfirmations } from './mail-sink.mjs'
import { percentile, post, registrationBody } from './registrations.mjs'
import { cores, printTable, printTargets } from './table.mjs'

export const title = `A burst of 2,000 registrations in 10 seconds (SQLite): stored, and confirmed by e-mail (${cores} cores)`

const REGISTRATIONS = 2_000
const BURST_MS = 10_000
const DELIVERY_TARGET_MS = 60_000
// Past the target the bench waits on a while, so a miss says by how much.
const DELIVERY_PATIENCE_MS = 5 * 60_000
// The organiser, the registrant and the two delegates of each bench registration.
const MAILS_PER_REGISTRATION = 4

/** Sends `count` registrations, the i-th at i * interval from the start, without waiting for earlier answers. */
async function sendBurst(baseUrl, count, durationMs) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 })
  const interval = durationMs / count
  const started = performance.now()
  const answers = []
  try {
    await Promise.all(
      Array.from({ length: count }, async (_, index) => {
        const due = started + index * interval
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())))
        const sent = performance.now()
        const answer = await post(agent, `${baseUrl}/api/registrations`, registrationBody()).catch((error) => ({ status: 0, text: String(error) }))
        answers.push({ ...answer, latency: performance.now() - sent })
      }),
    )
  } finally {
    agent.destroy()
  }
  return { answers, elapsedMs: performance.now() - started, endedAt: performance.now() }
}

/** The references of every registration stored in a site's SQLite database. */
function storedReferences(dataDir) {
  const database = new DatabaseSync(path.join(dataDir, 'events.sqlite'), { readOnly: true })
  try {
    return new Set(
      database
        .prepare('select reference from registrations')
        .all()
        .map((row) => row.reference),
    )
  } finally {
    database.close()
  }
}

export async function run() {
  const sink = await startMailSink()
  const site = await startSite({ env: { FORM_RATE_LIMIT: '0', SMTP_URL: sink.url } })
  try {
    const burst = await sendBurst(site.baseUrl, REGISTRATIONS, BURST_MS)
    const accepted = new Set(burst.answers.filter((answer) => answer.status === 201).map((answer) => JSON.parse(answer.text).reference))
    const refused = burst.answers.length - accepted.size
    const stored = storedReferences(site.dataDir)
    const acceptedAndStored = [...accepted].filter((reference) => stored.has(reference)).length

    const delivery = await waitForConfirmations(sink, accepted, DELIVERY_TARGET_MS + DELIVERY_PATIENCE_MS)
    const lastConfirmationMs = delivery.lastAt === undefined ? undefined : delivery.lastAt - burst.endedAt
    const duplicated = [...delivery.counts.values()].filter((count) => count > 1).length
    const latencies = burst.answers.map((answer) => answer.latency).sort((a, b) => a - b)
    const seconds = (ms) => (ms === undefined ? 'none' : `${(ms / 1000).toFixed(1)} s`)

    printTable(
      [
        'sent',
        'answered 201',
        'other answers',
        'stored',
        'burst took',
        'answer p50',
        'p99',
        'confirmations',
        'sent twice',
        'e-mails',
        'last confirmation after burst',
      ],
      [
        [
          String(REGISTRATIONS),
          String(accepted.size),
          String(refused),
          String(acceptedAndStored),
          seconds(burst.elapsedMs),
          `${percentile(latencies, 0.5).toFixed(0)} ms`,
          `${percentile(latencies, 0.99).toFixed(0)} ms`,
          String(delivery.delivered),
          String(duplicated),
          `${sink.received.length} of ${accepted.size * MAILS_PER_REGISTRATION}`,
          seconds(lastConfirmationMs),
        ],
      ],
    )
    const otherAnswers = Map.groupBy(
      burst.answers.filter((answer) => answer.status !== 201),
      (answer) => `${answer.status === 0 ? 'no answer' : answer.status}: ${answer.text.slice(0, 160)}`,
    )
    for (const [answer, answers] of otherAnswers) console.log(`${answers.length} × ${answer}`)
    const deliveredInTime = delivery.delivered === accepted.size && lastConfirmationMs !== undefined && lastConfirmationMs <= DELIVERY_TARGET_MS
    printTargets([
      {
        figure: 'registrations answered 201',
        measured: `${accepted.size} of ${REGISTRATIONS}`,
        target: `${REGISTRATIONS}`,
        met: accepted.size === REGISTRATIONS,
      },
      { figure: 'every 201 stored', measured: `${acceptedAndStored} of ${accepted.size}`, target: 'all', met: acceptedAndStored === accepted.size },
      {
        figure: 'every confirmation delivered',
        measured: `${delivery.delivered} of ${accepted.size}, last ${seconds(lastConfirmationMs)} after the burst`,
        target: `all within ${DELIVERY_TARGET_MS / 1000} s`,
        met: deliveredInTime,
      },
      { figure: 'confirmations sent twice', measured: String(duplicated), target: '0', met: duplicated === 0 },
    ])
  } finally {
    await site.stop()
    await sink.stop()
  }
}
