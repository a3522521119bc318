import type { Selectable } from 'kysely'

/**
 * `pending` waits to be sent (or retried); `sending` is being handed to SMTP under its `message_id`; `sent` was
 * accepted; `failed` was given up on after a day; `uncertain` was found still `sending` after its worker stopped
 * answering, so whether it arrived is unknown and staff decide (never sent again without them).
 */
export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'uncertain'

/**
 * An e-mail waiting to be delivered, written in the same transaction as the record that caused it.
 * `mail` holds the JSON of a StoredMail (a rendered e-mail, or a template and its data); `lease_token` and `locked_until` mark the worker that holds it.
 */
export interface OutboxMessagesTable {
  id: string
  topic: string
  source_id: string
  mail: string
  status: OutboxStatus
  attempts: number
  next_attempt_at: string
  locked_until: string | null
  lease_token: string | null
  last_error: string | null
  created_at: string
  sent_at: string | null
  /** What was delivered, written when it was sent and never after: the recipients (JSON array of addresses), */
  sent_to: string | null
  /** the subject, */
  sent_subject: string | null
  /** and the attachments' file names (JSON array). Null until sent, and for e-mails sent before this was kept. */
  sent_attachments: string | null
  /** The Message-ID it is sent with, recorded with its `sending` status before SMTP is spoken to; null until then. */
  message_id: string | null
}

export type OutboxMessageRow = Selectable<OutboxMessagesTable>
