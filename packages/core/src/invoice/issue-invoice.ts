import { isTableOption, type Quote } from '@events/pricing'
import type { Transaction } from 'kysely'
import type { RegistrationEvent, SiteSettingsForMail } from '../catalog.ts'
import type { CoreDatabase, Database } from '../db/database.ts'
import { newId } from '../ids.ts'
import { formatDate, formatEventDates } from '../mail/dates.ts'
import type { MailAttachment, OutgoingMail } from '../mail/outgoing-mail.ts'
import type { RegistrationSubmission } from '../submissions/registration.ts'
import { renderStoredCreditNote } from '../cancellation/credit-note.ts'
import { formatInvoiceNumber, nextInvoiceNumber } from './invoice-number.ts'
import { renderTaxInvoicePdf, type TaxInvoiceData } from './tax-invoice-pdf.ts'

export interface InvoiceSubject {
  registrationId: string
  reference: string
  event: RegistrationEvent
  settings: SiteSettingsForMail
  submission: RegistrationSubmission
  optionLabel: string
  unitAmountCents: number
  quote: Quote
  issuedAt: Date
}

export interface IssuedInvoice {
  id: string
  number: string
  issueDate: string
  dueDate: string
}

const DAY_MS = 24 * 60 * 60 * 1000

function nonEmptyLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
}

/** What the tax invoice of a registration says, without its number-dependent storage. */
function taxInvoiceData(subject: InvoiceSubject, number: string): TaxInvoiceData {
  const { event, settings, submission, quote } = subject
  const table = isTableOption(submission.attendanceOption)
  const delegates = submission.delegates.map((delegate) => delegate.name).join(', ')
  const venue = [event.venue.name, event.venue.address ?? ''].filter((part) => part.trim() !== '').join(', ')
  return {
    number,
    issueDate: formatDate(subject.issuedAt),
    // South Africa keeps no daylight saving time, so a day there is always 24 hours.
    dueDate: formatDate(new Date(subject.issuedAt.getTime() + settings.paymentTermsDays * DAY_MS)),
    reference: subject.reference,
    supplier: {
      name: settings.siteName,
      addressLines: settings.addresses.flatMap(nonEmptyLines),
      vatNumber: settings.vatNumber,
      contact: [settings.email, settings.phones[0] ?? ''].filter((part) => part !== '').join(' · '),
    },
    recipient: { name: submission.companyName, addressLines: nonEmptyLines(submission.address), vatNumber: submission.vatNumber },
    lines: [
      {
        description: `${event.title}: ${subject.optionLabel}`,
        details: [
          formatEventDates(event.start, event.end),
          venue,
          `${submission.delegates.length === 1 ? 'Delegate' : `${submission.delegates.length} delegates`}: ${delegates}`,
        ].filter((detail) => detail !== ''),
        quantity: table ? 1 : submission.delegates.length,
        unitAmountCents: subject.unitAmountCents,
        amountCents: quote.subtotalCents,
      },
    ],
    subtotalCents: quote.subtotalCents,
    vatRate: quote.vatRate,
    vatCents: quote.vatCents,
    totalCents: quote.totalCents,
    paymentTermsDays: settings.paymentTermsDays,
    bankDetails: settings.bankDetails,
    issuedAt: subject.issuedAt,
  }
}

/**
 * Issues the next tax invoice number for a registration and stores what the invoice says, inside the registration's
 * transaction; the PDF is rendered later, outside it (renderStoredInvoice), so the transaction stays short.
 */
export async function issueTaxInvoice(transaction: Transaction<Database>, subject: InvoiceSubject): Promise<IssuedInvoice> {
  const number = await nextInvoiceNumber(transaction)
  const data = taxInvoiceData(subject, formatInvoiceNumber(number))
  const id = newId()
  await transaction
    .insertInto('invoices')
    .values({
      id,
      registration_id: subject.registrationId,
      number,
      issued_at: subject.issuedAt.toISOString(),
      pdf_base64: '',
      data_json: JSON.stringify(data),
    })
    .execute()
  return { id, number: data.number, issueDate: data.issueDate, dueDate: data.dueDate }
}

/** The PDF of a stored invoice: rendered from what it says on first use, then kept so it never changes. */
export async function renderStoredInvoice(db: CoreDatabase, invoiceId: string): Promise<Buffer | undefined> {
  const invoice = await db.kysely.selectFrom('invoices').select(['pdf_base64', 'data_json']).where('id', '=', invoiceId).executeTakeFirst()
  if (!invoice) return undefined
  if (invoice.pdf_base64 !== '') return Buffer.from(invoice.pdf_base64, 'base64')
  if (invoice.data_json === null) throw new Error(`Invoice ${invoiceId} has neither a PDF nor its data`)
  const data = JSON.parse(invoice.data_json) as Omit<TaxInvoiceData, 'issuedAt'> & { issuedAt: string }
  const pdf = await renderTaxInvoicePdf({ ...data, issuedAt: new Date(data.issuedAt) })
  // The same data renders the same bytes, so a concurrent first render that stored first is just as good.
  await db.kysely.updateTable('invoices').set({ pdf_base64: pdf.toString('base64') }).where('id', '=', invoiceId).where('pdf_base64', '=', '').execute()
  return pdf
}

/** The file name of an invoice download or attachment. */
export function invoiceFilename(invoiceNumber: string): string {
  return `tax-invoice-${invoiceNumber}.pdf`
}

/** The invoice as an e-mail attachment, its PDF filled in when the message is sent. */
export function invoiceAttachment(invoice: Pick<IssuedInvoice, 'id' | 'number'>): MailAttachment {
  return { filename: invoiceFilename(invoice.number), contentType: 'application/pdf', content: '', encoding: 'base64', invoiceId: invoice.id }
}

/** Fills in the PDF of every stored-invoice and stored-credit-note attachment of a message about to be sent. */
export async function withRenderedInvoices(db: CoreDatabase, mail: OutgoingMail): Promise<OutgoingMail> {
  if (!mail.attachments?.some((attachment) => attachment.invoiceId || attachment.creditNoteId)) return mail
  const attachments = await Promise.all(
    mail.attachments.map(async ({ invoiceId, creditNoteId, ...attachment }) => {
      if (!invoiceId && !creditNoteId) return attachment
      const pdf = invoiceId ? await renderStoredInvoice(db, invoiceId) : await renderStoredCreditNote(db, creditNoteId!)
      if (!pdf) throw new Error(`${invoiceId ? `Invoice ${invoiceId}` : `Credit note ${creditNoteId}`} of an outgoing message does not exist`)
      return { ...attachment, content: pdf.toString('base64'), encoding: 'base64' as const }
    }),
  )
  return { ...mail, attachments }
}
