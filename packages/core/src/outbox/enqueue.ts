import type { Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import { newId } from '../ids.ts'
import type { StoredMail } from './stored-mail.ts'

export interface QueuedMail {
  topic: string
  mail: StoredMail
}

/** Writes e-mails to the outbox inside the caller's transaction, due at once. */
export async function enqueueMails(
  transaction: Transaction<Database>,
  sourceId: string,
  mails: readonly QueuedMail[],
  now: Date,
): Promise<void> {
  if (mails.length === 0) return
  const createdAt = now.toISOString()
  await transaction
    .insertInto('outbox_messages')
    .values(
      mails.map(({ topic, mail }) => ({
        id: newId(),
        topic,
        source_id: sourceId,
        mail: JSON.stringify(mail),
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: createdAt,
        locked_until: null,
        lease_token: null,
        last_error: null,
        created_at: createdAt,
        sent_at: null,
      })),
    )
    .execute()
}
