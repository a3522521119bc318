import type { OutgoingMail } from '../mail/outgoing-mail.ts'
import { renderRegistrationMail, type RegistrationMailJob } from '../mail/registration-mails.ts'

/** What an outbox row's `mail` column holds: a rendered e-mail, or a registration e-mail still to be rendered. */
export type StoredMail = OutgoingMail | RegistrationMailJob

/** The e-mail an outbox row's `mail` column describes, rendered when it was stored as a template and its data. */
export function outgoingMailOf(storedJson: string): OutgoingMail {
  const stored = JSON.parse(storedJson) as StoredMail
  return 'template' in stored ? renderRegistrationMail(stored) : stored
}
