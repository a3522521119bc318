import type { CoreDatabase } from '../db/database.ts'
import type { OutboxMessageRow } from '../db/tables/outbox-messages.ts'
import { invoiceAttachment, storedTaxInvoiceData } from '../invoice/issue-invoice.ts'
import { formatInvoiceNumber } from '../invoice/invoice-number.ts'
import type { OutgoingMail } from '../mail/outgoing-mail.ts'
import { renderRegistrationMail, type RegistrationMailJob, type StoredRegistrationMailContext } from '../mail/registration-mails.ts'
import { withRenderedAttachments } from './attachments.ts'

/** What an outbox row's `mail` column holds: a rendered e-mail, or a registration e-mail still to be rendered. */
export type StoredMail = OutgoingMail | RegistrationMailJob

/**
 * The e-mail an outbox row describes, its attachments drawn (withRenderedAttachments). A registration e-mail is
 * rendered from its registration's stored context (the row's source_id is the registration) and its tax invoice's
 * number, which the context does not hold.
 */
export async function outgoingMailOf(db: CoreDatabase, row: Pick<OutboxMessageRow, 'mail' | 'source_id'>): Promise<OutgoingMail> {
  return withRenderedAttachments(db, await storedMailOf(db, row))
}

/** The e-mail an outbox row describes with its attachments named, not drawn: enough to show whom it goes to and what it attaches. */
export async function storedMailOf(db: CoreDatabase, row: Pick<OutboxMessageRow, 'mail' | 'source_id'>): Promise<OutgoingMail> {
  const stored = JSON.parse(row.mail) as StoredMail
  if (!('template' in stored)) return stored
  const data = await db.kysely
    .selectFrom('registration_mail_data')
    .leftJoin('invoices', 'invoices.registration_id', 'registration_mail_data.registration_id')
    .select(['registration_mail_data.context_json', 'invoices.id as invoice_id', 'invoices.number as invoice_number', 'invoices.data_json as invoice_data'])
    .where('registration_mail_data.registration_id', '=', row.source_id)
    // Its current tax invoice: the one that replaced a corrected invoice (correctInvoice), which the context predates.
    .orderBy('invoices.number', 'desc')
    .executeTakeFirst()
  if (!data) throw new Error(`Registration ${row.source_id} has no stored mail data`)
  if (data.invoice_id === null || data.invoice_number === null) throw new Error(`Registration ${row.source_id} has no tax invoice`)
  const context = JSON.parse(data.context_json) as StoredRegistrationMailContext
  const number = formatInvoiceNumber(Number(data.invoice_number))
  const { issueDate, dueDate } =
    data.invoice_data === null ? context.invoice : storedTaxInvoiceData({ number: data.invoice_number, data_json: data.invoice_data })
  return renderRegistrationMail(stored, {
    ...context,
    invoice: { issueDate, dueDate, number, attachment: invoiceAttachment({ id: data.invoice_id, number }) },
  })
}

/** What an e-mail was when the outbox delivered it: its recipients, subject and attachments' file names. */
export interface SentMailRecord {
  to: string[]
  subject: string
  attachments: string[]
}

/** The columns that keep what a delivered e-mail was, written with its `sent` status and never changed after. */
export function sentRecordOf(mail: OutgoingMail): Pick<OutboxMessageRow, 'sent_to' | 'sent_subject' | 'sent_attachments'> {
  return {
    sent_to: JSON.stringify(mail.to),
    sent_subject: mail.subject,
    sent_attachments: JSON.stringify(attachedFileNames(mail)),
  }
}

/** The names of the files an e-mail attaches; the images its HTML shows inline (a pass's QR code) are not files to open. */
export function attachedFileNames(mail: OutgoingMail): string[] {
  return (mail.attachments ?? []).filter((attachment) => !attachment.contentId).map((attachment) => attachment.filename)
}

/** What an outbox row recorded when it was sent; undefined before it is sent, or when sent before this was kept. */
export function sentMailRecordOf(row: Pick<OutboxMessageRow, 'sent_to' | 'sent_subject' | 'sent_attachments'>): SentMailRecord | undefined {
  if (row.sent_to === null || row.sent_subject === null) return undefined
  return { to: JSON.parse(row.sent_to) as string[], subject: row.sent_subject, attachments: JSON.parse(row.sent_attachments ?? '[]') as string[] }
}
