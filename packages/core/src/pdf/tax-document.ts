import { documentBytes, newPdfDocument, registerDejaVuFonts } from './fonts.ts'

// The one look of the tax documents (tax invoices and credit notes): A4, DejaVu Sans, these margins and colours.
export const REGULAR = 'TaxDocument-Regular'
export const BOLD = 'TaxDocument-Bold'
const PAGE_MARGIN = 50
export const TEXT_COLOUR = '#1a1a1a'
export const MUTED_COLOUR = '#555555'
export const RULE_COLOUR = '#999999'

/** A party to a tax document, as SARS asks for it: name, address and VAT number (empty for a recipient that is not a VAT vendor). */
export interface DocumentParty {
  name: string
  addressLines: string[]
  vatNumber: string
}

/** The recipient's own reference (its purchase order number) among a document's facts, when it gave one. */
export function yourReferenceFact(purchaseOrderNumber: string | undefined): Array<[label: string, value: string]> {
  return purchaseOrderNumber ? [['Your reference', purchaseOrderNumber]] : []
}

export interface TaxDocument {
  doc: PDFKit.PDFDocument
  /** The document's bytes, once `doc.end()` has been called. */
  finished: Promise<Buffer>
  left: number
  right: number
  contentWidth: number
}

/** Opens an A4 tax document with its fonts; dated `issuedAt` in its metadata, so it always renders to the same bytes. */
export function openTaxDocument(info: { title: string; author: string; subject: string; issuedAt: Date }): TaxDocument {
  const doc = newPdfDocument({
    size: 'A4',
    margin: PAGE_MARGIN,
    info: { Title: info.title, Author: info.author, Subject: info.subject, CreationDate: info.issuedAt, ModDate: info.issuedAt },
  })
  registerDejaVuFonts(doc, { regular: REGULAR, bold: BOLD })
  const finished = documentBytes(doc)
  const contentWidth = doc.page.width - PAGE_MARGIN * 2
  doc.fillColor(TEXT_COLOUR)
  return { doc, finished, left: PAGE_MARGIN, right: PAGE_MARGIN + contentWidth, contentWidth }
}

/**
 * The head every tax document shares: its title, the supplier on the left, its own facts (number, dates, reference)
 * on the right, and the recipient below; leaves the cursor where the document's lines begin.
 */
export function drawTaxDocumentHead(
  { doc, left, contentWidth }: TaxDocument,
  head: {
    title: string
    supplier: DocumentParty & { contact: string }
    facts: Array<[label: string, value: string]>
    recipientHeading: string
    recipient: DocumentParty
  },
): void {
  doc.font(BOLD).fontSize(22).text(head.title, left, PAGE_MARGIN)
  const top = doc.y + 10

  doc
    .font(BOLD)
    .fontSize(11)
    .text(head.supplier.name, left, top, { width: contentWidth / 2 })
  doc.font(REGULAR).fontSize(9)
  for (const line of head.supplier.addressLines) doc.text(line, { width: contentWidth / 2 })
  doc.text(`VAT number: ${head.supplier.vatNumber}`, { width: contentWidth / 2 })
  if (head.supplier.contact)
    doc
      .fillColor(MUTED_COLOUR)
      .text(head.supplier.contact, { width: contentWidth / 2 })
      .fillColor(TEXT_COLOUR)
  const supplierBottom = doc.y

  const factsX = left + contentWidth / 2 + 20
  const factsWidth = contentWidth / 2 - 20
  doc.y = top
  for (const [label, value] of head.facts) {
    const y = doc.y
    doc
      .font(REGULAR)
      .fontSize(9)
      .text(`${label}:`, factsX, y, { width: factsWidth / 2 })
    doc.font(BOLD).text(value, factsX + factsWidth / 2, y, { width: factsWidth / 2, align: 'right' })
    doc.moveDown(0.2)
  }

  doc.y = Math.max(supplierBottom, doc.y) + 20
  doc.font(BOLD).fontSize(10).text(head.recipientHeading, left)
  doc.font(BOLD).fontSize(10).text(head.recipient.name, left)
  doc.font(REGULAR).fontSize(9)
  for (const line of head.recipient.addressLines) doc.text(line, left)
  // A recipient that is not a VAT vendor has no VAT number, and the document prints none rather than a placeholder.
  if (head.recipient.vatNumber !== '') doc.text(`VAT number: ${head.recipient.vatNumber}`, left)
  doc.moveDown(1.5)
}
