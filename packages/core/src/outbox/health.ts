import type { CoreDatabase } from '../db/database.ts'

export interface OutboxHealth {
  /** E-mails waiting to be sent, including those waiting for a retry. */
  pending: number
  /** Seconds since the oldest waiting e-mail was written; 0 when none waits. */
  oldestPendingAgeSeconds: number
  /** E-mails given up on after failing for a day. */
  failed: number
  /** E-mails whose sending was interrupted, so whether they arrived is not known, until staff settle them. */
  uncertain: number
}

/** How far behind the outbox is: waiting (and being sent), failed and uncertain e-mails and the age of the oldest waiting one. */
export async function outboxHealth(db: CoreDatabase, now: Date = new Date()): Promise<OutboxHealth> {
  const rows = await db.kysely
    .selectFrom('outbox_messages')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('status', 'in', ['pending', 'sending', 'failed', 'uncertain'])
    .groupBy('status')
    .execute()
  const count = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0)
  // A message being sent has not been sent yet: it still counts as waiting.
  const oldest = rows
    .filter((row) => row.status === 'pending' || row.status === 'sending')
    .map((row) => row.oldest)
    .filter((at) => at !== null && at !== undefined)
    .sort()[0]
  const oldestPendingAgeSeconds = oldest ? Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000) : 0
  return { pending: count('pending') + count('sending'), oldestPendingAgeSeconds, failed: count('failed'), uncertain: count('uncertain') }
}
