// A database outage behind the shipped HAProxy configuration (deploy/haproxy.cfg): two instances whose PostgreSQL
// goes away. Pages that need only content go on being served through the balancer; writes answer the site's JSON
// 503 with Retry-After; and with no instance at all the balancer answers with the site's own error pages.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registrationBody } from '../support/registrations.ts'
import { freePort, launchSite, repoRoot, type LaunchedSite } from '../support/site-server.ts'
import { connectPostgres } from '../support/postgres.ts'
import { startProxy, type TcpProxy } from '../support/tcp-proxy.ts'
import { waitUntil } from '../support/wait.ts'

const POSTGRES_URLS = process.env.TEST_DATABASE_URL ? [process.env.TEST_DATABASE_URL] : []

/** How long the outage is watched: longer than three failed readiness rounds and HAProxy's two failed probes. */
const OUTAGE_WATCH_MS = 6_000

const register = (baseUrl: string) =>
  fetch(`${baseUrl}/api/registrations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(registrationBody()) })

describe('deploy/haproxy.cfg', () => {
  it('is what deploy/haproxy-config.sh prints for two instances', () => {
    const generated = spawnSync(path.join(repoRoot, 'deploy/haproxy-config.sh'), ['2'], { encoding: 'utf8' })
    expect(generated.status, generated.stderr).toBe(0)
    expect(readFileSync(path.join(repoRoot, 'deploy/haproxy.cfg'), 'utf8')).toBe(generated.stdout)
    const three = spawnSync(path.join(repoRoot, 'deploy/haproxy-config.sh'), ['3'], { encoding: 'utf8' }).stdout
    expect(three).toContain('server site3 "${SITE_3}" check port "${SITE_3_HEALTH}"')
    expect(spawnSync(path.join(repoRoot, 'deploy/haproxy-config.sh'), ['three'], { encoding: 'utf8' }).status).toBe(64)
  })
})

describe.each(POSTGRES_URLS)('a database outage behind HAProxy on PostgreSQL (%s)', (databaseUrl) => {
  const database = `outage_${process.pid}_${Date.now()}`
  const target = new URL(databaseUrl)
  let admin: pg.Client
  let proxy: TcpProxy
  let haproxy: ChildProcess
  let haproxyOutput = ''
  let balancerUrl: string
  const dataDir = mkdtempSync(path.join(tmpdir(), 'events-outage-'))
  const sites: LaunchedSite[] = []

  beforeAll(async () => {
    admin = await connectPostgres(databaseUrl)
    await admin.query(`create database "${database}"`)
    proxy = await startProxy(target.hostname || '127.0.0.1', Number(target.port || 5432))
    const siteDatabaseUrl = new URL(databaseUrl)
    siteDatabaseUrl.hostname = '127.0.0.1'
    siteDatabaseUrl.port = String(proxy.port)
    siteDatabaseUrl.pathname = `/${database}`
    const balancerPort = await freePort()
    balancerUrl = `http://127.0.0.1:${balancerPort}`
    const siteEnv = { DATA_DIR: dataDir, DATABASE_URL: siteDatabaseUrl.toString(), SITE_URL: balancerUrl, FORM_RATE_LIMIT: '0', MIGRATE_ON_START: '0' }
    // Straight to PostgreSQL: spawnSync holds this process, and with it the proxy, until the migration ends.
    const directUrl = new URL(siteDatabaseUrl)
    directUrl.port = target.port
    const migrated = spawnSync('pnpm', ['db:migrate'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: directUrl.toString() }, encoding: 'utf8' })
    expect(migrated.status, migrated.stderr).toBe(0)

    const healthPorts = [await freePort(), await freePort()]
    for (const healthPort of healthPorts) sites.push(await launchSite({ env: { ...siteEnv, HEALTH_PORT: String(healthPort) } }))
    await waitUntil(
      async () =>
        (
          await Promise.all(
            healthPorts.map((port) =>
              fetch(`http://127.0.0.1:${port}/readyz`).then(
                (response) => response.ok,
                () => false,
              ),
            ),
          )
        ).every(Boolean),
      'both instances ready',
      120_000,
    )
    haproxy = spawn('haproxy', ['-db', '-f', path.join(repoRoot, 'deploy/haproxy.cfg')], {
      env: {
        ...process.env,
        HAPROXY_BIND: `127.0.0.1:${balancerPort}`,
        SITE_1: new URL(sites[0]!.baseUrl).host,
        SITE_1_HEALTH: String(healthPorts[0]),
        SITE_2: new URL(sites[1]!.baseUrl).host,
        SITE_2_HEALTH: String(healthPorts[1]),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    haproxy.stdout?.on('data', (chunk: Buffer) => (haproxyOutput += chunk.toString()))
    haproxy.stderr?.on('data', (chunk: Buffer) => (haproxyOutput += chunk.toString()))
    await waitUntil(
      async () =>
        (await fetch(`${balancerUrl}/conference/Resilience`).then(
          (response) => response.status,
          () => 0,
        )) === 200,
      'HAProxy to answer',
    )
  }, 300_000)

  afterAll(async () => {
    haproxy?.kill('SIGTERM')
    for (const site of sites) {
      site.process.kill('SIGTERM')
      await site.exited
    }
    await proxy?.restore()
    await admin?.query(`drop database if exists "${database}" with (force)`)
    await admin?.end()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('serves /conference/Resilience through the balancer while the database is away, and answers a registration with JSON 503 and Retry-After', async () => {
    expect((await register(balancerUrl)).status).toBe(201)
    await proxy.cut()

    const pageStatuses: number[] = []
    const registrationAnswers: Array<{ status: number; retryAfter: string | null; code?: string }> = []
    const until = Date.now() + OUTAGE_WATCH_MS
    while (Date.now() < until) {
      const page = await fetch(`${balancerUrl}/conference/Resilience`)
      await page.arrayBuffer()
      pageStatuses.push(page.status)
      const refused = await register(balancerUrl)
      const body = (await refused.json()) as { error?: { code: string } }
      registrationAnswers.push({ status: refused.status, retryAfter: refused.headers.get('retry-after'), code: body.error?.code })
    }
    expect(pageStatuses.length).toBeGreaterThan(5)
    expect(
      pageStatuses.filter((status) => status !== 200),
      haproxyOutput,
    ).toEqual([])
    expect(new Set(registrationAnswers.map((answer) => JSON.stringify(answer)))).toEqual(
      new Set([JSON.stringify({ status: 503, retryAfter: '10', code: 'unavailable' })]),
    )
    expect(haproxyOutput).not.toMatch(/no server available/)
    for (const site of sites) expect(site.output()).not.toMatch(/Not ready/)

    await proxy.restore()
    await waitUntil(async () => (await register(balancerUrl)).status === 201, 'registrations after the outage')
  })

  it("answers with the site's branded page and, on /api, its JSON 503 with Retry-After when no instance is left", async () => {
    for (const site of sites) {
      site.process.kill('SIGTERM')
      await site.exited
    }
    // Until its health checks mark both servers down, HAProxy still tries them and answers its error page to every
    // path; from then on (nbsrv 0) /api gets the JSON refusal.
    await waitUntil(
      async () => ((await register(balancerUrl)).headers.get('content-type') ?? '').startsWith('application/json'),
      'the balancer to count no instance',
    )
    const page = await fetch(`${balancerUrl}/conference/Resilience`)
    expect(page.status).toBe(503)
    expect(page.headers.get('retry-after')).toBe('10')
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await page.text()).toContain('<title>Temporarily unavailable</title>')
    const refused = await register(balancerUrl)
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('10')
    expect(await refused.json()).toEqual({
      error: { code: 'unavailable', message: 'Our service is unavailable just now. Please try again in a few minutes.', fields: {} },
    })
  })
})
