import type { Transaction } from 'kysely'
import type { CoreDatabase, Database } from '../db/database.ts'
import type { OutboxMessageRow } from '../db/tables/outbox-messages.ts'
import type { OutgoingMail } from '../mail/outgoing-mail.ts'
import { newId } from '../ids.ts'
import type { StoredMail } from './stored-mail.ts'

export interface QueuedMail {
  topic: string
  mail: StoredMail
}

/** The rows that queue e-mails in the outbox, due at `now`. */
export function outboxRowsOf(sourceId: string, mails: readonly QueuedMail[], now: Date): OutboxMessageRow[] {
  const createdAt = now.toISOString()
  return mails.map(({ topic, mail }) => ({
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
    sent_to: null,
    sent_subject: null,
    sent_attachments: null,
    message_id: null,
  }))
}

/** Writes e-mails to the outbox inside the caller's transaction, due at once; answers their ids. */
export async function enqueueMails(transaction: Transaction<Database>, sourceId: string, mails: readonly QueuedMail[], now: Date): Promise<string[]> {
  if (mails.length === 0) return []
  const rows = outboxRowsOf(sourceId, mails, now)
  await transaction.insertInto('outbox_messages').values(rows).execute()
  return rows.map((row) => row.id)
}

/** Queues one rendered staff e-mail (an invitation, a password reset) in a transaction of its own, due at once. */
export async function enqueueStaffMail(db: CoreDatabase, mail: OutgoingMail, options: { topic: string; sourceId: string; now: Date }): Promise<void> {
  await db.writeTransaction((transaction) => enqueueMails(transaction, options.sourceId, [{ topic: options.topic, mail }], options.now))
}
