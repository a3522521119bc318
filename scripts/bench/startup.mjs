// How long the built site takes from launch to ready (/readyz 200: database written, content answered, outbox
// started), as a restart meets it: the same DATA_DIR and Node's compile cache left by an earlier start. One start
// with a fresh data directory and compile cache is measured beside it as context. Each start's milestones come from
// its "Site ready" log line; its CPU time from /proc.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { launchSite } from '../../tests/support/site-server.ts'
import { cores, printTable, printTargets } from './table.mjs'

export const title = `Start of the built site: launch to ready (${cores} cores)`

const RESTARTS = 5
const TARGET_MS = 1000
const CLOCK_TICKS_PER_SECOND = 100

/** User and system CPU time of a process so far, in ms (Linux /proc). */
function cpuMs(pid) {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND
}

async function startOnce(env) {
  const launchedAt = performance.now()
  const site = await launchSite({ env })
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

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

export async function run() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-startup-'))
  const compileCache = mkdtempSync(path.join(tmpdir(), 'bench-startup-cache-'))
  const env = { DATA_DIR: dataDir, NODE_COMPILE_CACHE: compileCache }
  try {
    console.log(
      `load average before: ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}`,
    )
    const first = await startOnce(env)
    const restarts = []
    for (let index = 0; index < RESTARTS; index++) restarts.push(await startOnce(env))
    const row = (label, start) => [
      label,
      Math.round(start.wallMs),
      Math.round(start.cpuMs),
      ...['modules', 'site', 'listening', 'ready'].map((name) => String(start.milestones[name] ?? '')),
    ]
    printTable(
      ['start', 'launch to ready, ms', 'CPU ms', 'modules loaded', 'site built', 'listening', 'ready (its own clock)'],
      [row('first (fresh data, no compile cache)', first), ...restarts.map((start, index) => row(`restart ${index + 1}`, start))],
    )
    console.log(
      `load average after: ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}`,
    )
    const restartMedian = median(restarts.map((start) => start.wallMs))
    printTargets([
      {
        figure: 'restart: launch to /readyz 200, median',
        measured: `${Math.round(restartMedian)} ms`,
        target: `≤ ${TARGET_MS} ms`,
        met: restartMedian <= TARGET_MS,
      },
    ])
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(compileCache, { recursive: true, force: true })
  }
}
