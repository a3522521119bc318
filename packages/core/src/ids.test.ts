import { describe, expect, it } from 'vitest'
import { newId, pooledRandomBytes } from './ids.ts'

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

describe('pooledRandomBytes', () => {
  it('hands out each random byte once, also across refills of the pool', () => {
    const drawn = Array.from({ length: 600 }, (_, index) => Buffer.from(pooledRandomBytes(index % 2 === 0 ? 16 : 32)).toString('hex'))
    expect(drawn.every((hex, index) => hex.length === (index % 2 === 0 ? 32 : 64))).toBe(true)
    expect(new Set(drawn).size).toBe(drawn.length)
    // Bytes already handed out are not overwritten in place by the next draws.
    const kept = pooledRandomBytes(32)
    const copy = Buffer.from(kept).toString('hex')
    for (let index = 0; index < 600; index++) pooledRandomBytes(32)
    expect(Buffer.from(kept).toString('hex')).toBe(copy)
  })
})
