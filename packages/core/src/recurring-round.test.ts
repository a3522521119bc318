import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startRecurringRound } from './recurring-round.ts'

// The rounds run on fake timers: how many fit in a stretch of time is then the schedule's, not the machine's load.
describe('startRecurringRound', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('runs at once and then at each interval, logs a failed round and goes on, and stops after the round under way', async () => {
    const lines: string[] = []
    let rounds = 0
    let finished = 0
    const recurring = startRecurringRound(
      'reminders',
      async () => {
        rounds += 1
        if (rounds === 2) throw new Error('database gone')
        await new Promise((resolve) => setTimeout(resolve, 5))
        finished += 1
      },
      { intervalMs: 20, log: (line) => lines.push(line) },
    )
    expect(rounds).toBe(1)
    // At 0, 20 (the failed one), 40 and 60 ms; the last one is under way when stop() is called at 62 ms.
    await vi.advanceTimersByTimeAsync(62)
    expect(rounds).toBe(4)
    const stopped = recurring.stop()
    await vi.advanceTimersByTimeAsync(5)
    await stopped
    expect(finished).toBe(3)
    expect(lines).toEqual(['reminders: round failed: database gone'])
    await vi.advanceTimersByTimeAsync(100)
    expect(rounds).toBe(4)
  })

  it('never starts a round while the last one is still running', async () => {
    let running = 0
    let most = 0
    let rounds = 0
    const recurring = startRecurringRound(
      'slow',
      async () => {
        rounds += 1
        running += 1
        most = Math.max(most, running)
        await new Promise((resolve) => setTimeout(resolve, 40))
        running -= 1
      },
      { intervalMs: 5, log: () => undefined },
    )
    await vi.advanceTimersByTimeAsync(100)
    const stopped = recurring.stop()
    await vi.advanceTimersByTimeAsync(40)
    await stopped
    expect(rounds).toBeGreaterThanOrEqual(2)
    expect(most).toBe(1)
    expect(running).toBe(0)
  })
})
