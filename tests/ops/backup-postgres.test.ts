// `pnpm backup` on PostgreSQL against the running site during a burst of registrations, and `pnpm restore` into a
// fresh database with its check of the money tables; the site then serves from the restored copy. Collected only with
// TEST_DATABASE_URL (tests/vitest.http.config.ts).
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectPostgres } from '../support/postgres.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'
import { repoRoot, startSite, type RunningSite } from '../support/site-server.ts'

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test'
const schema = `backup_${Date.now().toString(36)}`
const freshDatabases = [`${schema}_restored`, `${schema}_tampered`]

let admin: pg.Client
let site: RunningSite
let workDir: string

/** The URL of `database` on the test server, its connections working in the site's schema when `inSchema`. */
function databaseUrl(database: string, inSchema = true): string {
  const url = new URL(serverUrl)
  url.pathname = `/${database}`
  if (inSchema) url.searchParams.set('options', `-c search_path=${schema}`)
  return url.toString()
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'events-pg-backup-'))
  admin = await connectPostgres(serverUrl)
  await admin.query(`create schema "${schema}"`)
  site = await startSite({ env: { DATABASE_URL: databaseUrl(new URL(serverUrl).pathname.slice(1)), FORM_RATE_LIMIT: '0' } })
})

afterAll(async () => {
  await site?.stop()
  await admin?.query(`drop schema if exists "${schema}" cascade`)
  for (const database of freshDatabases) await admin?.query(`drop database if exists "${database}" with (force)`)
  await admin?.end()
  rmSync(workDir, { recursive: true, force: true })
})

function pnpm(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('pnpm', ['-s', ...args], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('error', reject)
    child.once('exit', (code) => resolve({ code, output }))
  })
}

async function register(base: string): Promise<RegistrationReceipt> {
  const response = await fetch(`${base}/api/registrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(registrationBody()),
  })
  if (response.status !== 201) throw new Error(`registration answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as RegistrationReceipt
}

describe('pnpm backup and pnpm restore on PostgreSQL', () => {
  it('dumps the running site in one snapshot; the restore into a fresh database checks the money tables and serves every registration acknowledged before', async () => {
    const acknowledged: RegistrationReceipt[] = []
    let bursting = true
    const clients = Array.from({ length: 4 }, async () => {
      while (bursting) acknowledged.push(await register(site.baseUrl))
    })
    const destination = path.join(workDir, 'nightly')
    let beforeBackup: RegistrationReceipt[]
    try {
      await expect.poll(() => acknowledged.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(12)
      beforeBackup = [...acknowledged]
      const backup = await pnpm(['backup', destination], { DATABASE_URL: databaseUrl(new URL(serverUrl).pathname.slice(1)) })
      expect(backup.code, backup.output).toBe(0)
      expect(backup.output).toMatch(
        new RegExp(
          `^Backed up PostgreSQL schema ${schema} to ${destination}/events\\.dump \\(\\d+ registrations, \\d+ invoices, .*\\); pnpm restore ${destination} restores it into a fresh database\\.\\n$`,
        ),
      )
    } finally {
      bursting = false
      await Promise.allSettled(clients)
    }
    // The site went on registering while the dump was taken, and after it.
    expect(acknowledged.length).toBeGreaterThan(beforeBackup.length)
    expect(readdirSync(destination).sort()).toEqual(['counts.json', 'events.dump'])
    for (const file of ['counts.json', 'events.dump']) expect(statSync(path.join(destination, file)).mode & 0o777, file).toBe(0o600)
    const backedUp = JSON.parse(readFileSync(path.join(destination, 'counts.json'), 'utf8')) as { schema: string; counts: Record<string, number> }
    expect(backedUp.schema).toBe(schema)
    expect(backedUp.counts.registrations).toBeGreaterThanOrEqual(beforeBackup.length)
    expect(backedUp.counts.registrations).toBeLessThan(acknowledged.length)

    const [restoredDatabase = '', tamperedDatabase = ''] = freshDatabases
    await admin.query(`create database "${restoredDatabase}"`)
    const restore = await pnpm(['restore', destination], { DATABASE_URL: databaseUrl(restoredDatabase, false) })
    expect(restore.code, restore.output).toBe(0)
    expect(restore.output).toBe(
      `Restored schema ${schema} from ${destination}/events.dump; the restore check found every money table as backed up (${Object.entries(backedUp.counts)
        .map(([table, rows]) => `${rows} ${table}`)
        .join(', ')}).\n`,
    )

    // Restoring over a database that has the site's tables is refused, and changes nothing.
    const again = await pnpm(['restore', destination], { DATABASE_URL: databaseUrl(restoredDatabase, false) })
    expect(again.code).toBe(1)
    expect(again.output).toBe(
      `Restore failed: The database already has the site's tables in schema ${schema}: restore into a fresh database, then point DATABASE_URL at it\n`,
    )

    // A copy that does not hold what the backup counted fails the check.
    const tampered = path.join(workDir, 'tampered')
    await pnpm(['backup', tampered], { DATABASE_URL: databaseUrl(new URL(serverUrl).pathname.slice(1)) })
    const counts = JSON.parse(readFileSync(path.join(tampered, 'counts.json'), 'utf8')) as { schema: string; counts: Record<string, number> }
    const registrations = counts.counts.registrations ?? 0
    writeFileSync(path.join(tampered, 'counts.json'), JSON.stringify({ ...counts, counts: { ...counts.counts, registrations: registrations + 1 } }))
    await admin.query(`create database "${tamperedDatabase}"`)
    const check = await pnpm(['restore', tampered], { DATABASE_URL: databaseUrl(tamperedDatabase, false) })
    expect(check.code).toBe(1)
    expect(check.output).toBe(`Restore failed: The restored copy does not match the backup: registrations ${registrations} (backup: ${registrations + 1})\n`)

    // The site on the restored database shows every registration acknowledged before the backup, and takes new ones.
    const restored = await startSite({ env: { DATABASE_URL: databaseUrl(restoredDatabase) } })
    try {
      for (const receipt of beforeBackup) {
        const response = await fetch(`${restored.baseUrl}${new URL(receipt.statusUrl).pathname}`, { headers: { Accept: 'application/json' } })
        expect(response.status, receipt.reference).toBe(200)
        expect(await response.json()).toMatchObject({ reference: receipt.reference, status: receipt.status })
      }
      await register(restored.baseUrl)
    } finally {
      await restored.stop()
    }
    // Five commands and two sites: each command takes about 40 s to start on a loaded two-core machine.
  }, 600_000)
})
