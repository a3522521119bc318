import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/** The outbox's state as the core reports it (its outboxHealth query). */
export interface OutboxHealthSnapshot {
  pending: number
  /** Age of the oldest message still waiting to be sent; 0 when none waits. */
  oldestPendingAgeSeconds: number
  failed: number
  /** E-mails whose sending was interrupted, so whether they arrived is not known; staff settle them. */
  uncertain: number
}

export interface RequestObservation {
  method: string
  route: string
  status: number
  durationSeconds: number
}

export interface SiteMetrics {
  registry: Registry
  observeRequest(observation: RequestObservation): void
  /** Counted by the payment method's key (`bank-transfer`, `card`), a stable label value. */
  registrationCreated(paymentMethod: string): void
  cardPaymentSucceeded(): void
  /** A public page answered by the page cache: from memory (hit), a 304 (not-modified), or rendered and kept (miss). */
  pageCacheOutcome(outcome: 'hit' | 'miss' | 'not-modified'): void
  /** Where the outbox gauges are read from at each scrape (they report 0 until it is set). */
  readOutboxHealthFrom(read: () => Promise<OutboxHealthSnapshot>): void
}

export interface MetricsOptions {
  /** Told when the outbox could not be read at a scrape; the gauges then report NaN (unknown). */
  onCollectError?: (error: unknown) => void
}

/** The site's Prometheus metrics in a registry of their own, with Node's process metrics. */
export function createMetrics(options: MetricsOptions = {}): SiteMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const registers = [registry]

  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its response being sent, by route pattern, method and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  })
  const registrations = new Counter({
    name: 'registrations_created_total',
    help: 'Registrations stored (repeated submissions not counted again), by payment method.',
    labelNames: ['payment_method'] as const,
    registers,
  })
  const cardPayments = new Counter({
    name: 'card_payments_succeeded_total',
    help: 'Card payments that marked a registration paid.',
    registers,
  })

  const pageCache = new Counter({
    name: 'page_cache_responses_total',
    help: 'Public pages answered by the page cache: hit (from memory), not-modified (304) or miss (rendered, then kept).',
    labelNames: ['outcome'] as const,
    registers,
  })

  let readOutboxHealth: (() => Promise<OutboxHealthSnapshot>) | undefined
  // The outbox gauges are collected at once at each scrape; they share one read of the database.
  let snapshotUnderway: Promise<OutboxHealthSnapshot | undefined> | undefined
  function outboxSnapshot(): Promise<OutboxHealthSnapshot | undefined> {
    if (!readOutboxHealth) return Promise.resolve(undefined)
    snapshotUnderway ??= readOutboxHealth()
      .catch((error: unknown) => {
        options.onCollectError?.(error)
        return { pending: Number.NaN, oldestPendingAgeSeconds: Number.NaN, failed: Number.NaN, uncertain: Number.NaN }
      })
      .finally(() => {
        snapshotUnderway = undefined
      })
    return snapshotUnderway
  }
  function outboxGauge(name: string, help: string, pick: (snapshot: OutboxHealthSnapshot) => number): void {
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const snapshot = await outboxSnapshot()
        if (snapshot) this.set(pick(snapshot))
      },
    })
  }
  outboxGauge('outbox_pending_messages', 'E-mails waiting to be sent (including those being retried).', (snapshot) => snapshot.pending)
  outboxGauge(
    'outbox_oldest_pending_age_seconds',
    'Age of the oldest e-mail waiting to be sent; 0 when none waits.',
    (snapshot) => snapshot.oldestPendingAgeSeconds,
  )
  outboxGauge('outbox_failed_messages', 'E-mails given up on after a day of failed attempts.', (snapshot) => snapshot.failed)
  outboxGauge(
    'outbox_uncertain_messages',
    'E-mails whose sending was interrupted, not sent again until staff say whether they arrived (Back office, E-mails).',
    (snapshot) => snapshot.uncertain,
  )

  return {
    registry,
    observeRequest({ method, route, status, durationSeconds }) {
      requestDuration.observe({ method, route, status: String(status) }, durationSeconds)
    },
    registrationCreated(paymentMethod) {
      registrations.inc({ payment_method: paymentMethod })
    },
    cardPaymentSucceeded() {
      cardPayments.inc()
    },
    pageCacheOutcome(outcome) {
      pageCache.inc({ outcome })
    },
    readOutboxHealthFrom(read) {
      readOutboxHealth = read
    },
  }
}
