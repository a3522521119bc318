import { spawn } from 'node:child_process'
import { PassThrough } from 'node:stream'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { TEST_BACKENDS, openTestDatabase, temporaryDirectory, testSiteLinks, type TestDatabase } from '@events/core/test-support'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { STAFF_CLIENT_IP_HEADER } from './auth.ts'
import { runAdminCommand } from './cli.ts'
import { createStaff } from './staff.ts'

const ADMIN_SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts/admin.mjs')

interface CommandResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `pnpm admin …` as the operator would: its own process, the password typed into standard input. */
function admin(args: string[], stdin: string, env: Record<string, string>): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ADMIN_SCRIPT, ...args], { env: { ...process.env, DATABASE_URL: '', ...env }, stdio: 'pipe' })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(stdin)
  })
}

describe.each(TEST_BACKENDS)('pnpm admin on %s', (backend) => {
  let testDb: TestDatabase
  let dataDir: { dir: string; remove: () => void }
  let env: Record<string, string>

  beforeEach(async () => {
    dataDir = temporaryDirectory()
    if (backend === 'postgres') {
      testDb = await openTestDatabase('postgres')
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(testDb.db.kysely)
      const url = new URL(process.env.TEST_DATABASE_URL ?? '')
      url.searchParams.set('options', `-c search_path=${rows[0]?.schema}`)
      env = { DATA_DIR: dataDir.dir, DATABASE_URL: url.toString() }
    } else {
      env = { DATA_DIR: dataDir.dir }
    }
  })
  afterEach(async () => {
    if (backend === 'postgres') await testDb.dispose()
    dataDir.remove()
  })

  const createOwner = (password: string, email = 'owner@example.com') =>
    admin(['create-user', '--email', email, '--name', 'Olu Owner', '--role', 'owner', '--password-stdin'], `${password}\n`, env)

  /** Runs a command in this process, as `pnpm admin` does in its own, with the output collected. */
  async function runHere(args: string[], input = ''): Promise<CommandResult> {
    const output = { stdout: '', stderr: '' }
    const collect = (stream: 'stdout' | 'stderr') => new PassThrough().on('data', (chunk: Buffer) => (output[stream] += chunk.toString('utf8')))
    const code = await runAdminCommand(
      args,
      {
        stdin: new PassThrough().end(input) as unknown as NodeJS.ReadStream,
        stdout: collect('stdout'),
        stderr: collect('stderr'),
        env: { ...process.env, DATABASE_URL: '', ...env },
      },
      testSiteLinks,
    )
    return { code, ...output }
  }

  it('creates the first owner, who can then sign in; refuses a weak password and a duplicate address in one line', async () => {
    const created = await createOwner('a long enough olu passphrase')
    expect(created).toMatchObject({ code: 0, stdout: 'Created owner owner@example.com.\n', stderr: '' })

    // The refusals in this process: each process of its own loads the whole server's code again, which on a busy
    // machine took longer than the test may; the command and its output are the same.
    const ownerArgs = (email: string) => ['create-user', '--email', email, '--name', 'Olu Owner', '--role', 'owner', '--password-stdin']
    const weak = await runHere(ownerArgs('other@example.com'), 'short pass\n')
    expect(weak.code).toBe(1)
    expect(weak.stderr).toBe('The password is too short: use at least 12 characters.\n')

    const duplicate = await runHere(ownerArgs('OWNER@example.com'), 'another long password\n')
    expect(duplicate.code).toBe(1)
    expect(duplicate.stderr).toBe('A staff account with the e-mail address owner@example.com already exists.\n')

    const noTerminal = await runHere(['create-user', '--email', 'other@example.com', '--name', 'Other', '--role', 'staff'], 'typed into a pipe\n')
    expect(noTerminal.code).toBe(1)
    expect(noTerminal.stderr).toBe('No terminal to ask for the password on: pass it on standard input with --password-stdin.\n')

    const usage = await runHere(['create-user', '--email', 'x@example.com', '--name', 'X', '--role', 'admin', '--password-stdin'], 'whatever password\n')
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/^Usage: pnpm admin create-user/)

    // The server's view of the same database: the owner signs in with the password typed into the command.
    const { openDatabase } = await import('@events/core')
    const db = backend === 'postgres' ? testDb.db : await openDatabase({ dataDir: dataDir.dir })
    try {
      const staff = await createStaff({ db, links: testSiteLinks() })
      const request = new Request('http://localhost:3000/admin/sign-in', { headers: { [STAFF_CLIENT_IP_HEADER]: '198.51.100.1' } })
      expect((await staff.signIn(request, { email: 'owner@example.com', password: 'a long enough olu passphrase' })).status).toBe('signed-in')
      expect((await staff.signIn(request, { email: 'other@example.com', password: 'short pass' })).status).toBe('refused')
      const audit = await staff.listAudit()
      expect(audit.entries.map((entry) => entry.action)).toEqual(['sign-in-failed', 'sign-in', 'staff-created'])
    } finally {
      if (backend === 'sqlite') await db.close()
    }
  })

  it('deactivates and reactivates a member, changes a role and resets two-factor, each audited as the command line', async () => {
    expect((await createOwner('a long enough olu passphrase')).code).toBe(0)
    expect(
      await runHere(
        ['create-user', '--email', 'sipho@example.com', '--name', 'Sipho Staff', '--role', 'staff', '--password-stdin'],
        'a long enough staff phrase\n',
      ),
    ).toMatchObject({ code: 0 })

    // One command as its own process, the operator's way back when no owner can sign in.
    expect(await admin(['deactivate-user', '--email', 'Sipho@example.com'], '', env)).toMatchObject({
      code: 0,
      stdout: 'Deactivated sipho@example.com (staff, deactivated).\n',
    })
    expect(await runHere(['deactivate-user', '--email', 'owner@example.com'])).toMatchObject({
      code: 1,
      stderr: 'No other active owner has signed in yet: make someone else an owner and let them sign in before this account stops being one.\n',
    })
    expect(await runHere(['reactivate-user', '--email', 'sipho@example.com'])).toMatchObject({ code: 0, stdout: 'Reactivated sipho@example.com (staff).\n' })
    expect(await runHere(['set-role', '--email', 'sipho@example.com', '--role', 'manager'])).toMatchObject({
      code: 0,
      stdout: 'Changed the role of sipho@example.com (manager).\n',
    })
    expect(await runHere(['set-role', '--email', 'sipho@example.com', '--role', 'boss'])).toMatchObject({ code: 2 })
    expect(await runHere(['reset-two-factor', '--email', 'owner@example.com'])).toMatchObject({
      code: 0,
      stdout: 'Reset two-factor sign-in of owner@example.com (owner).\n',
    })
    expect(await runHere(['reset-two-factor', '--email', 'nobody@example.com'])).toMatchObject({
      code: 1,
      stderr: 'No staff account has the e-mail address nobody@example.com.\n',
    })

    const { openDatabase } = await import('@events/core')
    const db = backend === 'postgres' ? testDb.db : await openDatabase({ dataDir: dataDir.dir })
    try {
      const staff = await createStaff({ db, links: testSiteLinks() })
      const request = new Request('http://localhost:3000/admin/sign-in', { headers: { [STAFF_CLIENT_IP_HEADER]: '198.51.100.2' } })
      expect((await staff.signIn(request, { email: 'sipho@example.com', password: 'a long enough staff phrase' })).status).toBe('signed-in')
      const entries = (await staff.listAudit()).entries.filter(
        (entry) => entry.subjectType === 'staff-user' && entry.actor === null && entry.action !== 'staff-created' && entry.action !== 'sign-in',
      )
      expect(entries.map((entry) => entry.action)).toEqual(['two-factor-reset', 'staff-role-changed', 'staff-reactivated', 'staff-deactivated'])
    } finally {
      if (backend === 'sqlite') await db.close()
    }
    // Two processes of their own, each starting Node and opening the database: slow on a busy machine.
  }, 90_000)
})

describe('pnpm admin create-user on a terminal', () => {
  /** A terminal stand-in: keystrokes typed in answer to each prompt, and whatever the command shows. */
  function terminal(answers: string[]) {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: vi.fn() })
    const stdout = new PassThrough()
    const stderr = new PassThrough()
    let shown = ''
    stderr.on('data', (chunk: Buffer) => {
      shown += chunk.toString('utf8')
      if (/Password( again)?: $/.test(shown)) {
        // One key at a time, as a terminal in raw mode delivers them.
        for (const key of answers.shift() ?? '') stdin.write(key)
      }
    })
    let printed = ''
    stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')))
    const io = { stdin: stdin as unknown as NodeJS.ReadStream, stdout, stderr, env: {} }
    return { io, stdin, shown: () => shown, printed: () => printed }
  }

  it('asks for the password twice without echoing it, and refuses two different ones', async () => {
    const dataDir = temporaryDirectory()
    try {
      const args = ['create-user', '--email', 'owner@example.com', '--name', 'Olu Owner', '--role', 'owner']
      const env = { DATA_DIR: dataDir.dir }
      const differing = terminal(['first password 1\r', 'second password 2\r'])
      expect(await runAdminCommand(args, { ...differing.io, env }, testSiteLinks)).toBe(1)
      expect(differing.shown()).toBe('Password: \nPassword again: \nThe two passwords differ.\n')

      // A typo corrected with backspace is not part of the password.
      const typed = terminal(['terminal passphrase of owX\u007fls\r', 'terminal passphrase of owls\r'])
      expect(await runAdminCommand(args, { ...typed.io, env }, testSiteLinks)).toBe(0)
      expect(typed.printed()).toBe('Created owner owner@example.com.\n')
      expect(typed.shown()).not.toContain('terminal')
      expect(typed.stdin.setRawMode.mock.calls).toEqual([[true], [false], [true], [false]])

      const { openDatabase } = await import('@events/core')
      const db = await openDatabase({ dataDir: dataDir.dir })
      try {
        const staff = await createStaff({ db, links: testSiteLinks() })
        const request = new Request('http://localhost:3000/admin/sign-in', { headers: { [STAFF_CLIENT_IP_HEADER]: '198.51.100.2' } })
        expect((await staff.signIn(request, { email: 'owner@example.com', password: 'terminal passphrase of owls' })).status).toBe('signed-in')
      } finally {
        await db.close()
      }
    } finally {
      dataDir.remove()
    }
  })
})
