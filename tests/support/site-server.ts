// Builds and starts the real site server, the bundle production runs (apps/site/build/bundle/server.mjs, made from
// apps/site/server.js), for browser tests and benchmarks.
// Plain Node APIs only, so scripts/bench.mjs can import this file through Node's type stripping.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { repoRoot, siteBuildIsStale } from '../../scripts/site-build.ts'

export { repoRoot, siteBuildIsStale }
const siteDir = path.join(repoRoot, 'apps/site')

// The `node` package's bin/node is the Node 24 binary itself; node_modules/.bin/node is a shell wrapper
// that would swallow SIGTERM instead of passing it on to the server.
const node24 = path.join(repoRoot, 'node_modules/node/bin/node')

/**
 * Node's options for the site process, in production (scripts/start.mjs, the README's command) as in tests and
 * benchmarks. V8 otherwise sizes its young generation and lets its old one grow towards limits taken from the
 * machine's memory, so a page server holds hundreds of MB of collectable garbage. A 1 MB semi-space and an old
 * generation that grows by half of what survives a full collection keep the heap near what is in use, with no
 * limit on what a large export may take. (--optimize-for-size did the same for memory, but also gave up much of
 * V8's optimising: rendering and sending a registration's invoice PDF and e-mails took about twice the CPU.)
 * V8 refuses --heap-growing-percent in NODE_OPTIONS.
 */
export const siteNodeOptions = ['--max-semi-space-size=1', '--heap-growing-percent=50']

/** The date the shipped 2025 programme is previewed at, so registration windows are open. */
export const testSiteDate = '2025-03-01T09:00:00+02:00'

/**
 * What Node runs, relative to apps/site: the bundle production runs, or (for a benchmark's comparison) the same
 * server loading the site's build, its dependencies and the workspace's TypeScript module by module.
 */
const SERVER_ENTRIES = { bundle: 'build/bundle/server.mjs', modules: 'server.js' } as const
export type ServerEntry = keyof typeof SERVER_ENTRIES

/** Builds the site with its own build script; throws with the build's output when it fails. */
export function buildSite(): void {
  const result = spawnSync('pnpm', ['--filter', '@events/site', 'build'], {
    cwd: repoRoot,
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}\n${result.stderr ?? ''}`.trim().split('\n').slice(-60).join('\n')
    throw new Error(`pnpm --filter @events/site build failed (exit ${result.status}):\n${output}`)
  }
}

/** Builds the site when forced (CI) or when the build is missing or older than its sources, once per process. */
export function ensureSiteBuild({ force = false }: { force?: boolean } = {}): void {
  // Each test project's global setup asks for the build, all in Vitest's main process: one (forced) build serves
  // them all. The mark lives in the environment because each project loads its own copy of this module.
  if (process.env.EVENTS_SITE_BUILT_IN_PROCESS === String(process.pid)) return
  if (force || siteBuildIsStale()) buildSite()
  process.env.EVENTS_SITE_BUILT_IN_PROCESS = String(process.pid)
}

/** A port nothing listens on at the moment, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

export interface RunningSite {
  baseUrl: string
  /** The server's DATA_DIR. */
  dataDir: string
  /** Sends SIGTERM, waits for the exit and removes the data directory. */
  stop(): Promise<void>
  /** How the server process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** The server's recent console output (all of it with `keepOutput`). */
  output(): string
}

async function waitForHealthy(baseUrl: string, server: ChildProcess, output: () => string, requireHealthy: boolean): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (server.exitCode !== null) {
      throw new Error(`The site server exited with code ${server.exitCode} before it was healthy:\n${output()}`)
    }
    try {
      // Ready: the database and content answered, and the outbox worker has started.
      const response = await fetch(`${baseUrl}/readyz`)
      if (response.status === 200 || !requireHealthy) return
    } catch {
      // Not listening yet.
    }
    // Asked often: a file's tests wait on every site it starts, and a start takes one to three seconds.
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`The site server did not answer /readyz with 200 within 60 s:\n${output()}`)
}

function spawnSite(
  port: number,
  dataDir: string,
  env: Record<string, string>,
  user: { uid: number; gid: number } | undefined,
  nodeOptions: readonly string[] = siteNodeOptions,
  entry: ServerEntry = 'bundle',
): ChildProcess {
  return spawn(existsSync(node24) ? node24 : process.execPath, [...nodeOptions, SERVER_ENTRIES[entry]], {
    cwd: siteDir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      SITE_DATE: testSiteDate,
      // Links in pages, e-mails and payment redirects then point at the address the tests browse.
      SITE_URL: `http://127.0.0.1:${port}`,
      // No load balancer watches a test's site: it may close its port as soon as it is told to stop.
      SHUTDOWN_DRAIN_SECONDS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  })
}

/**
 * Starts the built site on a free port with a fresh DATA_DIR and waits until /readyz answers 200, or answers at
 * all when `requireHealthy` is false (a test of the site with its content source down). `nodeOptions` replaces
 * production's options of Node (a benchmark comparing them).
 */
export async function startSite(options: SiteOptions = {}): Promise<RunningSite> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startSiteOnce(options)
    } catch (error) {
      // Another process may take the free port between its choosing and the site binding it: choose another.
      if (options.port !== undefined || attempt === 3 || !String(error).includes('is already in use')) throw error
    }
  }
}

interface SiteOptions {
  env?: Record<string, string>
  requireHealthy?: boolean
  keepOutput?: boolean
  nodeOptions?: readonly string[]
  /** A port to reuse: a site restarted with its clock moved, under pages left open on the stopped one. */
  port?: number
}

async function startSiteOnce({
  env = {},
  requireHealthy = true,
  keepOutput = false,
  nodeOptions = siteNodeOptions,
  port: fixedPort,
}: SiteOptions): Promise<RunningSite> {
  const port = fixedPort ?? (await freePort())
  const ownDataDir = mkdtempSync(path.join(tmpdir(), 'events-site-data-'))
  const dataDir = env.DATA_DIR ?? ownDataDir
  const baseUrl = `http://127.0.0.1:${port}`
  const server = spawnSite(port, ownDataDir, env, undefined, nodeOptions)
  let log = ''
  const collect = (chunk: Buffer) => {
    log = keepOutput ? log + chunk.toString() : (log + chunk.toString()).slice(-20_000)
  }
  server.stdout?.on('data', collect)
  server.stderr?.on('data', collect)

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    server.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM')
      const forced = setTimeout(() => server.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(forced)
    }
    rmSync(ownDataDir, { recursive: true, force: true })
  }

  try {
    await waitForHealthy(baseUrl, server, () => log, requireHealthy)
  } catch (error) {
    await stop()
    throw error
  }
  return { baseUrl, dataDir, stop, exited, output: () => log }
}

export interface LaunchedSite {
  baseUrl: string
  process: ChildProcess
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  output(): string
}

/**
 * Starts the built site on a free port (or the one given) and returns at once, without waiting for it to answer: for tests of what
 * happens while it starts. The caller stops it and owns `env.DATA_DIR`.
 */
export async function launchSite({
  env,
  port: fixedPort,
  entry,
}: {
  env: Record<string, string> & { DATA_DIR: string }
  port?: number
  entry?: ServerEntry
}): Promise<LaunchedSite> {
  const port = fixedPort ?? (await freePort())
  const server = spawnSite(port, env.DATA_DIR, env, undefined, siteNodeOptions, entry)
  let log = ''
  server.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()))
  server.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    server.once('exit', (code, signal) => resolve({ code, signal })),
  )
  return { baseUrl: `http://127.0.0.1:${port}`, process: server, exited, output: () => log }
}

export interface RefusedStart {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Starts the built site with settings it must refuse and waits for it to exit (at most 60 s), with what it printed.
 * `user` runs it as another user (root may write anywhere, so a read-only directory needs an unprivileged server).
 */
export async function startSiteExpectingExit({ env = {}, user }: { env?: Record<string, string>; user?: { uid: number; gid: number } }): Promise<RefusedStart> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'events-site-data-'))
  const server = spawnSite(await freePort(), dataDir, env, user)
  let stdout = ''
  let stderr = ''
  server.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  server.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const timer = setTimeout(() => server.kill('SIGKILL'), 60_000)
  try {
    const code = await new Promise<number | null>((resolve) => server.once('exit', (exitCode) => resolve(exitCode)))
    return { code, stdout, stderr }
  } finally {
    clearTimeout(timer)
    rmSync(dataDir, { recursive: true, force: true })
  }
}
