import { describe, expect, it } from 'vitest'
import { createRateLimiter } from './rate-limit.ts'

describe('createRateLimiter', () => {
  it('allows the limit per minute per key, then refuses until tokens refill', () => {
    let now = 0
    const limiter = createRateLimiter({ limit: 3, now: () => now })
    expect([1, 2, 3].map(() => limiter.check('198.51.100.7').allowed)).toEqual([true, true, true])
    expect(limiter.check('198.51.100.7')).toEqual({ allowed: false, retryAfterSeconds: 20 })
    expect(limiter.check('203.0.113.9').allowed).toBe(true)
    now = 20_000
    expect(limiter.check('198.51.100.7').allowed).toBe(true)
    expect(limiter.check('198.51.100.7').allowed).toBe(false)
  })

  it('does not count refused posts', () => {
    let now = 0
    const limiter = createRateLimiter({ limit: 1, now: () => now })
    expect(limiter.check('a').allowed).toBe(true)
    for (let index = 0; index < 100; index++) expect(limiter.check('a').allowed).toBe(false)
    now = 60_000
    expect(limiter.check('a').allowed).toBe(true)
  })

  it('is off with a limit of 0', () => {
    const limiter = createRateLimiter({ limit: 0 })
    for (let index = 0; index < 1000; index++) expect(limiter.check('a').allowed).toBe(true)
  })

  it('keeps at most maxKeys keys', () => {
    const limiter = createRateLimiter({ limit: 1, maxKeys: 100, now: () => 0 })
    for (let index = 0; index < 10_000; index++) expect(limiter.check(`10.0.${index >> 8}.${index & 255}`).allowed).toBe(true)
  })
})
