import type { CoreDatabase } from '../db/database.ts'

export interface OutboxHealth {
  /** E-mails waiting to be sent, including those waiting for a retry. */
  pending: number
  /** Seconds since the oldest waiting e-mail was written; 0 when none waits. */
  oldestPendingAgeSeconds: number
  /** E-mails given up on after failing for a day. */
  failed: number
}

/** How far behind the outbox is: waiting and failed e-mails and the age of the oldest waiting one. */
export async function outboxHealth(db: CoreDatabase, now: Date = new Date()): Promise<OutboxHealth> {
  const rows = await db.kysely
    .selectFrom('outbox_messages')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('status', 'in', ['pending', 'failed'])
    .groupBy('status')
    .execute()
  const pending = rows.find((row) => row.status === 'pending')
  const failed = rows.find((row) => row.status === 'failed')
  const oldestPendingAgeSeconds = pending?.oldest ? Math.max(0, (now.getTime() - new Date(pending.oldest).getTime()) / 1000) : 0
  return { pending: Number(pending?.count ?? 0), oldestPendingAgeSeconds, failed: Number(failed?.count ?? 0) }
}
