import { createServer, type Server } from 'node:net'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { postgresClientConfig } from './db/open-database.ts'
import { createRateLimiter, createSharedRateLimiter, type RateLimiter } from './rate-limit.ts'
import { openTestDatabase, TEST_BACKENDS, type TestDatabase } from './test-support.ts'

async function allowedOf(limiter: RateLimiter, key: string, posts: number): Promise<boolean[]> {
  const decisions: boolean[] = []
  for (let post = 0; post < posts; post++) decisions.push((await limiter.check(key)).allowed)
  return decisions
}

describe('createRateLimiter', () => {
  it('allows the limit per minute per key, then refuses until tokens refill', async () => {
    let now = 0
    const limiter = createRateLimiter({ limit: 3, now: () => now })
    expect(await allowedOf(limiter, '198.51.100.7', 3)).toEqual([true, true, true])
    expect(await limiter.check('198.51.100.7')).toEqual({ allowed: false, retryAfterSeconds: 20 })
    expect((await limiter.check('203.0.113.9')).allowed).toBe(true)
    now = 20_000
    expect(await allowedOf(limiter, '198.51.100.7', 2)).toEqual([true, false])
  })

  it('does not count refused posts', async () => {
    let now = 0
    const limiter = createRateLimiter({ limit: 1, now: () => now })
    expect(await allowedOf(limiter, 'a', 101)).toEqual([true, ...Array<boolean>(100).fill(false)])
    now = 60_000
    expect((await limiter.check('a')).allowed).toBe(true)
  })

  it('is off with a limit of 0', async () => {
    const limiter = createRateLimiter({ limit: 0 })
    expect(await allowedOf(limiter, 'a', 1000)).not.toContain(false)
  })

  it('keeps at most maxKeys keys', async () => {
    const limiter = createRateLimiter({ limit: 1, maxKeys: 100, now: () => 0 })
    for (let index = 0; index < 10_000; index++) expect((await limiter.check(`10.0.${index >> 8}.${index & 255}`)).allowed).toBe(true)
  })
})

describe.each(TEST_BACKENDS.filter((backend) => backend === 'postgres'))('createSharedRateLimiter on %s', (backend) => {
  let database: TestDatabase | undefined
  afterEach(async () => {
    await database?.dispose()
    database = undefined
  })

  it('counts the posts of two instances against one limit', async () => {
    database = await openTestDatabase(backend)
    const first = createSharedRateLimiter({ pool: database.db.postgresPool!, limit: 3 })
    const second = createSharedRateLimiter({ pool: (await database.openAnother()).postgresPool!, limit: 3 })
    expect(await allowedOf(first, '198.51.100.7', 2)).toEqual([true, true])
    expect(await allowedOf(second, '198.51.100.7', 2)).toEqual([true, false])
    const refused = await first.check('198.51.100.7')
    expect(refused.allowed).toBe(false)
    expect(refused.retryAfterSeconds).toBeGreaterThan(50)
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60)
    expect((await second.check('203.0.113.9')).allowed).toBe(true)
    const { rows } = await database.db.postgresPool!.query<{ key: string; points: number }>('select key, points from form_rate_limits order by key')
    expect(rows).toEqual([
      { key: 'rlflx:198.51.100.7', points: 5 },
      { key: 'rlflx:203.0.113.9', points: 1 },
    ])
  })

  it('starts a new window once the last has passed', async () => {
    database = await openTestDatabase(backend)
    const limiter = createSharedRateLimiter({ pool: database.db.postgresPool!, limit: 1, windowMs: 1000 })
    expect(await allowedOf(limiter, 'a', 2)).toEqual([true, false])
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect(await allowedOf(limiter, 'a', 2)).toEqual([true, false])
  })
})

describe('createSharedRateLimiter without its database', () => {
  let refusing: Server | undefined
  afterEach(() => refusing?.close())

  it('counts in memory while PostgreSQL cannot be reached, neither refusing everyone nor letting a flood through', async () => {
    // A port that accepts connections and closes them at once, like a server going down.
    refusing = createServer((socket) => socket.destroy())
    await new Promise<void>((resolve) => refusing!.listen(0, '127.0.0.1', resolve))
    const port = (refusing.address() as { port: number }).port
    const pool = new pg.Pool({ ...postgresClientConfig(`postgres://127.0.0.1:${port}/test`), connectionTimeoutMillis: 1000 })
    try {
      const limiter = createSharedRateLimiter({ pool, limit: 2 })
      expect(await allowedOf(limiter, '198.51.100.7', 3)).toEqual([true, true, false])
      expect((await limiter.check('203.0.113.9')).allowed).toBe(true)
    } finally {
      await pool.end()
    }
  })
})
