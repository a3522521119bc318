// `pnpm start` as a newcomer or a supervisor runs it: the process pnpm started is the server itself, so the SIGTERM
// pnpm passes on when it is stopped reaches the server, which drains and exits within the documented bound.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort, repoRoot } from '../support/site-server.ts'
import { waitUntil } from '../support/wait.ts'

const dataDirs: string[] = []
/** Processes a failed test may leave behind: stopped at the end. */
const started: number[] = []
afterAll(() => {
  for (const pid of started) if (isRunning(pid)) process.kill(pid, 'SIGKILL')
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
})

/** The processes whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // The parent is the fourth field, after the command's name in parentheses (which may hold spaces).
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid
      } catch {
        return false
      }
    })
    .map(Number)
}

function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)])
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('pnpm start', () => {
  it('runs the server as pnpm’s own child, so a SIGTERM to pnpm stops the server within the drain and grace', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'events-start-'))
    dataDirs.push(dataDir)
    const port = await freePort()
    const drainSeconds = 1
    const graceSeconds = 10
    // pnpm run by this Node directly: the `pnpm` on PATH may start through a shell script that would sit in between.
    const pnpmEntry = realpathSync(execFileSync('sh', ['-c', 'command -v pnpm'], { encoding: 'utf8' }).trim())
    const pnpm = spawn(process.execPath, [pnpmEntry, 'start'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        SHUTDOWN_DRAIN_SECONDS: String(drainSeconds),
        SHUTDOWN_GRACE_SECONDS: String(graceSeconds),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    pnpm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    pnpm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const readyz = `http://127.0.0.1:${port}/readyz`
    try {
      await waitUntil(async () => {
        try {
          return (await fetch(readyz)).status === 200
        } catch {
          return false
        }
      }, 'the site started by pnpm start to be ready')
    } catch (error) {
      for (const pid of [pnpm.pid ?? 0, ...descendantsOf(pnpm.pid ?? 0)]) process.kill(pid, 'SIGKILL')
      throw new Error(output, { cause: error })
    }

    // pnpm's one child is Node running the server, with no shell or launcher in between to swallow the signal.
    const children = childrenOf(pnpm.pid ?? 0)
    started.push(pnpm.pid ?? 0, ...descendantsOf(pnpm.pid ?? 0))
    expect(children).toHaveLength(1)
    const server = children[0] ?? 0
    expect(readlinkSync(`/proc/${server}/exe`)).toBe(realpathSync(path.join(repoRoot, 'node_modules/node/bin/node')))
    expect(readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0')).toContain('server.js')

    const signalledAt = Date.now()
    pnpm.kill('SIGTERM')
    await waitUntil(() => !isRunning(server), 'the server to exit', (drainSeconds + graceSeconds + 2) * 1000)
    expect(Date.now() - signalledAt).toBeLessThan((drainSeconds + graceSeconds) * 1000)
    expect(output).toContain('SIGTERM received: draining')
    await expect(fetch(readyz)).rejects.toThrow()
  })
})
