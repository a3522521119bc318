export interface RateLimitDecision {
  allowed: boolean
  /** Whole seconds until the next post would be allowed (0 when allowed). */
  retryAfterSeconds: number
}

export interface RateLimiter {
  /** Counts one post from `key` (e.g. the client IP) and says whether it may proceed. */
  check(key: string): RateLimitDecision
}

export interface RateLimiterOptions {
  /** Posts allowed per window per key; 0 turns limiting off. */
  limit: number
  windowMs?: number
  now?: () => number
  /** Keys tracked at most, so a flood of addresses cannot grow memory without bound. */
  maxKeys?: number
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
    check(key) {
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
