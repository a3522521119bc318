import type pg from 'pg'
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterRes } from 'rate-limiter-flexible'

export interface RateLimitDecision {
  allowed: boolean
  /** Whole seconds until the next post would be allowed (0 when allowed). */
  retryAfterSeconds: number
}

export interface RateLimiter {
  /** Counts one post from `key` (e.g. the client IP) and says whether it may proceed. */
  check(key: string): Promise<RateLimitDecision>
}

export interface RateLimiterOptions {
  /** Posts allowed per window per key; 0 turns limiting off. */
  limit: number
  windowMs?: number
  now?: () => number
  /** Keys tracked at most, so a flood of addresses cannot grow memory without bound. */
  maxKeys?: number
}

export interface SharedRateLimiterOptions {
  /** The pool of the PostgreSQL database whose form_rate_limits table every instance counts in. */
  pool: pg.Pool
  /** Posts allowed per window per key; 0 turns limiting off. */
  limit: number
  windowMs?: number
}

/**
 * A limit shared by every instance on one PostgreSQL database: `limit` posts per key in each window, counted in the
 * form_rate_limits table by rate-limiter-flexible. Refused posts do not lengthen the window.
 *
 * When PostgreSQL cannot be reached, each instance counts in its own memory instead (fail over, neither open nor
 * closed): failing closed would refuse every visitor as "too many submissions" for a fault of ours, when the
 * submission itself is answered 503 anyway; failing open would leave the API unguarded against a flood while
 * the database is struggling.
 */
export function createSharedRateLimiter(options: SharedRateLimiterOptions): RateLimiter {
  const { limit } = options
  const duration = Math.max(1, Math.round((options.windowMs ?? 60_000) / 1000))
  const insuranceLimiter = new RateLimiterMemory({ points: limit, duration })
  const shared = new RateLimiterPostgres({
    storeClient: options.pool,
    tableName: 'form_rate_limits',
    tableCreated: true,
    points: limit,
    duration,
    insuranceLimiter,
  })
  return {
    async check(key) {
      if (limit <= 0) return { allowed: true, retryAfterSeconds: 0 }
      const outcome = await shared.consume(key).then(
        (result) => ({ allowed: true, result }),
        (refusal: unknown) => {
          // rate-limiter-flexible refuses with the counter's state, and fails with an Error only when neither the
          // store nor the insurance could count.
          if (refusal instanceof Error) throw refusal
          return { allowed: false, result: refusal as RateLimiterRes }
        },
      )
      return {
        allowed: outcome.allowed,
        retryAfterSeconds: outcome.allowed ? 0 : Math.max(1, Math.ceil(outcome.result.msBeforeNext / 1000)),
      }
    },
  }
}

interface Bucket {
  tokens: number
  updatedAt: number
}

/**
 * A token bucket per key: `limit` posts at once, refilled at `limit` per window. Refused posts take no token.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { limit } = options
  const windowMs = options.windowMs ?? 60_000
  const now = options.now ?? Date.now
  const maxKeys = options.maxKeys ?? 10_000
  const buckets = new Map<string, Bucket>()
  const refillPerMs = limit / windowMs

  function refill(bucket: Bucket, at: number): void {
    bucket.tokens = Math.min(limit, bucket.tokens + (at - bucket.updatedAt) * refillPerMs)
    bucket.updatedAt = at
  }

  function evictFullBuckets(at: number): void {
    for (const [key, bucket] of buckets) {
      refill(bucket, at)
      if (bucket.tokens >= limit) buckets.delete(key)
    }
    // Still too many active keys: forget the oldest ones (Map keeps insertion order).
    for (const key of buckets.keys()) {
      if (buckets.size < maxKeys) break
      buckets.delete(key)
    }
  }

  return {
    async check(key) {
      if (limit <= 0) return { allowed: true, retryAfterSeconds: 0 }
      const at = now()
      let bucket = buckets.get(key)
      if (!bucket) {
        if (buckets.size >= maxKeys) evictFullBuckets(at)
        bucket = { tokens: limit, updatedAt: at }
        buckets.set(key, bucket)
      }
      refill(bucket, at)
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1
        return { allowed: true, retryAfterSeconds: 0 }
      }
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000)) }
    },
  }
}
