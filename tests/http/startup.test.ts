// Known misconfigurations stop the real server at startup with one log line that says what to change, no stack
// trace, and a failed exit.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { repoRoot, startSite, startSiteExpectingExit, type RefusedStart } from '../support/site-server.ts'

const scratch = mkdtempSync(path.join(tmpdir(), 'events-startup-'))
const aFile = path.join(scratch, 'not-a-directory')
writeFileSync(aFile, 'a file')
// A directory the server may read and enter but not write to. Root may write anywhere, so as root the server runs
// as the unprivileged user nobody (the scratch directory is opened up for it to reach).
const readOnlyDir = path.join(scratch, 'read-only')
mkdirSync(readOnlyDir)
chmodSync(readOnlyDir, 0o555)
chmodSync(scratch, 0o755)
const unprivileged = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined

const FATAL = 60

/** What the server printed, as the JSON lines it logs: level and message only (no stack, no other fields but pino's own). */
function printedLines(result: RefusedStart): Array<{ level: number; msg: string }> {
  expect(result.stderr).toBe('')
  return result.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const { level, msg, ...rest } = JSON.parse(line) as { level: number; msg: string; [field: string]: unknown }
      expect(Object.keys(rest).sort()).toEqual(['hostname', 'pid', 'time'])
      return { level, msg }
    })
}

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true })
})

describe('a misconfigured server', () => {
  it.each([
    [
      'DATA_DIR is a file',
      { DATA_DIR: aFile },
      `DATA_DIR ${aFile} is not a directory (it, or a folder above it, is a file): set DATA_DIR to a directory the server may write to`,
    ],
    [
      'DATA_DIR is read-only',
      { DATA_DIR: readOnlyDir },
      `DATA_DIR ${readOnlyDir} is read-only for this server: make it writable, or set DATA_DIR to a directory the server may write to`,
    ],
    [
      'a public SITE_URL has neither Yoco keys nor PAYMENTS_SANDBOX=1',
      { SITE_URL: 'https://events.example.com' },
      'Card payments need YOCO_SECRET_KEY and YOCO_WEBHOOK_SECRET on https://events.example.com; set PAYMENTS_SANDBOX=1 to use the sandbox checkout, which charges nothing, instead',
    ],
    ['PORT is not a port', { PORT: 'eighty' }, 'PORT must be a whole number from 0 to 65535, not "eighty"'],
    ['PORT is out of range', { PORT: '70000' }, 'PORT must be a whole number from 0 to 65535, not "70000"'],
    [
      'SITE_DATE is not a date',
      { SITE_DATE: 'next week' },
      'SITE_DATE is not a date: "next week"; set it like 2025-03-01 or 2025-03-01T09:00:00+02:00, or leave it unset',
    ],
  ] satisfies Array<[string, Record<string, string>, string]>)(
    'stops when %s, saying what to change in one line',
    async (_label, env: Record<string, string>, message) => {
      const asUnprivileged = env.DATA_DIR === readOnlyDir && unprivileged
      const result = await startSiteExpectingExit({ env, ...(asUnprivileged ? { user: unprivileged } : {}) })
      expect(result.code).not.toBe(0)
      expect(result.code).not.toBeNull()
      expect(printedLines(result)).toEqual([{ level: FATAL, msg: `Cannot start: ${message}` }])
    },
  )

  it('stops with one line when PORT is already taken', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const port = (taken.address() as { port: number }).port
    try {
      const result = await startSiteExpectingExit({ env: { PORT: String(port) } })
      expect(result.code).toBe(1)
      expect(printedLines(result).at(-1)).toEqual({ level: FATAL, msg: `Cannot start: port ${port} on 127.0.0.1 is already in use: set PORT to a free port` })
    } finally {
      taken.close()
    }
  })
})

describe('migrations left to `pnpm db:migrate` (MIGRATE_ON_START=0)', () => {
  it('refuses a database that lacks them in one line, and starts once `pnpm db:migrate` applied them', async () => {
    const dataDir = path.join(scratch, 'migrate-first')
    mkdirSync(dataDir)
    const refused = await startSiteExpectingExit({ env: { DATA_DIR: dataDir, MIGRATE_ON_START: '0' } })
    expect(refused.code).toBe(1)
    expect(printedLines(refused).at(-1)?.msg).toMatch(
      /^Cannot start: the database lacks \d+ migration\(s\) of this release \(2025-06-01-initial, .*\): run `pnpm db:migrate` first/,
    )

    const migrated = spawnSync('pnpm', ['db:migrate'], { cwd: repoRoot, env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' })
    expect(migrated.status, migrated.stderr).toBe(0)
    expect(migrated.stdout).toContain(`Database migrated (SQLite in ${dataDir})`)
    const site = await startSite({ env: { DATA_DIR: dataDir, MIGRATE_ON_START: '0' } })
    try {
      expect((await fetch(`${site.baseUrl}/readyz`)).status).toBe(200)
    } finally {
      await site.stop()
    }
  })
})
