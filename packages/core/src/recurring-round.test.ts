import { describe, expect, it } from 'vitest'
import { startRecurringRound } from './recurring-round.ts'

describe('startRecurringRound', () => {
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
    await new Promise((resolve) => setTimeout(resolve, 70))
    await recurring.stop()
    const stoppedAt = rounds
    expect(stoppedAt).toBeGreaterThanOrEqual(3)
    expect(finished).toBe(stoppedAt - 1)
    expect(lines).toEqual(['reminders: round failed: database gone'])
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(rounds).toBe(stoppedAt)
  })

  it('never starts a round while the last one is still running', async () => {
    let running = 0
    let most = 0
    const recurring = startRecurringRound(
      'slow',
      async () => {
        running += 1
        most = Math.max(most, running)
        await new Promise((resolve) => setTimeout(resolve, 40))
        running -= 1
      },
      { intervalMs: 5, log: () => undefined },
    )
    await new Promise((resolve) => setTimeout(resolve, 100))
    await recurring.stop()
    expect(most).toBe(1)
    expect(running).toBe(0)
  })
})
