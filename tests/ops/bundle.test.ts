// The bundled server as the container image ships it: apps/site/build/bundle, the browser files, the shipped content,
// scripts/serve and a Node 24 binary, copied to a folder with no node_modules and no sources anywhere above it. The
// site, a registration with its invoice PDF and calendar file, the cancellation terms (public holidays), the
// commands (migrations, the first staff account with its password rules, a backup) all run from it, so nothing the
// bundle needs is left behind in the repository.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registrationBody } from '../support/registrations.ts'
import { freePort, repoRoot, testSiteDate } from '../support/site-server.ts'
import { waitUntil } from '../support/wait.ts'

let root: string
let dataDir: string
let server: ChildProcess | undefined

/** What the image holds, in the same places under `root`. */
function copyAsTheImageDoes(): void {
  for (const part of [
    'apps/site/build/bundle',
    'apps/site/build/client',
    'packages/content/dataset/production.ndjson',
    'packages/content/dataset/images',
    'scripts/serve',
  ]) {
    cpSync(path.join(repoRoot, part), path.join(root, part), { recursive: true, dereference: true })
  }
  mkdirSync(path.join(root, 'bin'))
  cpSync(path.join(repoRoot, 'node_modules/node/bin/node'), path.join(root, 'bin/node'))
}

/** The environment of the image: its Node on PATH and nothing of this test run's. */
function imageEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: `${root}/bin:/usr/bin:/bin`, HOME: root, DATA_DIR: dataDir, SITE_DATE: testSiteDate, ...env }
}

/** `scripts/serve --command …` in the copy, from a directory outside it. */
function command(args: string[], input?: string): { status: number | null; output: string } {
  const result = spawnSync(path.join(root, 'scripts/serve'), args, { cwd: tmpdir(), env: imageEnv(), input, encoding: 'utf8', timeout: 60_000 })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

beforeAll(() => {
  // Under the system's temporary directory, so no node_modules of the repository is above it.
  root = mkdtempSync(path.join(tmpdir(), 'events-bundle-'))
  dataDir = path.join(root, 'data')
  copyAsTheImageDoes()
})

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM')
    await new Promise((resolve) => server?.once('exit', resolve))
  }
  rmSync(root, { recursive: true, force: true })
})

describe('the bundled server, copied without the repository', () => {
  it('has no node_modules above it', () => {
    let dir = root
    while (dir !== path.dirname(dir)) {
      dir = path.dirname(dir)
      expect(readdirSync(dir)).not.toContain('node_modules')
    }
  })

  it('migrates the database and creates the first account, refusing a password on the breached list', () => {
    const migrated = command(['--migrate'])
    expect(migrated.output).toMatch(/^Database migrated \(SQLite in /)
    expect(migrated.status).toBe(0)

    const breached = command(
      ['--admin', 'create-user', '--email', 'owner@example.test', '--name', 'Owner', '--role', 'owner', '--password-stdin'],
      'perasperaadastra\n',
    )
    expect(breached.status).not.toBe(0)
    expect(breached.output).toContain('leaked from other websites')

    const created = command(
      ['--admin', 'create-user', '--email', 'owner@example.test', '--name', 'Owner', '--role', 'owner', '--password-stdin'],
      'violet tractor seventy harbour\n',
    )
    expect(created.output).toContain('Created owner owner@example.test')
    expect(created.status).toBe(0)
  })

  it('serves pages, takes a registration and sends its invoice and calendar file', { timeout: 120_000 }, async () => {
    const port = await freePort()
    server = spawn(path.join(root, 'scripts/serve'), [], {
      cwd: tmpdir(),
      env: imageEnv({ HOST: '127.0.0.1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}`, SHUTDOWN_DRAIN_SECONDS: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const baseUrl = `http://127.0.0.1:${port}`
    await waitUntil(async () => (await fetch(`${baseUrl}/readyz`).catch(() => undefined))?.status === 200, 'the copied site ready', 60_000).catch(
      (error: unknown) => {
        throw new Error(`${String(error)}\n${output}`)
      },
    )

    expect((await fetch(`${baseUrl}/conference/Resilience`)).status).toBe(200)
    const response = await fetch(`${baseUrl}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationBody()),
    })
    expect(response.status).toBe(201)
    const { statusUrl } = (await response.json()) as { statusUrl: string }

    const mailDir = path.join(dataDir, 'mail')
    const mails = () => readdirSync(mailDir, { withFileTypes: true }).filter((entry) => entry.name.endsWith('.eml'))
    await waitUntil(() => {
      try {
        return mails().some((entry) => readFileSync(path.join(mailDir, entry.name), 'utf8').includes('application/pdf'))
      } catch {
        return false
      }
    }, 'the registration e-mail with its invoice')
    const sent = mails().map((entry) => readFileSync(path.join(mailDir, entry.name), 'utf8'))
    const withInvoice = sent.find((mail) => mail.includes('application/pdf'))
    expect(withInvoice).toContain('text/calendar')

    // The private page offers to ask for a cancellation with what the terms would keep, counted in working days.
    const statusPage = await fetch(statusUrl)
    expect(statusPage.status).toBe(200)
    expect(await statusPage.text()).toContain('Asked and approved today, the terms keep')
    expect(output).not.toMatch(/"level":(50|60)/)

    server.kill('SIGTERM')
    const [code] = (await once(server, 'exit')) as [number | null]
    expect(code).toBe(0)
  })

  it('backs the data up', () => {
    const backup = command(['--backup', path.join(root, 'backup')])
    expect(backup.output).toMatch(/^Backed up .*the database passed SQLite's integrity check/)
    expect(backup.status).toBe(0)
  })
})
