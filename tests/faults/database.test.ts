// The built site against a database that goes away: PostgreSQL behind a TCP proxy that is cut and restored, its
// connections terminated by the server, two instances sharing one rate limit, and a database that never comes up.
import { createServer } from 'node:net'
import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createStaffAccount, signInCookie } from '../support/admin.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'
import { registrationBody } from '../support/registrations.ts'
import { connectPostgres } from '../support/postgres.ts'
import { startProxy, type TcpProxy } from '../support/tcp-proxy.ts'
import { waitUntil } from '../support/wait.ts'

const POSTGRES_URLS = process.env.TEST_DATABASE_URL ? [process.env.TEST_DATABASE_URL] : []
const WEBHOOK_SECRET = 'faults-webhook-secret'
const METRICS_TOKEN = 'faults-metrics-token-0123456789'

let nextAddress = 1
/** A receipt, an accepted enquiry or an error body: the fields the tests read. */
interface AnswerBody {
  reference?: string
  statusUrl?: string
  error?: { code: string; message: string; fields: Record<string, string> }
}

async function postJson(base: string, path: string, body: unknown, ip = `198.51.100.${(nextAddress = (nextAddress % 250) + 1)}`) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, json: text.startsWith('{') ? (JSON.parse(text) as AnswerBody) : undefined }
}

async function stillRunning(site: RunningSite): Promise<boolean> {
  return Promise.race([site.exited.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 50))])
}

describe.each(POSTGRES_URLS)('the site on PostgreSQL (%s): the back office, and the database failing', (databaseUrl) => {
  const target = new URL(databaseUrl)
  const schema = `site_faults_${Date.now().toString(36)}`
  const applicationName = `events_site_${schema}`
  let admin: pg.Client
  let proxy: TcpProxy
  let site: RunningSite
  let otherInstance: RunningSite

  // The site's own connections carry an application name and a schema of their own, so the faults and the checks
  // touch nothing of the other test files sharing this database server.
  function siteDatabaseUrl(port: number): string {
    const url = new URL(databaseUrl)
    url.hostname = '127.0.0.1'
    url.port = String(port)
    url.searchParams.set('options', `-c search_path=${schema}`)
    url.searchParams.set('application_name', applicationName)
    return url.toString()
  }

  beforeAll(async () => {
    admin = await connectPostgres(databaseUrl)
    await admin.query(`create schema "${schema}"`)
    proxy = await startProxy(target.hostname || '127.0.0.1', Number(target.port || 5432))
    // Instances that must write: without the database they leave the balancer.
    const env = { FORM_RATE_LIMIT: '3', SANITY_WEBHOOK_SECRET: WEBHOOK_SECRET, METRICS_TOKEN, READY_NEEDS_DATABASE: '1' }
    // One after the other: Kysely's migrator can trip over a second instance creating its tables in an empty schema.
    site = await startSite({ env: { ...env, DATABASE_URL: siteDatabaseUrl(proxy.port) } })
    otherInstance = await startSite({ env: { ...env, DATABASE_URL: siteDatabaseUrl(Number(target.port || 5432)) } })
  })

  afterAll(async () => {
    await Promise.all([site?.stop(), otherInstance?.stop()])
    await proxy?.cut()
    await admin?.query(`drop schema if exists "${schema}" cascade`)
    await admin?.end()
  })

  async function storedReferences(): Promise<Set<string>> {
    const { rows } = await admin.query<{ reference: string }>(`select reference from "${schema}".registrations`)
    return new Set(rows.map((row) => row.reference))
  }

  it('answers 503 while the database is cut off, stays up, recovers by itself and loses no registration it accepted', async () => {
    const accepted: string[] = []
    const unexpected: string[] = []
    let answeredUnavailable = 0
    let loadRunning = true
    // Visitors keep registering through the whole outage: each answer is either accepted (201) or "try again" (503).
    const load = (async () => {
      while (loadRunning) {
        const answer = await postJson(site.baseUrl, '/api/registrations', registrationBody())
        if (answer.status === 201) accepted.push(String(answer.json?.reference))
        else if (answer.status === 503) answeredUnavailable++
        else unexpected.push(`${answer.status} ${answer.text.slice(0, 200)}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    })()

    try {
      const before = await postJson(site.baseUrl, '/api/registrations', registrationBody())
      expect(before.status, before.text).toBe(201)
      const statusUrl = String(before.json?.statusUrl)
      expect((await fetch(statusUrl)).status).toBe(200)

      await proxy.cut()

      // The background check notices within about a second; the process itself stays alive.
      await waitUntil(async () => (await fetch(`${site.baseUrl}/readyz`)).status === 503, 'readiness to turn 503')
      expect(await (await fetch(`${site.baseUrl}/readyz`)).json()).toEqual({ status: 'unavailable', failing: ['database'] })
      expect((await fetch(`${site.baseUrl}/healthz`)).status).toBe(200)

      const refused = await postJson(site.baseUrl, '/api/registrations', registrationBody())
      expect(refused.status).toBe(503)
      expect(refused.headers.get('content-type')).toMatch(/^application\/json/)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(refused.json).toEqual({ error: { code: 'unavailable', message: expect.stringMatching(/try again/), fields: {} } })

      const statusJson = await fetch(statusUrl, { headers: { Accept: 'application/json' } })
      expect(statusJson.status).toBe(503)
      expect(((await statusJson.json()) as { error: { code: string } }).error.code).toBe('unavailable')

      const page = await fetch(statusUrl)
      expect(page.status).toBe(503)
      expect(page.headers.get('retry-after')).toBe('10')
      const html = await page.text()
      expect(html).toContain('<title>Temporarily unavailable</title>')
      expect(html).toContain('<h1>Temporarily unavailable</h1>')
      expect(html).toContain('href="/#contact"')
      expect(html).not.toMatch(/ECONNREFUSED|Connection terminated|postgres|at [\w.]+ \(/)
      expect(html).not.toContain(`:${proxy.port}`)

      // Pages that need no database go on serving.
      expect((await fetch(`${site.baseUrl}/workshop/legalOpinion`)).status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 1000))
      expect(await stillRunning(site)).toBe(true)

      await proxy.restore()
      await waitUntil(async () => (await fetch(`${site.baseUrl}/readyz`)).status === 200, 'recovery of /readyz')
      const after = await postJson(site.baseUrl, '/api/registrations', registrationBody())
      expect(after.status, after.text).toBe(201)
      expect((await fetch(String(after.json?.statusUrl))).status).toBe(200)

      loadRunning = false
      await load
      expect(unexpected).toEqual([])
      expect(accepted.length).toBeGreaterThan(0)
      expect(answeredUnavailable).toBeGreaterThan(0)
      const stored = await storedReferences()
      for (const reference of [before.json?.reference, after.json?.reference, ...accepted]) expect(stored).toContain(reference)
      expect(await stillRunning(site)).toBe(true)
    } finally {
      loadRunning = false
      await proxy.restore()
      await load
    }
  })

  it('survives PostgreSQL terminating every connection of the site, and the next requests succeed', async () => {
    const before = await postJson(site.baseUrl, '/api/registrations', registrationBody())
    expect(before.status, before.text).toBe(201)
    const { rows } = await admin.query<{ terminated: boolean }>(
      'select pg_terminate_backend(pid) as terminated from pg_stat_activity where application_name = $1',
      [applicationName],
    )
    expect(rows.length).toBeGreaterThan(0)
    await waitUntil(async () => site.output().includes('Database connection lost'), 'the lost connections being logged', 10_000)

    expect(await stillRunning(site)).toBe(true)
    expect(await stillRunning(otherInstance)).toBe(true)
    for (const instance of [site, otherInstance]) {
      const after = await postJson(instance.baseUrl, '/api/registrations', registrationBody())
      expect(after.status, after.text).toBe(201)
      expect((await fetch(String(after.json?.statusUrl))).status).toBe(200)
      await waitUntil(async () => (await fetch(`${instance.baseUrl}/readyz`)).status === 200, 'readiness after the lost connections')
      expect(await storedReferences()).toContain(after.json?.reference)
    }
    expect(await storedReferences()).toContain(before.json?.reference)
  })

  it('counts the form posts of one address on both instances against one limit', async () => {
    const enquiry = {
      fullName: 'Thandi Nkosi',
      email: 'thandi@example.com',
      phone: '+27 82 000 0000',
      interest: 'Conference',
      message: 'Please send the programme.',
    }
    const ip = '203.0.113.77'
    const statuses = []
    for (const instance of [site, otherInstance, site]) statuses.push((await postJson(instance.baseUrl, '/api/contact', enquiry, ip)).status)
    const refused = await postJson(otherInstance.baseUrl, '/api/contact', enquiry, ip)
    expect([...statuses, refused.status]).toEqual([201, 201, 201, 429])
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(refused.json?.error?.code).toBe('rate-limited')
  })

  it('drops the other instance’s cached pages when one gets the Sanity webhook, after the outages above too', async () => {
    const rendered = async (instance: RunningSite) => {
      const metrics = await (await fetch(`${instance.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
      return Number(/^page_cache_responses_total\{outcome="miss"\} (\d+)$/m.exec(metrics)?.[1] ?? 0)
    }
    // Each instance's notice channel comes back about a second after the outages above and then drops its pages, as
    // it may have missed a notice meanwhile: both must be listening again before the pages they keep are counted.
    await waitUntil(
      async () => {
        const { rows } = await admin.query<{ listening: string }>(
          "select count(*) as listening from pg_stat_activity where application_name = $1 and query like 'LISTEN %'",
          [applicationName],
        )
        return Number(rows[0]?.listening) === 2
      },
      'both notice channels listening again',
      10_000,
    )
    for (const instance of [site, otherInstance]) await fetch(`${instance.baseUrl}/conference/Resilience`)
    const before = await rendered(otherInstance)
    await fetch(`${otherInstance.baseUrl}/conference/Resilience`)
    expect(await rendered(otherInstance), 'kept before the webhook').toBe(before)

    const body = JSON.stringify({ _id: 'event-resilience', _type: 'event' })
    const signed = {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER_NAME]: await encodeSignatureHeader(body, Date.now(), WEBHOOK_SECRET) },
      body,
    }
    const delivered = await fetch(`${site.baseUrl}/api/sanity/webhook`, signed)
    expect(delivered.status).toBe(200)
    // The same signed delivery replayed to the other instance is recognised there too.
    expect(await (await fetch(`${otherInstance.baseUrl}/api/sanity/webhook`, signed)).json()).toEqual({ revalidated: false, duplicate: true })
    await expect
      .poll(
        async () => {
          await fetch(`${otherInstance.baseUrl}/conference/Resilience`)
          return rendered(otherInstance)
        },
        { timeout: 10_000 },
      )
      .toBe(before + 1)
  })
  it('runs the back office on PostgreSQL: an owner made with the CLI records a bank transfer and exports the delegate list', async () => {
    const owner = { email: 'owner-pg@example.com', name: 'Olu Owner', role: 'owner' as const, password: 'a long enough olu passphrase' }
    const cliDataDir = mkdtempSync(path.join(tmpdir(), 'events-admin-cli-'))
    try {
      await createStaffAccount(cliDataDir, owner, { databaseUrl: siteDatabaseUrl(Number(target.port || 5432)) })
    } finally {
      rmSync(cliDataDir, { recursive: true, force: true })
    }
    const base = otherInstance.baseUrl
    const registered = await postJson(base, '/api/registrations', registrationBody({ event: 'legalOpinion', paymentMethod: 'Bank Transfer' }))
    expect(registered.status).toBe(201)
    const reference = registered.json!.reference!
    const { rows: owed } = await admin.query<{ total_cents: string }>(`select total_cents from "${schema}".registrations where reference = $1`, [reference])
    const totalRands = (Number(owed[0]!.total_cents) / 100).toFixed(2)

    const cookie = await signInCookie(base, owner)
    const staffPost = (pathname: string, fields: Record<string, string>) =>
      fetch(`${base}${pathname}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, origin: base, 'sec-fetch-site': 'same-origin' },
        body: new URLSearchParams(fields),
      })
    const recorded = await staffPost(`/admin/registrations/${reference}/payments/new`, {
      amount: totalRands,
      receivedOn: '2025-03-01',
      bankReference: 'PG 4242',
      note: '',
    })
    expect(recorded.status).toBe(302)
    expect(recorded.headers.get('location')).toBe(`/admin/registrations/${reference}?recorded=payment`)
    const again = await staffPost(`/admin/registrations/${reference}/payments/new`, {
      amount: '1.00',
      receivedOn: '2025-03-01',
      bankReference: 'PG 4242',
      note: '',
    })
    expect(again.status).toBeGreaterThanOrEqual(400)

    const { rows: stored } = await admin.query<{ status: string; receipts: string }>(
      `select status, (select count(*) from "${schema}".outbox_messages m where m.source_id = r.id and m.topic = 'payment.receipt') as receipts
       from "${schema}".registrations r where reference = $1`,
      [reference],
    )
    expect(stored[0]).toEqual({ status: 'paid', receipts: '1' })
    const page = await fetch(`${base}/admin/registrations?q=${reference}`, { headers: { cookie } })
    expect(await page.text()).toContain(`/admin/registrations/${reference}`)
    const csv = await (await fetch(`${base}/admin/events/event-legal-opinion/delegates.csv`, { headers: { cookie } })).text()
    expect(csv).toContain(`${reference},`)
  })
})

describe('the site with a database that never answers', () => {
  it('retries at startup, one line per attempt, then exits with one clear line', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as { port: number }).port
    await new Promise((resolve) => closed.close(resolve))

    const failure = await startSite({ env: { DATABASE_URL: `postgres://events:secret@127.0.0.1:${port}/events`, DATABASE_STARTUP_WAIT_SECONDS: '3' } }).then(
      (started) => started.stop().then(() => new Error('the site started without its database')),
      (error: unknown) => error as Error,
    )
    const message = failure.message
    expect(message).toMatch(/exited with code 1 before it was healthy/)
    // The server logs JSON lines; what an operator reads is each line's message.
    const logged = message.split('\n').flatMap((line) => {
      try {
        return [(JSON.parse(line) as { msg: string }).msg]
      } catch {
        return []
      }
    })
    const retries = logged.filter((line) => line.includes('is not reachable'))
    expect(retries[0]).toBe(`PostgreSQL at 127.0.0.1:${port}/events is not reachable (connect ECONNREFUSED 127.0.0.1:${port}); attempt 1, retrying in 1.0 s`)
    expect(retries.length).toBeGreaterThanOrEqual(2)
    expect(logged).toContain(
      `Cannot start: Could not reach PostgreSQL at 127.0.0.1:${port}/events within 3 s (connect ECONNREFUSED 127.0.0.1:${port}); exiting.`,
    )
    expect(message).not.toMatch(/^\s+at /m)
    expect(message).not.toContain('secret')
  })
})
