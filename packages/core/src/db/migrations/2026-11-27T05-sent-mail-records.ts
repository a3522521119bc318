import { sql, type Kysely } from 'kysely'

// What an e-mail was when the outbox delivered it: its recipients, subject and attachments' names, kept so the back
// office lists what was sent, not what the registration's data would render today (a replaced delegate, a new address).
// An e-mail stored rendered and already sent is recorded from what it stored; one rendered from its registration
// when sent (a template) cannot be recovered and stays unrecorded.

interface SentRow {
  id: string
  mail: string
}

interface RenderedMail {
  to?: unknown
  subject?: unknown
  attachments?: Array<{ filename?: unknown }>
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox_messages').addColumn('sent_to', 'text').execute()
  await db.schema.alterTable('outbox_messages').addColumn('sent_subject', 'text').execute()
  await db.schema.alterTable('outbox_messages').addColumn('sent_attachments', 'text').execute()
  const { rows } = await sql<SentRow>`select id, mail from outbox_messages where status = 'sent'`.execute(db)
  for (const row of rows) {
    const mail = JSON.parse(row.mail) as RenderedMail & { template?: unknown }
    if ('template' in mail || !Array.isArray(mail.to) || typeof mail.subject !== 'string') continue
    const attachments = (mail.attachments ?? []).map((attachment) => String(attachment.filename))
    await sql`update outbox_messages set sent_to = ${JSON.stringify(mail.to)}, sent_subject = ${mail.subject}, sent_attachments = ${JSON.stringify(attachments)} where id = ${row.id}`.execute(
      db,
    )
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox_messages').dropColumn('sent_attachments').execute()
  await db.schema.alterTable('outbox_messages').dropColumn('sent_subject').execute()
  await db.schema.alterTable('outbox_messages').dropColumn('sent_to').execute()
}
