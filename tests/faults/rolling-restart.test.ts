// A rolling restart behind HAProxy, configured for three instances by the shipped generator (deploy/haproxy-config.sh
// 3): three instances on one PostgreSQL database, clients registering and reading pages all along and keeping both
// cores busy, each instance restarted in turn as docs/operations.md says (SIGTERM, which drains it; start; ready).
// Nothing may fail (not one 503 from the balancer), every registration must be stored and every e-mail sent exactly
// once.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registrationBody } from '../support/registrations.ts'
import { freePort, launchSite, repoRoot, type LaunchedSite } from '../support/site-server.ts'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts'
import { connectPostgres } from '../support/postgres.ts'
import { waitUntil } from '../support/wait.ts'

const POSTGRES_URLS = process.env.TEST_DATABASE_URL ? [process.env.TEST_DATABASE_URL] : []
const INSTANCES = 3
/** Clients registering and reading pages at once through the balancer. */
const CLIENTS = 6

const isReady = (baseUrl: string) =>
  fetch(`${baseUrl}/readyz`).then(
    (response) => response.status === 200,
    () => false,
  )

describe.each(POSTGRES_URLS)('a rolling restart behind HAProxy on PostgreSQL (%s)', (databaseUrl) => {
  const database = `rolling_${process.pid}_${Date.now()}`
  const siteDatabaseUrl = new URL(databaseUrl)
  siteDatabaseUrl.hostname = '127.0.0.1'
  siteDatabaseUrl.pathname = `/${database}`
  let admin: pg.Client
  let sink: SmtpSink
  let haproxy: ChildProcess
  let haproxyOutput = ''
  let balancerUrl: string
  const dataDir = mkdtempSync(path.join(tmpdir(), 'events-rolling-'))
  const slots: Array<{ port: number; healthPort: number; site?: LaunchedSite }> = []
  let siteEnv: Record<string, string> & { DATA_DIR: string }

  function launch(slot: (typeof slots)[number]): Promise<LaunchedSite> {
    return launchSite({ port: slot.port, env: { ...siteEnv, HEALTH_PORT: String(slot.healthPort) } })
  }

  beforeAll(async () => {
    admin = await connectPostgres(databaseUrl)
    await admin.query(`create database "${database}"`)
    sink = await startSmtpSink()
    const balancerPort = await freePort()
    balancerUrl = `http://127.0.0.1:${balancerPort}`
    siteEnv = {
      DATA_DIR: dataDir,
      DATABASE_URL: siteDatabaseUrl.toString(),
      SMTP_URL: sink.url,
      SITE_URL: balancerUrl,
      FORM_RATE_LIMIT: '0',
      MIGRATE_ON_START: '0',
      SHUTDOWN_DRAIN_SECONDS: '2',
    }
    // The deploy's first step: the migrations, once, before any instance starts, with the production command.
    const migrated = spawnSync(path.join(repoRoot, 'scripts/serve'), ['--migrate'], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: siteEnv.DATABASE_URL },
      encoding: 'utf8',
    })
    expect(migrated.status, migrated.stderr).toBe(0)

    for (let index = 0; index < INSTANCES; index++) slots.push({ port: await freePort(), healthPort: await freePort() })
    await Promise.all(slots.map(async (slot) => (slot.site = await launch(slot))))
    await waitUntil(async () => (await Promise.all(slots.map((slot) => isReady(`http://127.0.0.1:${slot.port}`)))).every(Boolean), 'every instance ready')

    // The generator's configuration, beside a copy of the error pages it names relative to its own directory.
    const generated = spawnSync(path.join(repoRoot, 'deploy/haproxy-config.sh'), [String(INSTANCES)], { encoding: 'utf8' })
    expect(generated.status, generated.stderr).toBe(0)
    cpSync(path.join(repoRoot, 'deploy/errors'), path.join(dataDir, 'errors'), { recursive: true })
    writeFileSync(path.join(dataDir, 'haproxy.cfg'), generated.stdout)
    haproxy = spawn('haproxy', ['-db', '-f', path.join(dataDir, 'haproxy.cfg')], {
      env: {
        ...process.env,
        HAPROXY_BIND: `127.0.0.1:${balancerPort}`,
        ...Object.fromEntries(
          slots.flatMap((slot, index) => [
            [`SITE_${index + 1}`, `127.0.0.1:${slot.port}`],
            [`SITE_${index + 1}_HEALTH`, String(slot.healthPort)],
          ]),
        ),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    haproxy.stdout?.on('data', (chunk: Buffer) => (haproxyOutput += chunk.toString()))
    haproxy.stderr?.on('data', (chunk: Buffer) => (haproxyOutput += chunk.toString()))
    await waitUntil(
      async () =>
        (await fetch(`${balancerUrl}/conference`).then(
          (response) => response.status,
          () => 0,
        )) === 200,
      'HAProxy to answer',
    )
  }, 300_000)

  afterAll(async () => {
    haproxy?.kill('SIGTERM')
    for (const slot of slots) {
      slot.site?.process.kill('SIGTERM')
      await slot.site?.exited
    }
    await sink?.stop()
    await admin?.query(`drop database if exists "${database}" with (force)`)
    await admin?.end()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('loses no request, stores every registration and sends every e-mail once, while each instance is restarted in turn', async () => {
    const failures: string[] = []
    const acknowledged: string[] = []
    let pagesRead = 0
    let running = true
    const pages = ['/', '/conference/Resilience', '/workshop/legalOpinion', '/terms']
    async function client(index: number): Promise<void> {
      for (let turn = 0; running; turn++) {
        try {
          if ((index + turn) % 2 === 0) {
            const response = await fetch(`${balancerUrl}/api/registrations`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(registrationBody()),
            })
            const body = (await response.json()) as { reference?: string }
            if (response.status === 201 && body.reference) acknowledged.push(body.reference)
            else failures.push(`registration answered ${response.status}: ${JSON.stringify(body)}`)
          } else {
            const response = await fetch(`${balancerUrl}${pages[turn % pages.length]}`)
            await response.arrayBuffer()
            if (response.status === 200) pagesRead += 1
            else failures.push(`page answered ${response.status}`)
          }
        } catch (error) {
          failures.push(`request failed: ${(error as Error).message}`)
        }
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)))
    await new Promise((resolve) => setTimeout(resolve, 1500))

    const restarts: Array<{ slot: number; stoppedInMs: number; readyInMs: number }> = []
    for (const [index, slot] of slots.entries()) {
      const old = slot.site!
      const stoppingAt = Date.now()
      old.process.kill('SIGTERM')
      const exit = await old.exited
      expect(exit, old.output()).toEqual({ code: 0, signal: null })
      const stoppedInMs = Date.now() - stoppingAt
      const startingAt = Date.now()
      slot.site = await launch(slot)
      await waitUntil(() => isReady(`http://127.0.0.1:${slot.port}`), `instance ${index + 1} ready again`)
      restarts.push({ slot: index + 1, stoppedInMs, readyInMs: Date.now() - startingAt })
      // The balancer puts it back after one passing check (every 500 ms) before the next one drains.
      await new Promise((resolve) => setTimeout(resolve, 1500))
    }
    await new Promise((resolve) => setTimeout(resolve, 1500))
    running = false
    await load

    console.log(
      `rolling restart: ${acknowledged.length} registrations and ${pagesRead} pages through HAProxy, ${failures.length} failed; restarts ${JSON.stringify(restarts)}; load average ${loadavg()[0]!.toFixed(1)}`,
    )
    expect(failures, haproxyOutput).toEqual([])
    expect(acknowledged.length).toBeGreaterThan(20)
    expect(pagesRead).toBeGreaterThan(20)

    const outbox = await connectPostgres(databaseUrl, database)
    try {
      const stored = await outbox.query<{ reference: string }>('select reference from registrations')
      expect(new Set(stored.rows.map((row) => row.reference))).toEqual(new Set(acknowledged))
      await waitUntil(
        async () => (await outbox.query("select count(*)::int as waiting from outbox_messages where status <> 'sent'")).rows[0].waiting === 0,
        'every e-mail to be sent',
        // Some hundreds of registrations, four e-mails each, sent by three instances through one SMTP sink.
        90_000,
      )
      const ids = (await outbox.query<{ id: string }>('select id from outbox_messages')).rows.map((row) => row.id)
      expect(ids.length).toBeGreaterThanOrEqual(acknowledged.length * 4)
      const received = sink.received.map((mail) => /outbox-(.+)@/.exec(mail.parsed.messageId ?? '')?.[1])
      expect(received.length).toBe(ids.length)
      expect(new Set(received)).toEqual(new Set(ids))
    } finally {
      await outbox.end()
    }
  }, 300_000)
})
