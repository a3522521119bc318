// Readiness when the database answers but refuses writes: a standby after a failover, or a disk the server
// turned read-only. The site must say so to its load balancer, not answer 200 while every registration fails.
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registrationBody } from '../support/registrations.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'
import { connectPostgres } from '../support/postgres.ts'
import { waitUntil } from '../support/wait.ts'

const POSTGRES_URLS = process.env.TEST_DATABASE_URL ? [process.env.TEST_DATABASE_URL] : []

describe.each(POSTGRES_URLS)('readiness on PostgreSQL (%s) that turns read-only', (databaseUrl) => {
  const database = `readiness_${process.pid}_${Date.now()}`
  const applicationName = `events-readiness-${process.pid}`
  let admin: pg.Client
  let site: RunningSite

  beforeAll(async () => {
    admin = await connectPostgres(databaseUrl)
    await admin.query(`create database "${database}"`)
    const siteUrl = new URL(databaseUrl)
    siteUrl.hostname = '127.0.0.1'
    siteUrl.pathname = `/${database}`
    siteUrl.searchParams.set('application_name', applicationName)
    site = await startSite({ env: { DATABASE_URL: siteUrl.toString(), FORM_RATE_LIMIT: '0', READY_NEEDS_DATABASE: '1' } })
  })

  afterAll(async () => {
    await site?.stop()
    await admin?.query(`drop database if exists "${database}" with (force)`)
    await admin?.end()
  })

  /** New sessions of the database start read-only (or not), and the site's open ones are ended so it reconnects. */
  async function setReadOnly(readOnly: boolean): Promise<void> {
    await admin.query(`alter database "${database}" set default_transaction_read_only = ${readOnly ? 'on' : 'off'}`)
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = $2', [database, applicationName])
  }

  const readiness = async () => (await fetch(`${site.baseUrl}/readyz`)).status

  it('answers /readyz 503 naming the database while writes are refused, and 200 again once they are taken', async () => {
    expect(await readiness()).toBe(200)
    await setReadOnly(true)
    await waitUntil(async () => (await readiness()) === 503, '/readyz turning 503')
    expect(await (await fetch(`${site.baseUrl}/readyz`)).json()).toEqual({ status: 'unavailable', failing: ['database'] })
    // Reads still work, and the process is alive: only the balancer should stop sending to it.
    expect((await fetch(`${site.baseUrl}/healthz`)).status).toBe(200)
    const refused = await fetch(`${site.baseUrl}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationBody()),
    })
    expect(refused.status).toBeGreaterThanOrEqual(500)
    expect(site.output()).toMatch(/Not ready: the database check failed \(.*read-only transaction/)

    await setReadOnly(false)
    await waitUntil(async () => (await readiness()) === 200, '/readyz recovering')
    const accepted = await fetch(`${site.baseUrl}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationBody()),
    })
    expect(accepted.status).toBe(201)
  })
})
