import { venueLabel } from '@events/content/venue'
import { isOptionKey, isTableOption, type Quote } from '@events/pricing'
import type { Transaction } from 'kysely'
import type { RegistrationEvent, SiteSettingsForMail } from '../catalog.ts'
import type { CoreDatabase, Database, SqlDialectName } from '../db/database.ts'
import { newId } from '../ids.ts'
import { formatDate, formatEventDates } from '../mail/dates.ts'
import type { MailAttachment, OutgoingMail } from '../mail/outgoing-mail.ts'
import type { RegistrationSubmission } from '../submissions/registration.ts'
import { renderStoredCreditNote } from '../cancellation/credit-note.ts'
import { registerAttachmentKind } from '../outbox/attachments.ts'
import { formatInvoiceNumber, insertNumberedInvoice, type AlongsideWrite } from './invoice-number.ts'
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
  /**
   * The discount code the registration used: the invoice shows the full price (unitAmountCents is then the full unit
   * price) and the discount as its own line; `quote` is the discounted one, VAT on the discounted amount.
   */
  discount?: { description: string; fullSubtotalCents: number; discountCents: number } | undefined
}

/** What a tax invoice says, all but its number, which it only gets as the last write of its transaction. */
export type UnnumberedTaxInvoiceData = Omit<TaxInvoiceData, 'number'>

/** A registration's tax invoice, ready to be issued (issueTaxInvoice). */
export interface PreparedTaxInvoice {
  id: string
  registrationId: string
  data: UnnumberedTaxInvoiceData
}

const DAY_MS = 24 * 60 * 60 * 1000

export function nonEmptyLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
}

/** The organiser as the supplier on its documents: name, addresses, VAT number and how to reach it. */
export function supplierOf(settings: SiteSettingsForMail): TaxInvoiceData['supplier'] {
  return {
    name: settings.siteName,
    addressLines: settings.addresses.flatMap(nonEmptyLines),
    vatNumber: settings.vatNumber,
    contact: [settings.email, settings.phones[0] ?? ''].filter((part) => part !== '').join(' · '),
  }
}

/** The one line of a registration's documents: the event and option, its dates, venue and delegates, priced. */
export function registrationLine(
  event: RegistrationEvent,
  supply: { optionKey: string; optionLabel: string; delegateCount: number; delegatesText: string; unitAmountCents: number; subtotalCents: number },
): TaxInvoiceData['lines'][number] {
  const venue = venueLabel(event.venue)
  return {
    description: `${event.title}: ${supply.optionLabel}`,
    details: [formatEventDates(event.start, event.end), venue, supply.delegatesText].filter((detail) => detail !== ''),
    quantity: isOptionKey(supply.optionKey) && isTableOption(supply.optionKey) ? 1 : supply.delegateCount,
    unitAmountCents: supply.unitAmountCents,
    amountCents: supply.subtotalCents,
  }
}

/** A discount as its own line of a registration's documents: per delegate (or per table), negative. */
export function discountLine(description: string, optionKey: string, delegateCount: number, discountCents: number): TaxInvoiceData['lines'][number] {
  const quantity = isOptionKey(optionKey) && isTableOption(optionKey) ? 1 : delegateCount
  return { description, details: [], quantity, unitAmountCents: -discountCents / quantity, amountCents: -discountCents }
}

function discountLines({ discount, submission }: InvoiceSubject): TaxInvoiceData['lines'] {
  return discount ? [discountLine(discount.description, submission.attendanceOption, submission.delegates.length, discount.discountCents)] : []
}

/** What the tax invoice of a registration says, but for its number. */
function taxInvoiceData(subject: InvoiceSubject): UnnumberedTaxInvoiceData {
  const { event, settings, submission, quote } = subject
  const delegates = submission.delegates.map((delegate) => delegate.name).join(', ')
  return {
    issueDate: formatDate(subject.issuedAt),
    // South Africa keeps no daylight saving time, so a day there is always 24 hours.
    dueDate: formatDate(new Date(subject.issuedAt.getTime() + settings.paymentTermsDays * DAY_MS)),
    reference: subject.reference,
    purchaseOrderNumber: submission.purchaseOrderNumber,
    supplier: supplierOf(settings),
    recipient: { name: submission.companyName, addressLines: nonEmptyLines(submission.address), vatNumber: submission.vatNumber },
    lines: [
      registrationLine(event, {
        optionKey: submission.attendanceOption,
        optionLabel: subject.optionLabel,
        delegateCount: submission.delegates.length,
        delegatesText: `${submission.delegates.length === 1 ? 'Delegate' : `${submission.delegates.length} delegates`}: ${delegates}`,
        unitAmountCents: subject.unitAmountCents,
        subtotalCents: subject.discount?.fullSubtotalCents ?? quote.subtotalCents,
      }),
      ...discountLines(subject),
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

/** Everything a registration's tax invoice says but its number, worked out before the registration's transaction writes. */
export function prepareTaxInvoice(subject: InvoiceSubject): PreparedTaxInvoice {
  return { id: newId(), registrationId: subject.registrationId, data: taxInvoiceData(subject) }
}

/**
 * Stores the invoice under the next tax invoice number, after the `alongside` writes; must be the last write of the
 * registration's transaction (insertNumberedInvoice says why). The PDF is rendered later, outside it (renderStoredInvoice).
 */
export async function issueTaxInvoice(
  transaction: Transaction<Database>,
  dialect: SqlDialectName,
  invoice: PreparedTaxInvoice,
  alongside: ReadonlyArray<AlongsideWrite> = [],
): Promise<void> {
  await insertNumberedInvoice(
    transaction,
    dialect,
    {
      id: invoice.id,
      registration_id: invoice.registrationId,
      issued_at: invoice.data.issuedAt.toISOString(),
      pdf_base64: '',
      data_json: JSON.stringify(invoice.data),
    },
    alongside,
  )
}

/**
 * What a stored invoice says, its number read from the row: `data_json` is stored before the number is taken (and
 * invoices stored before that change carry the same number in it).
 */
export function storedTaxInvoiceData(invoice: { number: number; data_json: string }): TaxInvoiceData {
  const data = JSON.parse(invoice.data_json) as Omit<UnnumberedTaxInvoiceData, 'issuedAt'> & { issuedAt: string }
  return { ...data, number: formatInvoiceNumber(Number(invoice.number)), issuedAt: new Date(data.issuedAt) }
}

/** The PDF of a stored invoice: rendered from what it says on first use, then kept so it never changes. */
export async function renderStoredInvoice(db: CoreDatabase, invoiceId: string): Promise<Buffer | undefined> {
  const invoice = await db.kysely.selectFrom('invoices').select(['number', 'pdf_base64', 'data_json']).where('id', '=', invoiceId).executeTakeFirst()
  if (!invoice) return undefined
  if (invoice.pdf_base64 !== '') return Buffer.from(invoice.pdf_base64, 'base64')
  if (invoice.data_json === null) throw new Error(`Invoice ${invoiceId} has neither a PDF nor its data`)
  const pdf = await renderTaxInvoicePdf(storedTaxInvoiceData({ number: invoice.number, data_json: invoice.data_json }))
  // The same data renders the same bytes, so a concurrent first render that stored first is just as good.
  await db.kysely
    .updateTable('invoices')
    .set({ pdf_base64: pdf.toString('base64') })
    .where('id', '=', invoiceId)
    .where('pdf_base64', '=', '')
    .execute()
  return pdf
}

/** The file name of an invoice download or attachment. */
export function invoiceFilename(invoiceNumber: string): string {
  return `tax-invoice-${invoiceNumber}.pdf`
}

/** The invoice as an e-mail attachment, its PDF filled in when the message is sent. */
export function invoiceAttachment(invoice: { id: string; number: string }): MailAttachment {
  return { filename: invoiceFilename(invoice.number), contentType: 'application/pdf', content: '', encoding: 'base64', invoiceId: invoice.id }
}

/** Fills in the PDF of every stored-invoice and stored-credit-note attachment of a message about to be sent. */
async function withRenderedInvoices(db: CoreDatabase, mail: OutgoingMail): Promise<OutgoingMail> {
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

registerAttachmentKind('tax invoice and credit note', withRenderedInvoices)
