import { describe, expect, it } from 'vitest'
import { createMetrics } from './metrics.ts'

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('createMetrics', () => {
  it('counts requests by route pattern, method and status', async () => {
    const metrics = createMetrics()
    metrics.observeRequest({ method: 'GET', route: '/conference/:slug', status: 200, durationSeconds: 0.02 })
    metrics.observeRequest({ method: 'GET', route: '/conference/:slug', status: 200, durationSeconds: 0.3 })
    const text = await metrics.registry.metrics()
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/conference/:slug",status="200"}')).toBe(2)
    expect(sample(text, 'http_request_duration_seconds_bucket{le="0.025",method="GET",route="/conference/:slug",status="200"}')).toBe(1)
  })

  it('counts registrations by payment method and card payments', async () => {
    const metrics = createMetrics()
    metrics.registrationCreated('bank-transfer')
    metrics.registrationCreated('bank-transfer')
    metrics.registrationCreated('card')
    metrics.cardPaymentSucceeded()
    const text = await metrics.registry.metrics()
    expect(sample(text, 'registrations_created_total{payment_method="bank-transfer"}')).toBe(2)
    expect(sample(text, 'registrations_created_total{payment_method="card"}')).toBe(1)
    expect(sample(text, 'card_payments_succeeded_total')).toBe(1)
  })

  it('counts the page cache outcomes', async () => {
    const metrics = createMetrics()
    metrics.pageCacheOutcome('miss')
    metrics.pageCacheOutcome('hit')
    metrics.pageCacheOutcome('hit')
    metrics.pageCacheOutcome('not-modified')
    const text = await metrics.registry.metrics()
    expect(sample(text, 'page_cache_responses_total{outcome="miss"}')).toBe(1)
    expect(sample(text, 'page_cache_responses_total{outcome="hit"}')).toBe(2)
    expect(sample(text, 'page_cache_responses_total{outcome="not-modified"}')).toBe(1)
  })

  it('reads the outbox gauges once per scrape, at the scrape', async () => {
    const metrics = createMetrics()
    let reads = 0
    metrics.readOutboxHealthFrom(async () => {
      reads += 1
      return { pending: 3 * reads, oldestPendingAgeSeconds: 42.5, failed: 1, uncertain: 2 }
    })
    const first = await metrics.registry.metrics()
    expect(reads).toBe(1)
    expect(sample(first, 'outbox_pending_messages')).toBe(3)
    expect(sample(first, 'outbox_oldest_pending_age_seconds')).toBe(42.5)
    expect(sample(first, 'outbox_failed_messages')).toBe(1)
    expect(sample(first, 'outbox_uncertain_messages')).toBe(2)
    expect(sample(await metrics.registry.metrics(), 'outbox_pending_messages')).toBe(6)
  })

  it('reports the outbox as unknown, and says why, when it cannot be read', async () => {
    const errors: unknown[] = []
    const metrics = createMetrics({ onCollectError: (error) => errors.push(error) })
    metrics.readOutboxHealthFrom(async () => {
      throw new Error('connect ECONNREFUSED')
    })
    const text = await metrics.registry.metrics()
    expect(sample(text, 'outbox_pending_messages')).toBeNaN()
    expect(sample(text, 'outbox_uncertain_messages')).toBeNaN()
    expect(errors).toHaveLength(1)
  })

  it('includes the process metrics', async () => {
    const text = await createMetrics().registry.metrics()
    expect(text).toContain('process_resident_memory_bytes')
    expect(text).toContain('nodejs_eventloop_lag_seconds')
  })
})
