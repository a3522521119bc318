import { describe, expect, it } from 'vitest'
import { newId } from './ids.ts'

/** The millisecond a UUIDv7 was made, from its first 48 bits. */
const millisecondOf = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)

describe('newId', () => {
  it('makes unique ids that sort by the millisecond they were made, so new rows append to their indexes', async () => {
    const ids: string[] = []
    const started = Date.now()
    while (Date.now() - started < 20) {
      ids.push(newId())
      await new Promise((resolve) => setImmediate(resolve))
    }

    expect(new Set(ids).size).toBe(ids.length)
    expect(new Set(ids.map(millisecondOf)).size).toBeGreaterThan(5)
    const sorted = [...ids].sort()
    expect(sorted.map(millisecondOf)).toEqual(ids.map(millisecondOf))
    for (const id of ids) expect(millisecondOf(id)).toBeGreaterThanOrEqual(started)
  })
})
