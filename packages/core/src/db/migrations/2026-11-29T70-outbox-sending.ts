import type { Kysely } from 'kysely'

// The Message-ID an e-mail is sent with, written with its `sending` status before the outbox speaks to SMTP, so a
// message found still `sending` (its worker died, or the record of its send was lost with the database connection)
// is recognised by the id it went out under rather than sent again; `uncertain` marks those nobody can settle, for
// staff to decide. Additive only: the previous release claims only `pending` messages and leaves these alone.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox_messages').addColumn('message_id', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox_messages').dropColumn('message_id').execute()
}
