import { Worker } from 'node:worker_threads'
import type express from 'express'

/**
 * What an instance is, as /readyz tells a load balancer. `busy` is ready but slow: a check outlasted its timeout
 * while it had answered recently, which is load, not a fault, so the instance stays in the balancer (200).
 */
export type ReadinessStatus = 'starting' | 'ready' | 'busy' | 'unavailable' | 'draining'

export interface ReadinessOptions {
  /** Each dependency's check: resolves when it answers, rejects (or outlasts timeoutMs) when it does not. */
  checks: Record<string, () => Promise<unknown>>
  /** The least time from the start of one round of checks to the start of the next (default 1 s). */
  intervalMs?: number
  /** A check that has not answered by then is slow: busy while it answered within busyGraceMs, else failed (default 2 s). */
  timeoutMs?: number
  /** How many failed rounds in a row make the instance unavailable (default 3); one passed round makes it ready again. */
  failuresBeforeUnavailable?: number
  /** How long after its last answer a check that times out counts as busy rather than failed (default 30 s). */
  busyGraceMs?: number
  /** Told when the instance becomes unavailable (with the failed checks and their reasons) and when it recovers. */
  log: (level: 'warn' | 'info', message: string) => void
}

export interface Readiness {
  /** Runs the first round of checks now and then one a second in the background; resolves after the first round. */
  start(): Promise<void>
  /** From now on the instance is draining: /readyz answers 503 whatever the checks say, and checks stop. */
  drain(): void
  /** Stops the checks (on shutdown). */
  stop(): void
  status(): ReadinessStatus
  /** Called once, the first time the instance is ready (to start work that waits for readiness). */
  onFirstReady(listener: () => void): void
  /** GET /healthz: liveness, from memory. */
  livenessHandler: express.RequestHandler
  /** GET /readyz: readiness, from the last round of checks. */
  readinessHandler: express.RequestHandler
  /**
   * Answers /healthz and /readyz on a port of their own from a thread of their own, so that a probe answers at once
   * however busy the main thread is; resolves once it listens.
   */
  listenOnProbePort(port: number, host: string): Promise<{ close(): Promise<void> }>
}

const STATUSES: readonly ReadinessStatus[] = ['starting', 'ready', 'busy', 'unavailable', 'draining']
/** The statuses a load balancer keeps sending requests in. */
const SERVING: readonly ReadinessStatus[] = ['ready', 'busy']
/** Slots of the state shared with the probe thread. */
const STATUS_SLOT = 0
const FAILING_SLOT = 1
const HEARTBEAT_SLOT = 2
/** The main thread says it is alive this often; the probe thread calls it unresponsive after LIVENESS_LIMIT_S without. */
const HEARTBEAT_MS = 500
const LIVENESS_LIMIT_S = 10

// The probe thread: plain node:http over the shared state, no I/O of its own. CommonJS, as Node evaluates it.
const PROBE_THREAD_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads')
const { createServer } = require('node:http')
const { port, host, buffer, statuses, serving, checks, livenessLimitS } = workerData
const state = new Int32Array(buffer)
const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }
const server = createServer((req, res) => {
  const live = Date.now() / 1000 - Atomics.load(state, ${HEARTBEAT_SLOT}) < livenessLimitS
  const path = (req.url || '').split('?')[0]
  if (path === '/healthz') {
    res.writeHead(live ? 200 : 503, headers).end(JSON.stringify({ status: live ? 'ok' : 'unresponsive' }))
  } else if (path === '/readyz') {
    const status = live ? statuses[Atomics.load(state, ${STATUS_SLOT})] : 'unresponsive'
    const failingBits = Atomics.load(state, ${FAILING_SLOT})
    const named = checks.filter((_, index) => failingBits & (1 << index))
    const body = status === 'unavailable' ? { status, failing: named } : status === 'busy' ? { status, slow: named } : { status }
    res.writeHead(serving.includes(status) ? 200 : 503, headers).end(JSON.stringify(body))
  } else {
    res.writeHead(404, headers).end('{"status":"not-found"}')
  }
})
server.on('error', (error) => parentPort.postMessage({ error: error.message }))
server.listen(port, host, () => parentPort.postMessage({ listening: true }))
parentPort.on('message', () => server.close(() => process.exit(0)))
`

/** A check that gave no answer in time: slow, which is not yet broken. */
class CheckTimeout extends Error {}

function withTimeout(check: () => Promise<unknown>, timeoutMs: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout(`no answer within ${timeoutMs} ms`)), timeoutMs)
  })
  return Promise.race([Promise.resolve().then(check), timeout]).finally(() => clearTimeout(timer))
}

/**
 * The instance's readiness, checked in the background so that a probe never waits on the database or the content
 * source: a load balancer probing every few hundred milliseconds costs one round of checks a second, whatever the
 * number of probes, and a probe answers from memory even while the event loop is busy with other work.
 */
export function createReadiness({
  checks,
  intervalMs = 1000,
  timeoutMs = 2000,
  failuresBeforeUnavailable = 3,
  busyGraceMs = 30_000,
  log,
}: ReadinessOptions): Readiness {
  let status: ReadinessStatus = 'starting'
  // Public answers name the failing (or slow) dependencies, never their errors (which may name hosts or files).
  let failing: string[] = []
  const failuresInARow = new Map<string, number>()
  const lastAnsweredAt = new Map<string, number>()
  const checkNames = Object.keys(checks)
  // What the probe thread reads: the status, the failing checks as bits, the main thread's last heartbeat.
  const shared = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT))
  const beat = () => Atomics.store(shared, HEARTBEAT_SLOT, Math.floor(Date.now() / 1000))
  beat()
  const heartbeat = setInterval(beat, HEARTBEAT_MS)
  heartbeat.unref()
  function publish(): void {
    Atomics.store(shared, STATUS_SLOT, STATUSES.indexOf(status))
    Atomics.store(
      shared,
      FAILING_SLOT,
      checkNames.reduce((bits, name, index) => (failing.includes(name) ? bits | (1 << index) : bits), 0),
    )
  }
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  let everReady = false
  const firstReadyListeners: Array<() => void> = []

  async function round(): Promise<void> {
    const names = Object.keys(checks)
    const results = await Promise.allSettled(names.map((name) => withTimeout(checks[name]!, timeoutMs)))
    if (stopped || status === 'draining') return
    const now = performance.now()
    const failed: Array<{ name: string; reason: string }> = []
    const slow: Array<{ name: string; reason: string }> = []
    names.forEach((name, index) => {
      const result = results[index]!
      if (result.status === 'fulfilled') {
        failuresInARow.set(name, 0)
        lastAnsweredAt.set(name, now)
        return
      }
      const reason = (result.reason as Error | undefined)?.message ?? String(result.reason)
      const answeredAt = lastAnsweredAt.get(name)
      // Slow after a recent answer is load: the instance stays in; an error, or silence past the grace, is a fault.
      if (result.reason instanceof CheckTimeout && answeredAt !== undefined && now - answeredAt <= busyGraceMs) {
        slow.push({ name, reason })
        return
      }
      failuresInARow.set(name, (failuresInARow.get(name) ?? 0) + 1)
      failed.push({ name, reason })
    })
    const broken = failed.filter((failure) => failuresInARow.get(failure.name)! >= failuresBeforeUnavailable)
    let next: ReadinessStatus
    if (broken.length > 0) next = 'unavailable'
    // Fewer failures in a row than that: a serving instance stays in, one that is not serving yet stays out.
    else if (failed.length > 0) next = status === 'ready' && slow.length > 0 ? 'busy' : status
    else if (slow.length > 0) next = status === 'starting' ? 'starting' : 'busy'
    else next = 'ready'
    const nowFailing = (next === 'unavailable' ? failed : next === 'busy' ? slow : []).map((entry) => entry.name)
    if (next === 'unavailable' && (status !== 'unavailable' || nowFailing.join() !== failing.join())) {
      const reasons = failed.map((failure) => `the ${failure.name} check failed (${failure.reason}) ${failuresInARow.get(failure.name)} times in a row`)
      log('warn', `Not ready: ${reasons.join('; ')}`)
    } else if (next === 'busy' && status !== 'busy') {
      log('info', `Busy, still serving: ${slow.map((entry) => `the ${entry.name} check was slow (${entry.reason})`).join('; ')}`)
    } else if (next === 'ready' && (status === 'unavailable' || status === 'busy')) {
      log('info', `${status === 'unavailable' ? 'Ready again' : 'No longer busy'}: every check passed`)
    }
    status = next
    failing = nowFailing
    publish()
    if (next === 'ready' && !everReady) {
      everReady = true
      for (const listener of firstReadyListeners) listener()
    }
  }

  function scheduleNext(startedAt: number): void {
    if (stopped || status === 'draining') return
    timer = setTimeout(loop, Math.max(0, intervalMs - (performance.now() - startedAt)))
    timer.unref()
  }

  function loop(): void {
    const startedAt = performance.now()
    void round().finally(() => scheduleNext(startedAt))
  }

  return {
    async start() {
      const startedAt = performance.now()
      await round()
      scheduleNext(startedAt)
    },
    drain() {
      status = 'draining'
      publish()
      clearTimeout(timer)
    },
    stop() {
      stopped = true
      clearTimeout(timer)
      clearInterval(heartbeat)
    },
    status: () => status,
    onFirstReady(listener) {
      if (everReady) listener()
      else firstReadyListeners.push(listener)
    },
    livenessHandler(_req, res) {
      res.set('Cache-Control', 'no-store').json({ status: 'ok' })
    },
    readinessHandler(_req, res) {
      res.set('Cache-Control', 'no-store')
      if (status === 'busy') res.json({ status, slow: failing })
      else if (status === 'ready') res.json({ status })
      else res.status(503).json(status === 'unavailable' ? { status, failing } : { status })
    },
    listenOnProbePort(port, host) {
      const worker = new Worker(PROBE_THREAD_SOURCE, {
        eval: true,
        workerData: { port, host, buffer: shared.buffer, statuses: STATUSES, serving: SERVING, checks: checkNames, livenessLimitS: LIVENESS_LIMIT_S },
      })
      worker.unref()
      return new Promise((resolve, reject) => {
        worker.once('error', reject)
        worker.once('message', (message: { listening?: true; error?: string }) => {
          if (message.error) {
            reject(new Error(`HEALTH_PORT ${port}: ${message.error}`))
            return
          }
          resolve({
            close: async () => {
              const exited = new Promise((done) => worker.once('exit', done))
              worker.postMessage('close')
              await exited
            },
          })
        })
      })
    },
  }
}
