import { formatRand } from '@events/pricing'
import { bankDetailRows, type BankDetails } from '../catalog.ts'
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
  type TaxDocument,
} from '../pdf/tax-document.ts'

interface TaxInvoiceLine {
  description: string
  /** Further lines under the description: dates, venue, delegates. */
  details: string[]
  quantity: number
  unitAmountCents: number
  amountCents: number
}

/** Everything printed on a tax invoice; amounts in cents, dates as display text. */
export interface TaxInvoiceData {
  number: string
  issueDate: string
  dueDate: string
  reference: string
  /** The recipient's purchase order number; absent on invoices issued before there was one. */
  purchaseOrderNumber?: string
  supplier: DocumentParty & { contact: string }
  recipient: DocumentParty
  lines: TaxInvoiceLine[]
  subtotalCents: number
  vatRate: number
  vatCents: number
  totalCents: number
  paymentTermsDays: number
  bankDetails: BankDetails
  /** Set as the PDF's creation date so the same invoice always renders to the same bytes. */
  issuedAt: Date
}

/** The VAT rate as people write it: 0.15 -> "15%". */
export function vatPercentage(vatRate: number): string {
  return `${Math.round(vatRate * 10000) / 100}%`
}

interface Column {
  x: number
  width: number
  align: 'left' | 'right'
}

/** Renders a full tax invoice (SARS: supplier and recipient with VAT numbers, serial number, date, description, quantity, value, VAT, total) as a PDF. */
export async function renderTaxInvoicePdf(invoice: TaxInvoiceData): Promise<Buffer> {
  const document = openTaxDocument({
    title: `Tax Invoice ${invoice.number}`,
    author: invoice.supplier.name,
    subject: `Tax Invoice ${invoice.number} for registration ${invoice.reference}`,
    issuedAt: invoice.issuedAt,
  })
  const { doc, finished, left, contentWidth } = document
  drawTaxDocumentHead(document, {
    title: 'Tax Invoice',
    supplier: invoice.supplier,
    facts: [
      ['Invoice number', invoice.number],
      ['Date of issue', invoice.issueDate],
      ['Registration reference', invoice.reference],
      ...yourReferenceFact(invoice.purchaseOrderNumber),
      ['Payment due', invoice.dueDate],
    ],
    recipientHeading: 'Bill to',
    recipient: invoice.recipient,
  })
  drawLinesAndTotals(document, invoice)

  doc.y += 24
  doc.font(BOLD).fontSize(10).text('Payment terms', left)
  doc.font(REGULAR).fontSize(9)
  doc.text(
    `Payment in full within ${invoice.paymentTermsDays} days of the invoice date, by ${invoice.dueDate}. Please quote ${invoice.reference} as the payment reference.`,
    left,
    doc.y,
    { width: contentWidth },
  )
  doc.moveDown(0.8)
  drawBankDetails(document, bankDetailRows(invoice.bankDetails, invoice.reference))

  doc.end()
  return finished
}

/** A priced document's lines (description and details, quantity, unit price, amount) and its totals excl. VAT, VAT and incl. VAT. */
export function drawLinesAndTotals(
  document: TaxDocument,
  priced: Pick<TaxInvoiceData, 'lines' | 'subtotalCents' | 'vatRate' | 'vatCents' | 'totalCents'>,
): void {
  const { doc, left, right, contentWidth } = document
  const columns: Record<'description' | 'quantity' | 'unit' | 'amount', Column> = {
    description: { x: left, width: contentWidth * 0.46, align: 'left' },
    quantity: { x: left + contentWidth * 0.46, width: contentWidth * 0.1, align: 'right' },
    unit: { x: left + contentWidth * 0.56, width: contentWidth * 0.22, align: 'right' },
    amount: { x: left + contentWidth * 0.78, width: contentWidth * 0.22, align: 'right' },
  }
  const cell = (column: Column, text: string, y: number) => doc.text(text, column.x, y, { width: column.width, align: column.align })

  let y = doc.y
  doc.font(BOLD).fontSize(9)
  cell(columns.description, 'Description', y)
  cell(columns.quantity, 'Quantity', y)
  cell(columns.unit, 'Unit price excl. VAT', y)
  cell(columns.amount, 'Amount excl. VAT', y)
  y = doc.y + 4
  doc.moveTo(left, y).lineTo(right, y).strokeColor(RULE_COLOUR).stroke()
  y += 6

  for (const line of priced.lines) {
    doc.font(BOLD).fontSize(9)
    cell(columns.description, line.description, y)
    const afterDescription = doc.y
    doc.font(REGULAR)
    cell(columns.quantity, String(line.quantity), y)
    cell(columns.unit, formatRand(line.unitAmountCents), y)
    cell(columns.amount, formatRand(line.amountCents), y)
    doc.y = afterDescription
    doc.fillColor(MUTED_COLOUR).fontSize(8.5)
    for (const detail of line.details) doc.text(detail, columns.description.x, doc.y, { width: columns.description.width })
    doc.fillColor(TEXT_COLOUR)
    y = doc.y + 6
  }
  doc.moveTo(left, y).lineTo(right, y).strokeColor(RULE_COLOUR).stroke()
  y += 8

  const totals: Array<[string, string, boolean]> = [
    ['Total excl. VAT', formatRand(priced.subtotalCents), false],
    [`VAT at ${vatPercentage(priced.vatRate)}`, formatRand(priced.vatCents), false],
    ['Total incl. VAT', formatRand(priced.totalCents), true],
  ]
  for (const [label, value, bold] of totals) {
    doc.font(bold ? BOLD : REGULAR).fontSize(bold ? 10 : 9)
    doc.text(label, columns.unit.x - 60, y, { width: columns.unit.width + 60, align: 'right' })
    doc.text(value, columns.amount.x, y, { width: columns.amount.width, align: 'right' })
    y = doc.y + 4
  }
  doc.y = y
}

/** The bank account to pay into, one labelled row each, under the heading "Bank details". */
export function drawBankDetails({ doc, left, contentWidth }: TaxDocument, rows: ReadonlyArray<readonly [string, string]>): void {
  doc.font(BOLD).fontSize(10).text('Bank details', left)
  doc.font(REGULAR).fontSize(9)
  for (const [label, value] of rows) {
    const rowY = doc.y
    doc.text(`${label}:`, left, rowY, { width: 120 })
    doc.text(value, left + 120, rowY, { width: contentWidth - 120 })
  }
}
