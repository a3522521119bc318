import { venueLabel } from '@events/content/venue'
import { isOptionKey, isTableOption, type AttendanceQuote, type Attendance } from '@events/pricing'
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
  /** The label of the option each kind of attendance is priced at. */
  optionLabels: Partial<Record<Attendance, string>>
  /** The price: a line per kind of attendance at its full price, the discount taken off, VAT on what remains. */
  quote: AttendanceQuote
  issuedAt: Date
  /** The discount code the registration used: its wording on the discount line after each line it took something off. */
  discount?: { description: string } | undefined
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

/** A kind of attendance's line of a booking's documents: the event and option, its dates, where, its delegates, priced in full. */
function registrationLine(
  event: RegistrationEvent,
  supply: {
    attendance: Attendance
    optionKey: string
    optionLabel: string
    delegateCount: number
    delegatesText: string
    unitAmountCents: number
    subtotalCents: number
  },
): TaxInvoiceData['lines'][number] {
  // Online delegates are not at the hotel: their line says so instead of giving its address.
  const where = supply.attendance === 'online' ? 'Online' : venueLabel(event.venue)
  return {
    description: `${event.title}: ${supply.optionLabel}`,
    details: [formatEventDates(event.start, event.end), where, supply.delegatesText].filter((detail) => detail !== ''),
    quantity: isOptionKey(supply.optionKey) && isTableOption(supply.optionKey) ? 1 : supply.delegateCount,
    unitAmountCents: supply.unitAmountCents,
    amountCents: supply.subtotalCents,
  }
}

/** A discount as its own line of a registration's documents: per delegate (or per table), negative. */
function discountLine(description: string, optionKey: string, delegateCount: number, discountCents: number): TaxInvoiceData['lines'][number] {
  const quantity = isOptionKey(optionKey) && isTableOption(optionKey) ? 1 : delegateCount
  return { description, details: [], quantity, unitAmountCents: -discountCents / quantity, amountCents: -discountCents }
}

/**
 * The lines of a booking's documents (tax invoice, quotation): one per kind of attendance ("Venue", 2 delegates;
 * "Online", 1 delegate) at its full price, each followed by the discount the code took off it, if any.
 */
export function bookingLines(
  event: RegistrationEvent,
  price: AttendanceQuote,
  optionLabels: Partial<Record<Attendance, string>>,
  delegatesText: (attendance: Attendance, delegateCount: number) => string,
  discountDescription: string | undefined,
): TaxInvoiceData['lines'] {
  return price.lines.flatMap((line) => [
    registrationLine(event, {
      attendance: line.attendance,
      optionKey: line.option.key,
      optionLabel: optionLabels[line.attendance] ?? line.option.key,
      delegateCount: line.delegates,
      delegatesText: delegatesText(line.attendance, line.delegates),
      unitAmountCents: line.option.amountCents,
      subtotalCents: line.fullSubtotalCents,
    }),
    ...(discountDescription !== undefined && line.discountCents > 0
      ? [discountLine(discountDescription, line.option.key, line.delegates, line.discountCents)]
      : []),
  ])
}

/** What the tax invoice of a registration says, but for its number. */
function taxInvoiceData(subject: InvoiceSubject): UnnumberedTaxInvoiceData {
  const { event, settings, submission, quote } = subject
  const delegatesText = (attendance: Attendance, count: number) => {
    const names = submission.delegates.filter((delegate) => delegate.attendance === attendance).map((delegate) => delegate.name)
    return `${count === 1 ? 'Delegate' : `${count} delegates`}: ${names.join(', ')}`
  }
  return {
    issueDate: formatDate(subject.issuedAt),
    // South Africa keeps no daylight saving time, so a day there is always 24 hours.
    dueDate: formatDate(new Date(subject.issuedAt.getTime() + settings.paymentTermsDays * DAY_MS)),
    reference: subject.reference,
    purchaseOrderNumber: submission.purchaseOrderNumber,
    supplier: supplierOf(settings),
    recipient: { name: submission.companyName, addressLines: nonEmptyLines(submission.address), vatNumber: submission.vatNumber },
    lines: bookingLines(event, quote, subject.optionLabels, delegatesText, subject.discount?.description),
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
