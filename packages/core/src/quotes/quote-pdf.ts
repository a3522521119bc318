import { bankDetailRows, type BankDetails } from '../catalog.ts'
import { drawBankDetails, drawLinesAndTotals, type TaxInvoiceData } from '../invoice/tax-invoice-pdf.ts'
import { BOLD, drawTaxDocumentHead, openTaxDocument, REGULAR } from '../pdf/tax-document.ts'

/** Everything printed on a quotation; amounts in cents, dates as display text. */
export interface QuoteData extends Pick<
  TaxInvoiceData,
  'supplier' | 'recipient' | 'lines' | 'subtotalCents' | 'vatRate' | 'vatCents' | 'totalCents' | 'paymentTermsDays'
> {
  number: string
  issueDate: string
  /** The last day the quoted price is offered (the early-bird date, or when registration closes). */
  validUntil: string
  eventTitle: string
  /** Where to register, which is what reserves the seats. */
  eventUrl: string
  /** The terms' cancellation fees, as the back office's cancellations apply them. */
  cancellationTerms: { halfFeeWorkingDays: number; fullFeeCalendarDays: number }
  bankDetails: BankDetails
  /** Set as the PDF's creation date so the same quotation always renders to the same bytes. */
  issuedAt: Date
}

/** Renders a quotation in the tax documents' layout: the priced supply, how long the price holds, how to pay and cancel. */
export async function renderQuotePdf(quote: QuoteData): Promise<Buffer> {
  const document = openTaxDocument({
    title: `Quotation ${quote.number}`,
    author: quote.supplier.name,
    subject: `Quotation ${quote.number} for ${quote.eventTitle}`,
    issuedAt: quote.issuedAt,
  })
  const { doc, finished, left, contentWidth } = document
  drawTaxDocumentHead(document, {
    title: 'Quotation',
    supplier: quote.supplier,
    facts: [
      ['Quotation number', quote.number],
      ['Date', quote.issueDate],
      ['Valid until', quote.validUntil],
    ],
    recipientHeading: 'Prepared for',
    recipient: quote.recipient.name === '' ? { ...quote.recipient, name: 'Your company (not named on this quotation)' } : quote.recipient,
  })
  drawLinesAndTotals(document, quote)

  const section = (heading: string, paragraphs: string[]) => {
    doc.moveDown(1.2)
    doc.font(BOLD).fontSize(10).text(heading, left)
    doc.font(REGULAR).fontSize(9)
    for (const paragraph of paragraphs) doc.text(paragraph, left, doc.y, { width: contentWidth })
  }
  doc.y += 12
  section('Validity', [
    `These prices are offered until ${quote.validUntil}. This quotation reserves no seat: seats are confirmed only when you register at ${quote.eventUrl}. Please quote ${quote.number} on your purchase order and give its number when you register.`,
  ])
  section('Payment terms', [
    `A tax invoice is issued when you register. Payment in full within ${quote.paymentTermsDays} days of the invoice date, by bank transfer or card, with the registration reference given when you register as the payment reference.`,
  ])
  section('Cancellations', [
    'Cancellations need the approval of management and are made in writing.',
    `Cancelling ${quote.cancellationTerms.halfFeeWorkingDays} working days or less before the event carries a fee of 50% of the registration fee; ${quote.cancellationTerms.fullFeeCalendarDays} days or less before the event, 100%.`,
    'Substitutions must be notified in writing and are free of charge.',
  ])
  doc.moveDown(1.2)
  drawBankDetails(document, bankDetailRows(quote.bankDetails, 'the registration reference given when you register'))

  doc.end()
  return finished
}
