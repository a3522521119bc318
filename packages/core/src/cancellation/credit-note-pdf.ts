import { formatRand } from '@events/pricing'
import PDFDocument from 'pdfkit'
import type { InvoiceParty } from '../invoice/tax-invoice-pdf.ts'
import { vatPercentage } from '../invoice/tax-invoice-pdf.ts'
import { documentBytes, registerDejaVuFonts } from '../pdf/fonts.ts'

/** Everything printed on a credit note; amounts in cents, dates as display text. */
export interface CreditNoteData {
  number: string
  issueDate: string
  reference: string
  /** The tax invoice credited: its number and date of issue. */
  invoiceNumber: string
  invoiceDate: string
  supplier: InvoiceParty & { contact: string }
  recipient: InvoiceParty
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

const REGULAR = 'CreditNote-Regular'
const BOLD = 'CreditNote-Bold'
const PAGE_MARGIN = 50
const TEXT_COLOUR = '#1a1a1a'
const MUTED_COLOUR = '#555555'
const RULE_COLOUR = '#999999'

/**
 * Renders a credit note (SARS: the words "Credit Note", supplier and recipient with VAT numbers, its serial number
 * and date, the tax invoice it refers to with that invoice's number and date, why it is issued, and the amounts
 * credited excl. VAT, VAT and incl. VAT) in the tax invoice's layout and fonts.
 */
export async function renderCreditNotePdf(note: CreditNoteData): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE_MARGIN,
    info: {
      Title: `Credit Note ${note.number}`,
      Author: note.supplier.name,
      Subject: `Credit Note ${note.number} against Tax Invoice ${note.invoiceNumber} for registration ${note.reference}`,
      CreationDate: note.issuedAt,
      ModDate: note.issuedAt,
    },
  })
  registerDejaVuFonts(doc, { regular: REGULAR, bold: BOLD })
  const finished = documentBytes(doc)

  const left = PAGE_MARGIN
  const contentWidth = doc.page.width - PAGE_MARGIN * 2
  const right = left + contentWidth
  doc.fillColor(TEXT_COLOUR)

  doc.font(BOLD).fontSize(22).text('Credit Note', left, PAGE_MARGIN)
  const top = doc.y + 10

  doc.font(BOLD).fontSize(11).text(note.supplier.name, left, top, { width: contentWidth / 2 })
  doc.font(REGULAR).fontSize(9)
  for (const line of note.supplier.addressLines) doc.text(line, { width: contentWidth / 2 })
  doc.text(`VAT number: ${note.supplier.vatNumber}`, { width: contentWidth / 2 })
  if (note.supplier.contact) doc.fillColor(MUTED_COLOUR).text(note.supplier.contact, { width: contentWidth / 2 }).fillColor(TEXT_COLOUR)
  const supplierBottom = doc.y

  const facts: Array<[string, string]> = [
    ['Credit note number', note.number],
    ['Date of issue', note.issueDate],
    ['Tax invoice credited', note.invoiceNumber],
    ['Tax invoice date', note.invoiceDate],
    ['Registration reference', note.reference],
  ]
  const factsX = left + contentWidth / 2 + 20
  const factsWidth = contentWidth / 2 - 20
  doc.y = top
  for (const [label, value] of facts) {
    const y = doc.y
    doc.font(REGULAR).fontSize(9).text(`${label}:`, factsX, y, { width: factsWidth / 2 })
    doc.font(BOLD).text(value, factsX + factsWidth / 2, y, { width: factsWidth / 2, align: 'right' })
    doc.moveDown(0.2)
  }

  doc.y = Math.max(supplierBottom, doc.y) + 20
  doc.font(BOLD).fontSize(10).text('Credited to', left)
  doc.font(BOLD).fontSize(10).text(note.recipient.name, left)
  doc.font(REGULAR).fontSize(9)
  for (const line of note.recipient.addressLines) doc.text(line, left)
  doc.text(`VAT number: ${note.recipient.vatNumber}`, left)
  doc.moveDown(1.5)

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
