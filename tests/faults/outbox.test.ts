// The built site's outbox against PostgreSQL connections that die just after a real SMTP server took a message and
// before it answered: the moment the send succeeds and its record fails. Every message must arrive at most once,
// long after the 30-second lease would have let another attempt send it again (docs/operations.md, "E-mail: at most
// once"), and one whose record was lost must be left to staff as uncertain.
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registrationBody } from '../support/registrations.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../support/smtp-sink.ts'
import { connectPostgres } from '../support/postgres.ts'
import { startProxy, type TcpProxy } from '../support/tcp-proxy.ts'
import { waitUntil } from '../support/wait.ts'

const POSTGRES_URLS = process.env.TEST_DATABASE_URL ? [process.env.TEST_DATABASE_URL] : []
const METRICS_TOKEN = 'outbox-faults-metrics-token-0123'
/** The outbox's lease (DEFAULT_LEASE_MS) and a margin: the moment an interrupted send used to be sent again. */
const PAST_THE_LEASE_MS = 30_000 + 10_000

interface OutboxRow {
  id: string
  status: string
  message_id: string | null
}

describe.each(POSTGRES_URLS)('the outbox on PostgreSQL (%s) when the connection dies after the send', (databaseUrl) => {
  const target = new URL(databaseUrl)
  const schema = `outbox_faults_${Date.now().toString(36)}`
  const applicationName = `events_site_${schema}`
  let admin: pg.Client
  let proxy: TcpProxy
  let sink: SmtpSink
  let site: RunningSite
  /** What strikes once the sink has kept a message and before it answers that it took it; at most once per arming. */
  let fault: (() => Promise<void>) | undefined
  let struck: ReceivedMail | undefined

  beforeAll(async () => {
    admin = await connectPostgres(databaseUrl)
    await admin.query(`create schema "${schema}"`)
    proxy = await startProxy(target.hostname || '127.0.0.1', Number(target.port || 5432))
    sink = await startSmtpSink({
      async beforeAccepting(mail) {
        const strike = fault
        if (!strike) return
        fault = undefined
        struck = mail
        await strike()
      },
    })
    const url = new URL(databaseUrl)
    url.hostname = '127.0.0.1'
    url.port = String(proxy.port)
    url.searchParams.set('options', `-c search_path=${schema}`)
    url.searchParams.set('application_name', applicationName)
    site = await startSite({ env: { DATABASE_URL: url.toString(), SMTP_URL: sink.url, METRICS_TOKEN, FORM_RATE_LIMIT: '0' }, keepOutput: true })
  })

  afterAll(async () => {
    await site?.stop()
    await sink?.stop()
    await proxy?.cut()
    await admin?.query(`drop schema if exists "${schema}" cascade`)
    await admin?.end()
  })

  /** The message the last fault struck under (read through a call: the sink sets it while a test waits). */
  function struckMail(): ReceivedMail | undefined {
    return struck
  }

  async function outboxRows(): Promise<OutboxRow[]> {
    const { rows } = await admin.query<OutboxRow>(`select id, status, message_id from "${schema}".outbox_messages`)
    return rows
  }

  async function register(): Promise<void> {
    const response = await fetch(`${site.baseUrl}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationBody()),
    })
    expect(response.status, await response.clone().text()).toBe(201)
  }

  /** How often the sink received each Message-ID. */
  function arrivals(): Map<string, number> {
    const counts = new Map<string, number>()
    for (const mail of sink.received) counts.set(String(mail.parsed.messageId), (counts.get(String(mail.parsed.messageId)) ?? 0) + 1)
    return counts
  }

  async function gauge(name: string): Promise<number> {
    const text = await (await fetch(`${site.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text()
    return Number(
      text
        .split('\n')
        .find((line) => line.startsWith(`${name} `))
        ?.slice(name.length + 1),
    )
  }

  /** Waits out the lease and then some, for any second attempt to show, and checks that none came. */
  async function expectEachArrivedAtMostOnce(): Promise<OutboxRow[]> {
    await new Promise((resolve) => setTimeout(resolve, PAST_THE_LEASE_MS))
    await waitUntil(async () => (await outboxRows()).every((row) => row.status !== 'sending' && row.status !== 'pending'), 'every message settled')
    const rows = await outboxRows()
    const counts = arrivals()
    expect(
      [...counts.values()].every((count) => count === 1),
      JSON.stringify([...counts]),
    ).toBe(true)
    for (const row of rows.filter((candidate) => candidate.status === 'sent')) expect(counts.get(String(row.message_id))).toBe(1)
    return rows
  }

  it('sends a message once when PostgreSQL terminates the site’s connections just after SMTP took it', async () => {
    fault = async () => {
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [applicationName])
    }
    await register()
    await waitUntil(() => struckMail() !== undefined, 'the first e-mail reaching the SMTP server')
    const rows = await expectEachArrivedAtMostOnce()
    const first = rows.find((row) => row.message_id === struckMail()?.parsed.messageId)
    expect(first, 'the message the connections died under').toBeDefined()
    // Recorded on a fresh connection, or (had that failed too) left to staff; never sent a second time.
    expect(['sent', 'uncertain']).toContain(first?.status)
    expect(arrivals().get(String(struckMail()?.parsed.messageId))).toBe(1)
    expect(await stillServing()).toBe(true)
  }, 150_000)

  it('leaves a message whose record was lost with the database as uncertain, sent once, and counts it in /metrics', async () => {
    const before = sink.received.length
    struck = undefined
    // The database stays away for a few seconds after SMTP took the message: both tries to record it fail.
    fault = async () => {
      await proxy.cut()
      setTimeout(() => void proxy.restore(), 3_000)
    }
    await register()
    await waitUntil(() => struckMail() !== undefined, 'the first e-mail reaching the SMTP server')
    const rows = await expectEachArrivedAtMostOnce()
    expect(sink.received.length).toBeGreaterThan(before)
    const lost = rows.find((row) => row.message_id === struckMail()?.parsed.messageId)
    expect(lost?.status).toBe('uncertain')
    expect(arrivals().get(String(struckMail()?.parsed.messageId))).toBe(1)
    expect(await gauge('outbox_uncertain_messages')).toBe(rows.filter((row) => row.status === 'uncertain').length)
    expect(await gauge('outbox_uncertain_messages')).toBeGreaterThanOrEqual(1)
    expect(site.output()).toMatch(/outbox: \S+ message \S+ was being sent when its worker stopped answering; it is not sent again until staff say so/)
  }, 150_000)

  async function stillServing(): Promise<boolean> {
    return (await fetch(`${site.baseUrl}/healthz`)).status === 200
  }
})
