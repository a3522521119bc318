// `pnpm backup` against the running site during a burst of registrations, and the site restored from the copy.
import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'
import { repoRoot, startSite, type RunningSite } from '../support/site-server.ts'

let site: RunningSite
let workDir: string

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'events-backup-test-'))
  site = await startSite({ env: { FORM_RATE_LIMIT: '0' } })
})

afterAll(async () => {
  await site?.stop()
  rmSync(workDir, { recursive: true, force: true })
})

function runBackup(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('pnpm', ['-s', 'backup', ...args], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
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

describe('pnpm backup', () => {
  it('copies the running site during a burst of registrations; the copy restores with every registration acknowledged before it began', async () => {
    const acknowledged: RegistrationReceipt[] = []
    let bursting = true
    const clients = Array.from({ length: 4 }, async () => {
      while (bursting) acknowledged.push(await register(site.baseUrl))
    })
    try {
      await expect.poll(() => acknowledged.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(20)

      const beforeBackup = [...acknowledged]
      const destination = path.join(workDir, 'nightly')
      const backup = await runBackup([destination], { DATA_DIR: site.dataDir })
      const duringOrAfter = acknowledged.length - beforeBackup.length
      expect(backup.code, backup.output).toBe(0)
      expect(backup.output).toMatch(/^Backed up .* registrations, \d+ e-mails; the database passed SQLite's integrity check\.\n$/)
      // The site went on registering while the copy was made.
      expect(duringOrAfter).toBeGreaterThan(0)

      const mailFiles = readdirSync(path.join(destination, 'mail'))
      expect(mailFiles.length).toBeGreaterThan(0)
      expect(readdirSync(destination).sort()).toEqual(['events.sqlite', 'mail'])
      for (const file of ['events.sqlite', ...mailFiles.map((name) => `mail/${name}`)]) {
        expect(statSync(path.join(destination, file)).mode & 0o777, file).toBe(0o600)
      }

      const copy = new DatabaseSync(path.join(destination, 'events.sqlite'), { readOnly: true })
      let copiedReferences: string[]
      try {
        expect(copy.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
        copiedReferences = copy
          .prepare('SELECT reference FROM registrations')
          .all()
          .map((row) => String(row.reference))
      } finally {
        copy.close()
      }
      expect(copiedReferences).toEqual(expect.arrayContaining(beforeBackup.map((receipt) => receipt.reference)))

      bursting = false
      await Promise.all(clients)

      // Restoring is copying the files into an empty DATA_DIR and starting the site on it.
      const restoredDir = path.join(workDir, 'restored')
      cpSync(destination, restoredDir, { recursive: true })
      const restored = await startSite({ env: { DATA_DIR: restoredDir } })
      try {
        for (const receipt of beforeBackup) {
          const response = await fetch(`${restored.baseUrl}${new URL(receipt.statusUrl).pathname}`, { headers: { Accept: 'application/json' } })
          expect(response.status, receipt.reference).toBe(200)
          expect(await response.json()).toMatchObject({ reference: receipt.reference, status: receipt.status })
        }
        // The restored site takes new registrations.
        await register(restored.baseUrl)
      } finally {
        await restored.stop()
      }
    } finally {
      bursting = false
      await Promise.allSettled(clients)
    }
  })

  it('fails, writing nothing, when the PostgreSQL server DATABASE_URL names does not answer', async () => {
    // Nothing listens on port 9 (discard) here. The PostgreSQL backup itself: tests/ops/backup-postgres.test.ts.
    const backup = await runBackup([path.join(workDir, 'pg')], { DATABASE_URL: 'postgres://127.0.0.1:9/events', DATA_DIR: site.dataDir })
    expect(backup.code).toBe(1)
    expect(backup.output).toMatch(/^Backup failed: .*ECONNREFUSED/)
    expect(readdirSync(workDir)).not.toContain('pg')
  })
})
