import { formatRand } from '@events/pricing'
import { vatPercentage } from '../invoice/tax-invoice-pdf.ts'
import {
  BOLD,
  drawTaxDocumentHead,
  yourReferenceFact,
  MUTED_COLOUR,
  openTaxDocument,
  REGULAR,
  RULE_COLOUR,
  TEXT_COLOUR,
  type DocumentParty,
} from '../pdf/tax-document.ts'

/** Everything printed on a credit note; amounts in cents, dates as display text. */
export interface CreditNoteData {
  number: string
  issueDate: string
  reference: string
  /** The recipient's purchase order number, as on the invoice credited. */
  purchaseOrderNumber?: string
  /** The tax invoice credited: its number and date of issue. */
  invoiceNumber: string
  invoiceDate: string
  supplier: DocumentParty & { contact: string }
  recipient: DocumentParty
  /** What was cancelled and why the amounts are what they are, one line each. */
  description: string
  details: string[]
  creditedSubtotalCents: number
  vatRate: number
  creditedVatCents: number
  creditedTotalCents: number
  /** Set as the PDF's creation date so the same credit note always renders to the same bytes. */
  issuedAt: Date
}

/**
 * Renders a credit note (SARS: the words "Credit Note", supplier and recipient with VAT numbers, its serial number
 * and date, the tax invoice it refers to with that invoice's number and date, why it is issued, and the amounts
 * credited excl. VAT, VAT and incl. VAT) in the tax invoice's layout and fonts.
 */
export async function renderCreditNotePdf(note: CreditNoteData): Promise<Buffer> {
  const document = openTaxDocument({
    title: `Credit Note ${note.number}`,
    author: note.supplier.name,
    subject: `Credit Note ${note.number} against Tax Invoice ${note.invoiceNumber} for registration ${note.reference}`,
    issuedAt: note.issuedAt,
  })
  const { doc, finished, left, right, contentWidth } = document
  drawTaxDocumentHead(document, {
    title: 'Credit Note',
    supplier: note.supplier,
    facts: [
      ['Credit note number', note.number],
      ['Date of issue', note.issueDate],
      ['Tax invoice credited', note.invoiceNumber],
      ['Tax invoice date', note.invoiceDate],
      ['Registration reference', note.reference],
      ...yourReferenceFact(note.purchaseOrderNumber),
    ],
    recipientHeading: 'Credited to',
    recipient: note.recipient,
  })

  const descriptionWidth = contentWidth * 0.72
  const amountX = left + descriptionWidth
  const amountWidth = contentWidth - descriptionWidth
  let y = doc.y
  doc.font(BOLD).fontSize(9)
  doc.text('Description', left, y, { width: descriptionWidth })
  doc.text('Credited excl. VAT', amountX, y, { width: amountWidth, align: 'right' })
  y = doc.y + 4
  doc.moveTo(left, y).lineTo(right, y).strokeColor(RULE_COLOUR).stroke()
  y += 6
  doc.font(BOLD).fontSize(9).text(note.description, left, y, { width: descriptionWidth })
  const afterDescription = doc.y
  doc.font(REGULAR).text(formatRand(note.creditedSubtotalCents), amountX, y, { width: amountWidth, align: 'right' })
  doc.y = afterDescription
  doc.fillColor(MUTED_COLOUR).fontSize(8.5)
  for (const detail of note.details) doc.text(detail, left, doc.y, { width: descriptionWidth })
  doc.fillColor(TEXT_COLOUR)
  y = doc.y + 6
  doc.moveTo(left, y).lineTo(right, y).strokeColor(RULE_COLOUR).stroke()
  y += 8

  const totals: Array<[string, string, boolean]> = [
    ['Credited excl. VAT', formatRand(note.creditedSubtotalCents), false],
    [`VAT at ${vatPercentage(note.vatRate)}`, formatRand(note.creditedVatCents), false],
    ['Credited incl. VAT', formatRand(note.creditedTotalCents), true],
  ]
  for (const [label, value, bold] of totals) {
    doc.font(bold ? BOLD : REGULAR).fontSize(bold ? 10 : 9)
    doc.text(label, left, y, { width: descriptionWidth - 10, align: 'right' })
    doc.text(value, amountX, y, { width: amountWidth, align: 'right' })
    y = doc.y + 4
  }

  doc.end()
  return finished
}
