import { sql } from 'kysely'
import type { CoreDatabase } from '../db/database.ts'
import type { OutboxMessageRow } from '../db/tables/outbox-messages.ts'
import { newId } from '../ids.ts'
import type { OutgoingMail } from '../mail/outgoing-mail.ts'
import { MAX_SMTP_CONNECTIONS, outboxMessageIdSql, type MailTransport } from '../mail/transport.ts'
import { outgoingMailOf, sentRecordOf, storedMailOf } from './stored-mail.ts'

const FIRST_RETRY_MS = 5_000
const MAX_RETRY_DELAY_MS = 5 * 60_000
/** After this long since it was written, a message that still fails is given up. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000
/**
 * How long a claimed message stays reserved without word from its worker. A worker renews the lease of every message
 * it is sending, so only a message whose worker died waits this long before another worker takes it over.
 */
export const DEFAULT_LEASE_MS = 30_000
/**
 * How long after the last wake (a registration, an enquiry, a staff action just stored) the worker counts its process
 * as busy and sends with one lane, so rendering and sending e-mails leaves the CPU to the requests coming in.
 */
const BUSY_AFTER_WAKE_MS = 250
/** How often a waiting lane looks again whether it may send. */
const LANE_RECHECK_MS = 50

/** Delay before the next attempt after `attempts` failed ones: 5 s, 10 s, 20 s … at most 5 minutes. */
export function retryDelayMs(attempts: number): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 16)
  return Math.min(FIRST_RETRY_MS * 2 ** exponent, MAX_RETRY_DELAY_MS)
}

export interface DeliveryOptions {
  db: CoreDatabase
  transport: MailTransport
  now?: () => Date
  /** How long a claimed message stays reserved for this worker without a renewal. */
  leaseMs?: number
  /** How often the lease of a message being sent is renewed (real time; default a third of the lease). */
  renewEveryMs?: number
  log?: (line: string) => void
  /** Asked before each message; delivery stops when it answers false. */
  shouldContinue?: () => boolean
  /** How many messages are sent at a time: by default one per pooled SMTP connection. */
  concurrency?: number
  /** Asked before each message: how many of the `concurrency` lanes may send now (default all); the others wait. */
  lanesAllowed?: () => number
}

export interface DeliveryReport {
  sent: number
  retrying: number
  failed: number
}

interface ClaimedMessage {
  row: OutboxMessageRow
  leaseToken: string
}

async function claimNextMessage(db: CoreDatabase, transport: MailTransport, now: Date, leaseMs: number): Promise<ClaimedMessage | undefined> {
  const nowIso = now.toISOString()
  const lockedUntil = new Date(now.getTime() + leaseMs).toISOString()
  const leaseToken = newId()
  // One UPDATE … RETURNING is an atomic claim. SQLite runs one writer at a time, and through writeStatement the claim
  // shares its commit with whatever else is being written. On PostgreSQL, SKIP LOCKED lets each instance take a
  // different row, and the lease keeps it taken once the statement has committed. The claim records the message as
  // `sending` under its Message-ID before anything speaks to SMTP: from here on, a worker that dies or loses its
  // database leaves it `sending`, and it is settled (settleInterruptedSends), never sent again blindly.
  const claimed = await db.writeStatement((queries) =>
    queries
      .updateTable('outbox_messages')
      .set({
        status: 'sending',
        message_id: outboxMessageIdSql(transport.messageIdDomain),
        locked_until: lockedUntil,
        lease_token: leaseToken,
        attempts: sql<number>`attempts + 1`,
      })
      .where('id', '=', (eb) => {
        const due = eb
          .selectFrom('outbox_messages')
          .select('id')
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', nowIso)
          .where((inner) => inner.or([inner('locked_until', 'is', null), inner('locked_until', '<=', nowIso)]))
          .orderBy('next_attempt_at')
          .limit(1)
        return db.dialect === 'postgres' ? due.forUpdate().skipLocked() : due
      })
      .returningAll()
      .executeTakeFirst(),
  )
  return claimed ? { row: claimed, leaseToken } : undefined
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000)
}

/** What was done with a message found `sending` after its worker stopped answering. */
type Settled = 'sent' | 'pending' | 'uncertain'

/**
 * Settles the messages left `sending` by a worker that stopped answering (it died, or lost the database, between
 * claiming a message and recording how sending it went), once their lease has run out: a transport that keeps what it
 * delivered says whether each went out (`sent`) or not (`pending`, sent at the next round); otherwise nobody can
 * tell, and the message becomes `uncertain` for staff to decide. Such a message is never sent again by itself.
 */
async function settleInterruptedSends(db: CoreDatabase, transport: MailTransport, now: Date, log: (line: string) => void): Promise<void> {
  const nowIso = now.toISOString()
  const interrupted = await db.kysely
    .selectFrom('outbox_messages')
    .select(['id', 'topic', 'mail', 'source_id', 'lease_token'])
    .where('status', '=', 'sending')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', nowIso)]))
    .execute()
  for (const row of interrupted) {
    const delivered = await transport.delivered?.(row.id)
    const settled: Settled = delivered === undefined ? 'uncertain' : delivered ? 'sent' : 'pending'
    // What it was, as far as its stored e-mail still says (a registration's data may have been erased since).
    const sentRecord = settled === 'sent' ? await storedMailOf(db, row).then(sentRecordOf, () => ({})) : {}
    const changed = await db.writeStatement((queries) => {
      const update = queries.updateTable('outbox_messages')
      const released = { status: settled, locked_until: null, lease_token: null }
      const statement =
        settled === 'sent'
          ? update.set({ ...released, sent_at: nowIso, last_error: null, ...sentRecord })
          : settled === 'pending'
            ? update.set({ ...released, next_attempt_at: nowIso })
            : update.set({ ...released, last_error: UNCERTAIN_SEND })
      // Another instance may be settling the same message: the one whose statement finds it unchanged does it.
      const guarded = statement.where('id', '=', row.id).where('status', '=', 'sending')
      return (row.lease_token === null ? guarded.where('lease_token', 'is', null) : guarded.where('lease_token', '=', row.lease_token)).executeTakeFirst()
    })
    if (Number(changed.numUpdatedRows) === 0) continue
    log(
      settled === 'uncertain'
        ? `outbox: ${row.topic} message ${row.id} was being sent when its worker stopped answering; it is not sent again until staff say so`
        : `outbox: ${row.topic} message ${row.id} was being sent when its worker stopped answering; the mail files show it was ${settled === 'sent' ? 'sent' : 'not sent, so it goes out now'}`,
    )
  }
}

/** What an uncertain message's last error says. */
export const UNCERTAIN_SEND = 'Sending was interrupted (the worker stopped or lost the database): whether it arrived is not known'

/** Sends every message that is due now, several at a time, and records the outcome of each. */
export async function deliverDueMessages(options: DeliveryOptions): Promise<DeliveryReport> {
  const { db, transport } = options
  const now = options.now ?? (() => new Date())
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS
  const log = options.log ?? ((line: string) => console.error(line))
  const concurrency = options.concurrency ?? MAX_SMTP_CONNECTIONS
  const renewEveryMs = options.renewEveryMs ?? leaseMs / 3
  const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0 }

  async function renewLease({ row, leaseToken }: ClaimedMessage): Promise<void> {
    try {
      await db.writeStatement((queries) =>
        queries
          .updateTable('outbox_messages')
          .set({ locked_until: new Date(now().getTime() + leaseMs).toISOString() })
          .where('id', '=', row.id)
          .where('lease_token', '=', leaseToken)
          .execute(),
      )
    } catch (error) {
      // The send goes on; if the database stays away past the lease, another worker finds the message still
      // `sending` and settles it (settleInterruptedSends) rather than sending it again.
      log(`outbox: could not renew the lease of ${row.topic} message ${row.id}: ${describe(error)}`)
    }
  }

  // While a message is being sent its lease is renewed, so a slow SMTP answer is not mistaken for a dead worker.
  async function deliver(claimed: ClaimedMessage): Promise<void> {
    let renewing = Promise.resolve()
    const heartbeat = setInterval(() => {
      renewing = renewing.then(() => renewLease(claimed))
    }, renewEveryMs)
    heartbeat.unref()
    try {
      await send(claimed)
    } finally {
      clearInterval(heartbeat)
      await renewing
    }
  }

  async function recordSent(row: OutboxMessageRow, leaseToken: string, mail: OutgoingMail): Promise<void> {
    await db.writeStatement((queries) =>
      queries
        .updateTable('outbox_messages')
        .set({ status: 'sent', sent_at: now().toISOString(), locked_until: null, lease_token: null, last_error: null, ...sentRecordOf(mail) })
        .where('id', '=', row.id)
        .where('lease_token', '=', leaseToken)
        .execute(),
    )
  }

  async function send({ row, leaseToken }: ClaimedMessage): Promise<void> {
    let mail: OutgoingMail | undefined
    let handedOver = false
    try {
      // Messages and invoice PDFs are rendered here, outside the transaction that queued the message.
      mail = await outgoingMailOf(db, row)
      await transport.send(mail, row.id)
      handedOver = true
      await recordSent(row, leaseToken, mail)
      report.sent++
    } catch (error) {
      if (handedOver && mail) {
        // SMTP took it; only its record failed (a lost database connection). One more try on a fresh connection;
        // failing that it stays `sending` and is settled once its lease runs out.
        report.sent++
        try {
          await recordSent(row, leaseToken, mail)
        } catch (again) {
          log(`outbox: sent ${row.topic} message ${row.id} but could not record it (it will not be sent again): ${describe(again)}`)
        }
        return
      }
      // Rendering failed, or SMTP refused or could not be reached: the message did not go out, and is retried. (Should
      // this record fail too, it stays `sending` and becomes uncertain: never sent twice, at worst asked about.)
      const failedAt = now()
      const givingUp = failedAt.getTime() - new Date(row.created_at).getTime() >= GIVE_UP_AFTER_MS
      await db.writeStatement((queries) =>
        queries
          .updateTable('outbox_messages')
          .set({
            status: givingUp ? 'failed' : 'pending',
            next_attempt_at: new Date(failedAt.getTime() + retryDelayMs(row.attempts)).toISOString(),
            locked_until: null,
            lease_token: null,
            last_error: describe(error),
          })
          .where('id', '=', row.id)
          .where('lease_token', '=', leaseToken)
          .execute(),
      )
      if (givingUp) report.failed++
      else report.retrying++
      log(`outbox: ${givingUp ? 'gave up on' : 'will retry'} ${row.topic} message ${row.id} (attempt ${row.attempts}): ${describe(error)}`)
    }
  }

  const shouldContinue = () => options.shouldContinue?.() ?? true
  let drained = false
  // A lane beyond those allowed waits for its turn, until the others find nothing left to send; the first lane
  // always sends.
  async function turn(index: number): Promise<void> {
    while (index > 0 && index >= (options.lanesAllowed?.() ?? concurrency) && !drained && shouldContinue()) {
      await new Promise((resolve) => setTimeout(resolve, LANE_RECHECK_MS))
    }
  }

  // Each lane claims and sends one message after another, so a slow SMTP answer holds up one lane, not the queue.
  async function lane(index: number): Promise<void> {
    while (shouldContinue()) {
      await turn(index)
      if (!shouldContinue()) return
      const claimed = await claimNextMessage(db, transport, now(), leaseMs)
      if (!claimed) {
        drained = true
        return
      }
      await deliver(claimed)
    }
  }

  await settleInterruptedSends(db, transport, now(), log)
  // Every lane is waited for, also when one fails, so no message is still being sent once this returns.
  const lanes = await Promise.allSettled(Array.from({ length: concurrency }, (_, index) => lane(index)))
  const failure = lanes.find((outcome) => outcome.status === 'rejected')
  if (failure) throw failure.reason
  return report
}

export interface OutboxWorkerOptions extends Omit<DeliveryOptions, 'shouldContinue'> {
  /** How often to look for due messages. */
  pollIntervalMs?: number
  /** The longest wait between rounds while rounds keep failing (the database is unreachable); default 30 s. */
  maxFailureBackoffMs?: number
}

export interface OutboxWorker {
  /** Looks for due messages now instead of at the next poll. */
  wake(): void
  /** Stops polling; resolves once the messages being sent (if any) are finished and recorded. */
  stop(): Promise<void>
}

/**
 * Starts delivering outbox messages in the background, polling every pollIntervalMs (default 1 s). While rounds
 * fail (the database is unreachable), the wait doubles up to maxFailureBackoffMs, so an outage costs a log line
 * every 30 s per instance rather than every second.
 */
export function startOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const pollIntervalMs = options.pollIntervalMs ?? 1000
  const maxFailureBackoffMs = options.maxFailureBackoffMs ?? 30_000
  const log = options.log ?? ((line: string) => console.error(line))
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  let wokenWhileRunning = false
  let failedRounds = 0
  let lastWakeAt = -Infinity

  function nextRoundDelayMs(): number {
    return failedRounds === 0 ? pollIntervalMs : Math.min(pollIntervalMs * 2 ** failedRounds, maxFailureBackoffMs)
  }

  function schedule(delayMs: number): void {
    if (stopped) return
    clearTimeout(timer)
    timer = setTimeout(run, delayMs)
    timer.unref()
  }

  function run(): void {
    if (stopped) return
    if (running) {
      wokenWhileRunning = true
      return
    }
    clearTimeout(timer)
    running = deliverDueMessages({
      ...options,
      shouldContinue: () => !stopped,
      lanesAllowed: () => (performance.now() - lastWakeAt < BUSY_AFTER_WAKE_MS ? 1 : (options.concurrency ?? MAX_SMTP_CONNECTIONS)),
    })
      .then(
        () => {
          if (failedRounds > 0) log(`outbox: delivery resumed after ${failedRounds} failed rounds`)
          failedRounds = 0
        },
        (error: unknown) => {
          failedRounds += 1
          log(`outbox: delivery round failed (${failedRounds} in a row, next in ${nextRoundDelayMs() / 1000} s): ${describe(error)}`)
        },
      )
      .finally(() => {
        running = undefined
        const again = wokenWhileRunning
        wokenWhileRunning = false
        schedule(again ? 0 : nextRoundDelayMs())
      })
  }

  schedule(0)
  return {
    wake() {
      lastWakeAt = performance.now()
      run()
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
