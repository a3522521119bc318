import type { Transaction } from 'kysely'
import type { CoreDatabase, Database } from '../db/database.ts'
import { formatSeriesNumber, nextNumberInSeries } from '../invoice/invoice-number.ts'
import type { MailAttachment } from '../mail/outgoing-mail.ts'
import { normaliseReference } from '../registration/reference.ts'
import { renderCreditNotePdf, type CreditNoteData } from './credit-note-pdf.ts'

const CREDIT_NOTE_SERIES = 'credit-note'

/**
 * Takes the next credit note number inside the caller's transaction, from the same counter table as tax invoices in
 * a series of its own, so the series has no gaps and no duplicates.
 */
export function nextCreditNoteNumber(transaction: Transaction<Database>): Promise<number> {
  return nextNumberInSeries(transaction, CREDIT_NOTE_SERIES)
}

/** The credit note number as printed: "CN-000042". */
export function formatCreditNoteNumber(number: number): string {
  return formatSeriesNumber('CN', number)
}

/** The file name of a credit note download or attachment. */
function creditNoteFilename(creditNoteNumber: string): string {
  return `credit-note-${creditNoteNumber}.pdf`
}

/** The PDF of a stored credit note: rendered from what it says on first use, then kept so it never changes. */
export async function renderStoredCreditNote(db: CoreDatabase, creditNoteId: string): Promise<Buffer | undefined> {
  const note = await db.kysely.selectFrom('credit_notes').select(['pdf_base64', 'data_json']).where('id', '=', creditNoteId).executeTakeFirst()
  if (!note) return undefined
  if (note.pdf_base64 !== '') return Buffer.from(note.pdf_base64, 'base64')
  const data = JSON.parse(note.data_json) as Omit<CreditNoteData, 'issuedAt'> & { issuedAt: string }
  const pdf = await renderCreditNotePdf({ ...data, issuedAt: new Date(data.issuedAt) })
  // The same data renders the same bytes, so a concurrent first render that stored first is just as good.
  await db.kysely
    .updateTable('credit_notes')
    .set({ pdf_base64: pdf.toString('base64') })
    .where('id', '=', creditNoteId)
    .where('pdf_base64', '=', '')
    .execute()
  return pdf
}

/** A stored credit note of a registration (by the registration's id and the credit note's printed number), as a download. */
export async function creditNoteDownload(
  db: CoreDatabase,
  registrationId: string,
  creditNoteNumber: string,
): Promise<{ filename: string; pdf: Buffer } | undefined> {
  const number = /^CN-(\d{6,})$/.exec(String(creditNoteNumber))
  if (!number) return undefined
  const note = await db.kysely
    .selectFrom('credit_notes')
    .select('id')
    .where('registration_id', '=', registrationId)
    .where('number', '=', Number(number[1]))
    .executeTakeFirst()
  const pdf = note ? await renderStoredCreditNote(db, note.id) : undefined
  return pdf ? { filename: creditNoteFilename(formatCreditNoteNumber(Number(number[1]))), pdf } : undefined
}

/** A registration's credit note for staff, by the registration's reference and the credit note's number. */
export async function creditNoteDownloadByReference(
  db: CoreDatabase,
  reference: string,
  creditNoteNumber: string,
): Promise<{ filename: string; pdf: Buffer } | undefined> {
  const registration = await db.kysely
    .selectFrom('registrations')
    .select('id')
    .where('reference', '=', normaliseReference(reference) ?? '')
    .executeTakeFirst()
  return registration ? creditNoteDownload(db, registration.id, creditNoteNumber) : undefined
}

/** The credit note as an e-mail attachment, its PDF filled in when the message is sent. */
export function creditNoteAttachment(creditNote: { id: string; number: string }): MailAttachment {
  return { filename: creditNoteFilename(creditNote.number), contentType: 'application/pdf', content: '', encoding: 'base64', creditNoteId: creditNote.id }
}
