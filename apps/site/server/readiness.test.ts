import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createReadiness } from './readiness'

type Answer = 'ok' | 'error' | 'hang'

function harness(options: { failuresBeforeUnavailable?: number; busyGraceMs?: number } = {}) {
  let answer: Answer = 'ok'
  const lines: string[] = []
  const readiness = createReadiness({
    checks: {
      database: () => (answer === 'ok' ? Promise.resolve() : answer === 'error' ? Promise.reject(new Error('connection refused')) : new Promise(() => {})),
    },
    intervalMs: 1000,
    timeoutMs: 2000,
    ...options,
    log: (level, message) => lines.push(`${level}: ${message}`),
  })
  return {
    readiness,
    lines,
    answer: (next: Answer) => (answer = next),
    /** Lets the rounds due in the next `ms` run to their end. */
    elapse: (ms: number) => vi.advanceTimersByTimeAsync(ms),
  }
}

describe('readiness with hysteresis', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] }))
  afterEach(() => vi.useRealTimers())

  it('stays ready through two failed rounds, turns unavailable on the third and ready again after one success', async () => {
    const { readiness, lines, answer, elapse } = harness()
    await readiness.start()
    expect(readiness.status()).toBe('ready')
    answer('error')
    await elapse(1000)
    expect(readiness.status()).toBe('ready')
    await elapse(1000)
    expect(readiness.status()).toBe('ready')
    expect(lines).toEqual([])
    await elapse(1000)
    expect(readiness.status()).toBe('unavailable')
    expect(lines).toEqual(['warn: Not ready: the database check failed (connection refused) 3 times in a row'])
    answer('ok')
    await elapse(1000)
    expect(readiness.status()).toBe('ready')
    expect(lines.at(-1)).toBe('info: Ready again: every check passed')
    readiness.stop()
  })

  it('counts failures only in a row: a success between them starts the count again', async () => {
    const { readiness, answer, elapse } = harness()
    await readiness.start()
    for (const next of ['error', 'error', 'ok', 'error', 'error', 'ok'] as const) {
      answer(next)
      await elapse(1000)
      expect(readiness.status()).toBe('ready')
    }
    readiness.stop()
  })

  it('calls a check that is slow after a recent answer busy and keeps serving, and a silence past the grace a fault', async () => {
    const { readiness, lines, answer, elapse } = harness({ busyGraceMs: 10_000 })
    await readiness.start()
    answer('hang')
    // The next round starts at 1 s and ends at its 2 s timeout; each one after starts at once and lasts 2 s.
    await elapse(3000)
    expect(readiness.status()).toBe('busy')
    expect(lines).toEqual(['info: Busy, still serving: the database check was slow (no answer within 2000 ms)'])
    await elapse(6000)
    expect(readiness.status()).toBe('busy')
    // Past 10 s without an answer the timeouts count as failures (rounds ending near 11 s, 13 s and 15 s): the
    // third makes the instance unavailable.
    await elapse(4000)
    expect(readiness.status()).toBe('busy')
    await elapse(2100)
    expect(readiness.status()).toBe('unavailable')
    answer('ok')
    await elapse(3000)
    expect(readiness.status()).toBe('ready')
    readiness.stop()
  })

  it('is not ready before its first passed round, and names the broken check once it has failed three times', async () => {
    const { readiness, answer, elapse } = harness()
    answer('error')
    await readiness.start()
    expect(readiness.status()).toBe('starting')
    await elapse(2100)
    expect(readiness.status()).toBe('unavailable')
    answer('ok')
    await elapse(1000)
    expect(readiness.status()).toBe('ready')
    readiness.stop()
  })
})
