// `pnpm test:load-check`: whether the unit suite holds on a busy machine. Keeps every core busy with a loop of its own,
// runs `pnpm test:fast` three times in a row, and prints each run's duration, result and the load average around it;
// exits 1 when a run failed. It takes the whole machine for several minutes: run it alone (docs/testing.md).
import { spawn } from 'node:child_process'
import { availableParallelism, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'

const RUNS = 3
const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const busyLoops = Number(process.env.LOAD_CHECK_BUSY_LOOPS ?? availableParallelism())

const formatLoad = () =>
  loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')

/** A process that spins until it is killed: one core's worth of load. */
function busyLoop() {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })
}

/** One `pnpm test:fast`, its output passed through; resolves with its exit code. */
function testFast() {
  return new Promise((resolve, reject) => {
    const run = spawn('pnpm', ['test:fast'], { cwd: repoRoot, stdio: 'inherit' })
    run.on('error', reject)
    run.on('close', (code) => resolve(code ?? 1))
  })
}

const loops = Array.from({ length: busyLoops }, busyLoop)
const stopLoops = () => loops.forEach((loop) => loop.kill('SIGKILL'))
process.on('exit', stopLoops)
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130))

console.log(`load check: ${busyLoops} busy loops on ${availableParallelism()} cores; load average ${formatLoad()}`)
const results = []
for (let run = 1; run <= RUNS; run++) {
  const loadBefore = formatLoad()
  const startedAt = performance.now()
  const code = await testFast()
  const seconds = (performance.now() - startedAt) / 1000
  results.push({ run, code, seconds, loadBefore, loadAfter: formatLoad() })
}
stopLoops()

console.log('\nload check (load average over 1, 5 and 15 minutes):')
for (const { run, code, seconds, loadBefore, loadAfter } of results) {
  console.log(`  run ${run}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s, load ${loadBefore} before, ${loadAfter} after`)
}
process.exit(results.every(({ code }) => code === 0) ? 0 : 1)
