import type { CoreDatabase } from '../db/database.ts'
import type { OutboxMessageRow } from '../db/tables/outbox-messages.ts'
import type { OutgoingMail } from '../mail/outgoing-mail.ts'
import { renderRegistrationMail, type RegistrationMailContext, type RegistrationMailJob } from '../mail/registration-mails.ts'

/** What an outbox row's `mail` column holds: a rendered e-mail, or a registration e-mail still to be rendered. */
export type StoredMail = OutgoingMail | RegistrationMailJob

/**
 * The e-mail an outbox row describes. A registration e-mail is rendered from its registration's stored context
 * (the row's source_id is the registration).
 */
export async function outgoingMailOf(db: CoreDatabase, row: Pick<OutboxMessageRow, 'mail' | 'source_id'>): Promise<OutgoingMail> {
  const stored = JSON.parse(row.mail) as StoredMail
  if (!('template' in stored)) return stored
  const data = await db.kysely
    .selectFrom('registration_mail_data')
    .select('context_json')
    .where('registration_id', '=', row.source_id)
    .executeTakeFirst()
  if (!data) throw new Error(`Registration ${row.source_id} has no stored mail data`)
  return renderRegistrationMail(stored, JSON.parse(data.context_json) as RegistrationMailContext)
}
