// How long the built site takes from launch to ready (/readyz 200: database written, content answered, outbox
// started), as a restart meets it: the same DATA_DIR and Node's compile cache left by an earlier start. Measured idle
// and with two busy loops keeping both cores loaded (a busy machine restarting an instance), for the bundle production
// runs (apps/site/build/bundle/server.mjs) and, as context, the same server loading its modules one by one. A first
// start (fresh data, no compile cache) and the migration command (`scripts/serve --migrate`, launch to exit) are
// measured beside them. Each start's milestones come from its "Site ready" log line; its CPU time from /proc.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { launchSite, repoRoot } from '../../tests/support/site-server.ts'
import { cores, printTable, printTargets } from './table.mjs'

export const title = `Start of the built site: launch to ready, idle and with both cores busy (${cores} cores)`

const RESTARTS = 5
const IDLE_TARGET_MS = 1000
const BUSY_TARGET_MS = 2500
const BUSY_LOOPS = 2
const CLOCK_TICKS_PER_SECOND = 100

/** User and system CPU time of a process so far, in ms (Linux /proc). */
function cpuMs(pid) {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND
}

async function startOnce(env, entry) {
  const launchedAt = performance.now()
  const site = await launchSite({ env, entry })
  let cpu
  for (;;) {
    if (site.process.exitCode !== null) throw new Error(`The site exited while starting:\n${site.output()}`)
    const ready = await fetch(`${site.baseUrl}/readyz`).then(
      (response) => response.status === 200,
      () => false,
    )
    if (ready) {
      cpu = cpuMs(site.process.pid)
      break
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const wallMs = performance.now() - launchedAt
  const line = site
    .output()
    .split('\n')
    .find((candidate) => candidate.includes('"startupMs"'))
  const milestones = line ? JSON.parse(line).startupMs : {}
  site.process.kill('SIGTERM')
  await site.exited
  return { wallMs, cpuMs: cpu, milestones }
}

/** `scripts/serve --migrate` on an already migrated database: launch to exit, in ms. */
async function migrateOnce(env) {
  const launchedAt = performance.now()
  const command = spawn(path.join(repoRoot, 'scripts/serve'), ['--migrate'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  command.stdout.on('data', (chunk) => (output += chunk))
  command.stderr.on('data', (chunk) => (output += chunk))
  const [code] = await once(command, 'exit')
  if (code !== 0) throw new Error(`scripts/serve --migrate failed (exit ${code}):\n${output}`)
  return performance.now() - launchedAt
}

/** Two processes spinning on the CPU until stopped: a machine whose cores are both taken. */
function startBusyLoops() {
  const loops = Array.from({ length: BUSY_LOOPS }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }))
  return async () => {
    for (const loop of loops) loop.kill('SIGKILL')
    await Promise.all(loops.map((loop) => once(loop, 'exit')))
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const loadAverage = () =>
  loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')

/** The first start and RESTARTS restarts of one entry, on one data directory and compile cache. */
async function measureEntry(entry, env) {
  const first = await startOnce(env, entry)
  const restarts = []
  for (let index = 0; index < RESTARTS; index++) restarts.push(await startOnce(env, entry))
  return { first, restarts, restartMedian: median(restarts.map((start) => start.wallMs)) }
}

export async function run() {
  const directories = []
  const freshEnv = () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-startup-'))
    const compileCache = mkdtempSync(path.join(tmpdir(), 'bench-startup-cache-'))
    directories.push(dataDir, compileCache)
    return { DATA_DIR: dataDir, NODE_COMPILE_CACHE: compileCache }
  }
  const rows = []
  const row = (label, start) => [
    label,
    Math.round(start.wallMs),
    Math.round(start.cpuMs),
    ...['modules', 'site', 'listening', 'ready'].map((name) => String(start.milestones[name] ?? '')),
  ]
  const results = {}
  try {
    for (const busy of [false, true]) {
      const condition = busy ? `${BUSY_LOOPS} busy loops` : 'idle'
      const stopBusyLoops = busy ? startBusyLoops() : undefined
      try {
        console.log(`${condition}: load average ${loadAverage()}`)
        for (const entry of ['bundle', 'modules']) {
          const env = freshEnv()
          const measured = await measureEntry(entry, env)
          const migrations = []
          if (entry === 'bundle') for (let index = 0; index < RESTARTS; index++) migrations.push(await migrateOnce(env))
          results[`${entry} ${condition}`] = { ...measured, migrateMedian: migrations.length ? median(migrations) : undefined }
          const name = entry === 'bundle' ? 'bundle' : 'module by module'
          rows.push(row(`${name}, ${condition}: first (fresh data, no compile cache)`, measured.first))
          for (const [index, start] of measured.restarts.entries()) rows.push(row(`${name}, ${condition}: restart ${index + 1}`, start))
        }
      } finally {
        await stopBusyLoops?.()
      }
    }
    printTable(['start', 'launch to ready, ms', 'CPU ms', 'modules loaded', 'site built', 'listening', 'ready (its own clock)'], rows)
    console.log(`load average after: ${loadAverage()}`)
    const bundleIdle = results['bundle idle']
    const bundleBusy = results[`bundle ${BUSY_LOOPS} busy loops`]
    const modulesIdle = results['modules idle']
    const modulesBusy = results[`modules ${BUSY_LOOPS} busy loops`]
    console.log(
      `Module by module, for comparison: restart median ${Math.round(modulesIdle.restartMedian)} ms idle, ${Math.round(modulesBusy.restartMedian)} ms with ${BUSY_LOOPS} busy loops.`,
    )
    printTargets([
      {
        figure: 'bundle, restart: launch to /readyz 200, median, idle',
        measured: `${Math.round(bundleIdle.restartMedian)} ms`,
        target: `≤ ${IDLE_TARGET_MS} ms`,
        met: bundleIdle.restartMedian <= IDLE_TARGET_MS,
      },
      {
        figure: `bundle, restart: launch to /readyz 200, median, ${BUSY_LOOPS} busy loops`,
        measured: `${Math.round(bundleBusy.restartMedian)} ms`,
        target: `≤ ${BUSY_TARGET_MS} ms`,
        met: bundleBusy.restartMedian <= BUSY_TARGET_MS,
      },
      {
        figure: `scripts/serve --migrate, launch to exit, median, ${BUSY_LOOPS} busy loops`,
        measured: `${Math.round(bundleBusy.migrateMedian)} ms`,
        target: `≤ ${BUSY_TARGET_MS} ms`,
        met: bundleBusy.migrateMedian <= BUSY_TARGET_MS,
      },
    ])
  } finally {
    for (const directory of directories) rmSync(directory, { recursive: true, force: true })
  }
}
