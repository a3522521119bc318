// `pnpm start` as a newcomer or a supervisor runs it: the process pnpm started is the server itself, so the SIGTERM
// pnpm passes on when it is stopped reaches the server, which drains and exits within the documented bound; and the
// data folder is where the README says, `./data` of the directory the command was started in.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { registrationBody } from '../support/registrations.ts'
import { freePort, repoRoot } from '../support/site-server.ts'
import { waitUntil } from '../support/wait.ts'

const dataDirs: string[] = []
/** Processes a failed test may leave behind: stopped at the end. */
const leftovers: number[] = []
afterAll(() => {
  for (const pid of leftovers) if (isRunning(pid)) process.kill(pid, 'SIGKILL')
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

// pnpm run by this Node directly: the `pnpm` on PATH may start through a shell script that would sit in between.
const pnpmEntry = realpathSync(execFileSync('sh', ['-c', 'command -v pnpm'], { encoding: 'utf8' }).trim())

function newDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'events-start-'))
  dataDirs.push(dir)
  return dir
}

/** The environment of a command typed in a shell: none of pnpm's variables from the run of these tests. */
function shellEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { INIT_CWD: _typedIn, DATA_DIR: _dataDir, ...inherited } = process.env
  return { ...inherited, HOST: '127.0.0.1', SHUTDOWN_DRAIN_SECONDS: '0', ...env }
}

interface Started {
  process: ChildProcessWithoutNullStreams
  output(): string
  exited: Promise<number | null>
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Started {
  const child = spawn(command, args, { cwd, env })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { process: child, output: () => output, exited }
}

async function whenReady(started: Started, port: number): Promise<void> {
  try {
    await waitUntil(async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200
      } catch {
        return false
      }
    }, 'the site to be ready')
  } catch (error) {
    for (const pid of [started.process.pid ?? 0, ...descendantsOf(started.process.pid ?? 0)]) process.kill(pid, 'SIGKILL')
    throw new Error(started.output(), { cause: error })
  }
  leftovers.push(started.process.pid ?? 0, ...descendantsOf(started.process.pid ?? 0))
}

describe('pnpm start', () => {
  it('runs the server as pnpm’s own child, so a SIGTERM to pnpm stops the server within the drain and grace', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'events-start-'))
    dataDirs.push(dataDir)
    const port = await freePort()
    const drainSeconds = 1
    const graceSeconds = 10
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
    leftovers.push(pnpm.pid ?? 0, ...descendantsOf(pnpm.pid ?? 0))
    expect(children).toHaveLength(1)
    const server = children[0] ?? 0
    expect(readlinkSync(`/proc/${server}/exe`)).toBe(realpathSync(path.join(repoRoot, 'node_modules/node/bin/node')))
    expect(readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0')).toContain(path.join(repoRoot, 'apps/site/build/bundle/server.mjs'))

    const signalledAt = Date.now()
    pnpm.kill('SIGTERM')
    await waitUntil(() => !isRunning(server), 'the server to exit', (drainSeconds + graceSeconds + 2) * 1000)
    expect(Date.now() - signalledAt).toBeLessThan((drainSeconds + graceSeconds) * 1000)
    expect(output).toContain('SIGTERM received: draining')
    await expect(fetch(readyz)).rejects.toThrow()
  })
})

describe('the data folder', () => {
  it('is ./data of the directory `pnpm start` was typed in, with the e-mails in ./data/mail', async () => {
    const typedIn = newDir()
    const port = await freePort()
    const pnpm = run(process.execPath, [pnpmEntry, '--dir', repoRoot, 'start'], typedIn, shellEnv({ PORT: String(port) }))
    await whenReady(pnpm, port)
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/registrations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(registrationBody()),
      })
      expect(response.status).toBe(201)
      expect(existsSync(path.join(typedIn, 'data/events.sqlite'))).toBe(true)
      const mailDir = path.join(typedIn, 'data/mail')
      await waitUntil(() => existsSync(mailDir) && readdirSync(mailDir).some((name) => name.endsWith('.eml')), 'an e-mail in ./data/mail')
      expect(existsSync(path.join(repoRoot, 'apps/site/data'))).toBe(false)
    } finally {
      pnpm.process.kill('SIGTERM')
    }
  })

  it('is taken from the working directory when scripts/serve is started without pnpm', async () => {
    const workingDir = newDir()
    const port = await freePort()
    const serve = run(path.join(repoRoot, 'scripts/serve'), [], workingDir, shellEnv({ PORT: String(port), DATA_DIR: 'state' }))
    await whenReady(serve, port)
    serve.process.kill('SIGTERM')
    expect(await serve.exited).toBe(0)
    expect(existsSync(path.join(workingDir, 'state/events.sqlite'))).toBe(true)
  })

  it('stops the start, saying where the database is, while it is still where earlier releases kept it (apps/site)', async () => {
    const workingDir = newDir()
    // Earlier releases ran the server from apps/site, so a relative DATA_DIR was kept there.
    const relative = `.earlier-data-${process.pid}`
    const earlier = path.join(repoRoot, 'apps/site', relative)
    mkdirSync(earlier)
    try {
      writeFileSync(path.join(earlier, 'events.sqlite'), '')
      const port = await freePort()
      const env = shellEnv({ PORT: String(port), DATA_DIR: relative })
      for (const args of [[], ['--migrate']]) {
        const serve = run(path.join(repoRoot, 'scripts/serve'), args, workingDir, env)
        expect(await serve.exited).toBe(1)
        expect(serve.output()).toBe(
          `scripts/serve: the database is in ${earlier}, where earlier releases kept DATA_DIR=${relative}; a relative DATA_DIR is now taken from the directory the command starts in (${workingDir}): move that folder's files to ${workingDir}/${relative}, or set DATA_DIR=${earlier}\n`,
        )
        expect(existsSync(path.join(workingDir, relative))).toBe(false)
      }
    } finally {
      rmSync(earlier, { recursive: true, force: true })
    }
  })
})

describe('the start log', () => {
  it('is JSON lines when its output is not a terminal, with the remaining placeholders summed up in one line', async () => {
    const port = await freePort()
    const serve = run(path.join(repoRoot, 'scripts/serve'), [], repoRoot, shellEnv({ PORT: String(port), DATA_DIR: newDir() }))
    await whenReady(serve, port)
    await waitUntil(() => serve.output().includes('"Content: '), 'the placeholder line')
    serve.process.kill('SIGTERM')
    expect(await serve.exited).toBe(0)
    const lines = serve.output().trimEnd().split('\n')
    const records = lines.map((line) => JSON.parse(line) as { msg: string; placeholders?: unknown[] })
    const placeholderLines = records.filter((record) => /placeholder/i.test(JSON.stringify(record)))
    expect(placeholderLines).toHaveLength(1)
    expect(placeholderLines[0]?.msg).toMatch(
      /^Content: \d+ placeholder values remain in \d+ documents \((\d+ \w+, )*\d+ \w+\); replace them in the studio; node scripts\/placeholders\.mjs lists them$/,
    )
    expect(placeholderLines[0]?.placeholders?.length).toBeGreaterThan(10)
    expect(lines.length).toBeLessThan(15)
  })

  it('is lines for a person when its output is a terminal: the time, the level and the message', async () => {
    const port = await freePort()
    // `script` gives the server a terminal of its own and copies what it shows.
    const env = shellEnv({ PORT: String(port), DATA_DIR: newDir() })
    const terminal = run('script', ['--quiet', '--flush', '--return', '--command', path.join(repoRoot, 'scripts/serve'), '/dev/null'], repoRoot, env)
    await whenReady(terminal, port)
    await waitUntil(() => terminal.output().includes('Content: '), 'the placeholder line')
    const [server] = descendantsOf(terminal.process.pid ?? 0).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server.mjs'))
    process.kill(server ?? 0, 'SIGTERM')
    expect(await terminal.exited).toBe(0)
    const lines = terminal.output().replaceAll('\r\n', '\n').trimEnd().split('\n')
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([])
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\d\d:\d\d:\d\d INFO {2}Site listening on http:\/\/localhost:\d+$/),
        expect.stringMatching(/^\d\d:\d\d:\d\d INFO {2}Site ready \d+ ms after launch/),
        expect.stringMatching(/^\d\d:\d\d:\d\d INFO {2}GET \/readyz 200 \d+ ms$/),
        expect.stringMatching(/^\d\d:\d\d:\d\d INFO {2}Content: \d+ placeholder values remain in \d+ documents/),
        expect.stringMatching(/^\d\d:\d\d:\d\d INFO {2}SIGTERM received: draining/),
      ]),
    )
    // One entry (its words may run onto indented lines under it at the terminal's width), not one per placeholder.
    expect(lines.filter((line) => /^\d\d:\d\d:\d\d /.test(line) && line.includes('placeholder'))).toHaveLength(1)
    expect(lines.filter((line) => line.includes('placeholder values remain'))).toHaveLength(1)
  })
})
