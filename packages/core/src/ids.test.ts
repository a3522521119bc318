import { describe, expect, it } from 'vitest'
import { newId } from './ids.ts'

/** The millisecond a UUIDv7 was made, from its first 48 bits. */
const millisecondOf = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)

describe('newId', () => {
  it('makes unique ids that sort by the millisecond they were made, so new rows append to their indexes', async () => {
    const ids: string[] = []
    const milliseconds = new Set<number>()
    const started = Date.now()
    // Ids drawn across several milliseconds, however long a busy machine takes to come back to this loop.
    while (milliseconds.size < 6 && Date.now() - started < 5_000) {
      const id = newId()
      ids.push(id)
      milliseconds.add(millisecondOf(id))
      await new Promise((resolve) => setImmediate(resolve))
    }

    expect(new Set(ids).size).toBe(ids.length)
    expect(milliseconds.size).toBeGreaterThan(5)
    const sorted = [...ids].sort()
    expect(sorted.map(millisecondOf)).toEqual(ids.map(millisecondOf))
    for (const id of ids) expect(millisecondOf(id)).toBeGreaterThanOrEqual(started)
  })
})
