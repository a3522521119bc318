// The process's life: a SIGTERM at any moment of startup or service sends no e-mail twice; a trickling request
// body is cut; draining turns readiness off before the port closes.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import { registrationBody } from '../support/registrations.ts'
import { freePort, launchSite, repoRoot, startSite, type LaunchedSite } from '../support/site-server.ts'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts'
import { waitUntil } from '../support/wait.ts'

const dataDirs: string[] = []
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
})

function newDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'events-lifecycle-'))
  dataDirs.push(dir)
  return dir
}

function outboxRows(dataDir: string): Array<{ id: string; status: string }> {
  const db = new DatabaseSync(path.join(dataDir, 'events.sqlite'), { readOnly: true })
  try {
    return db.prepare('select id, status from outbox_messages').all() as Array<{ id: string; status: string }>
  } finally {
    db.close()
  }
}

/** Makes every waiting message due now, as if its retry time had come. */
function makeWaitingMessagesDue(dataDir: string): void {
  const db = new DatabaseSync(path.join(dataDir, 'events.sqlite'))
  try {
    db.prepare(
      "update outbox_messages set next_attempt_at = '2000-01-01T00:00:00.000Z', attempts = 0, locked_until = null, lease_token = null where status = 'pending'",
    ).run()
  } finally {
    db.close()
  }
}

async function isReady(site: LaunchedSite): Promise<boolean> {
  try {
    return (await fetch(`${site.baseUrl}/readyz`)).status === 200
  } catch {
    return false
  }
}

describe('a SIGTERM while the site starts or sends', () => {
  it('stops cleanly at any moment, and every e-mail waiting in the outbox is sent exactly once in the end', async () => {
    const dataDir = newDataDir()
    // Registrations whose e-mails cannot go out: the SMTP server named does not answer, so they wait in the outbox.
    const nobodyListens = await freePort()
    const first = await startSite({ env: { DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${nobodyListens}`, FORM_RATE_LIMIT: '0' } })
    for (let index = 0; index < 8; index++) {
      const response = await fetch(`${first.baseUrl}/api/registrations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(registrationBody()),
      })
      expect(response.status).toBe(201)
    }
    await first.stop()
    const waiting = outboxRows(dataDir)
    expect(waiting.length).toBeGreaterThanOrEqual(32)
    expect(waiting.every((row) => row.status === 'pending')).toBe(true)

    const sink: SmtpSink = await startSmtpSink()
    try {
      const env = { DATA_DIR: dataDir, SMTP_URL: sink.url, FORM_RATE_LIMIT: '0' }
      // SIGTERM at moments spread over startup (loading modules, opening and migrating the database, starting the
      // content source), then at moments after the instance became ready, while its outbox sends.
      const stops: Array<{ after: 'launch' | 'ready'; ms: number }> = [
        { after: 'launch', ms: 0 },
        { after: 'launch', ms: 150 },
        { after: 'launch', ms: 400 },
        { after: 'launch', ms: 800 },
        { after: 'launch', ms: 1300 },
        { after: 'launch', ms: 2000 },
        { after: 'ready', ms: 0 },
        { after: 'ready', ms: 150 },
        { after: 'ready', ms: 400 },
      ]
      for (const stop of stops) {
        makeWaitingMessagesDue(dataDir)
        const sentBefore = sink.received.length
        const site = await launchSite({ env })
        if (stop.after === 'ready') await waitUntil(() => isReady(site), 'the site to be ready')
        await new Promise((resolve) => setTimeout(resolve, stop.ms))
        const signalledAt = Date.now()
        site.process.kill('SIGTERM')
        const exit = await site.exited
        // A signal in Node's own bootstrap, before the entry's first line, ends the process before any work; from the
        // first line on, the handler answers it.
        const beforeFirstLine = exit.signal === 'SIGTERM' && site.output() === ''
        if (!beforeFirstLine) expect(exit, `${JSON.stringify(stop)}\n${site.output()}`).toEqual({ code: 0, signal: null })
        // Within the stated bound: SHUTDOWN_DRAIN_SECONDS (0 here) + SHUTDOWN_GRACE_SECONDS (10).
        expect(Date.now() - signalledAt).toBeLessThan(10_000)
        // Stopped before it served: its outbox never started.
        if (!site.output().includes('Site listening')) expect(sink.received.length).toBe(sentBefore)
      }

      makeWaitingMessagesDue(dataDir)
      const last = await startSite({ env })
      try {
        await waitUntil(() => outboxRows(dataDir).every((row) => row.status === 'sent'), 'every e-mail to be sent')
      } finally {
        await last.stop()
      }
      const ids = sink.received.map((mail) => mail.parsed.messageId)
      expect(ids.length).toBe(waiting.length)
      expect(new Set(ids).size).toBe(waiting.length)
      expect(ids.map((id) => /outbox-(.+)@/.exec(id ?? '')?.[1]).sort()).toEqual(waiting.map((row) => row.id).sort())
    } finally {
      await sink.stop()
    }
  }, 240_000)
})

describe('draining', () => {
  it('answers /readyz 503 while it still serves for SHUTDOWN_DRAIN_SECONDS, then closes its port and exits 0', async () => {
    const site = await startSite({ env: { SHUTDOWN_DRAIN_SECONDS: '1.5' } })
    expect((await fetch(`${site.baseUrl}/readyz`)).status).toBe(200)
    const stopping = site.stop()
    await waitUntil(() => site.output().includes('SIGTERM received: draining'), 'the drain to begin', 5_000)
    const readiness = await fetch(`${site.baseUrl}/readyz`)
    expect(readiness.status).toBe(503)
    expect(await readiness.json()).toEqual({ status: 'draining' })
    expect((await fetch(`${site.baseUrl}/healthz`)).status).toBe(200)
    expect((await fetch(`${site.baseUrl}/conference`)).status).toBe(200)
    await stopping
    expect(await site.exited).toEqual({ code: 0, signal: null })
    await expect(fetch(`${site.baseUrl}/healthz`)).rejects.toThrow()
  })
})

describe('a request body that trickles in', () => {
  it('is answered 408 and its connection closed about 30 s after the request began', async () => {
    const site = await startSite()
    try {
      const { port } = new URL(site.baseUrl)
      const socket = connect(Number(port), '127.0.0.1')
      const startedAt = Date.now()
      let answer = ''
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()))
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
      socket.write('POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{')
      // One byte a second: a connection that is never idle long enough for an idle timeout to end it.
      const drip = setInterval(() => socket.writable && socket.write(' '), 1000)
      await closed
      clearInterval(drip)
      const elapsed = Date.now() - startedAt
      expect(answer).toMatch(/^HTTP\/1\.1 408/)
      expect(elapsed).toBeGreaterThanOrEqual(29_000)
      expect(elapsed).toBeLessThan(33_000)
    } finally {
      await site.stop()
    }
  }, 60_000)
})

describe('the production command, scripts/serve', () => {
  it('replaces itself with the pinned Node 24, so the SIGTERM a supervisor sends reaches the server', async () => {
    const port = await freePort()
    const server = spawn(path.join(repoRoot, 'scripts/serve'), [], {
      env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: newDataDir(), SHUTDOWN_DRAIN_SECONDS: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      server.once('exit', (code, signal) => resolve({ code, signal })),
    )
    await waitUntil(async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200
      } catch {
        return false
      }
    }, 'the site to be ready')
    // The process started as the script is now Node 24 itself, running the server with the site's options.
    expect(readlinkSync(`/proc/${server.pid}/exe`)).toBe(realpathSync(path.join(repoRoot, 'node_modules/node/bin/node')))
    expect(readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0')).toEqual(
      expect.arrayContaining(['--max-semi-space-size=1', '--heap-growing-percent=50', path.join(repoRoot, 'apps/site/build/bundle/server.mjs')]),
    )
    server.kill('SIGTERM')
    expect(await exited, output).toEqual({ code: 0, signal: null })
    expect(output).toContain('SIGTERM received: draining')
  })
})
