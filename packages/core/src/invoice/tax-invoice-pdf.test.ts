import { describe, expect, it } from 'vitest'
import { renderTaxInvoicePdf, type TaxInvoiceData } from './tax-invoice-pdf.ts'

function invoice(overrides: Partial<TaxInvoiceData> = {}): TaxInvoiceData {
  return {
    number: 'INV-000042',
    issueDate: '1 March 2025',
    dueDate: '6 March 2025',
    reference: 'K7M3Q9TX',
    supplier: { name: 'Example Events', addressLines: ['1 Example Road', 'Sandton'], vatNumber: '4000000001', contact: 'info@example.com' },
    recipient: { name: 'Acme (Pty) Ltd', addressLines: ['2 Main Road', 'Rosebank'], vatNumber: '4123456789' },
    lines: [
      {
        description: 'Legal Opinion: Venue',
        details: ['3 July 2025, 08:30 – 16:00 (SAST)', 'Delegate: Thandi Mokoena'],
        quantity: 1,
        unitAmountCents: 1_000_000,
        amountCents: 1_000_000,
      },
    ],
    subtotalCents: 1_000_000,
    vatRate: 0.15,
    vatCents: 150_000,
    totalCents: 1_150_000,
    paymentTermsDays: 5,
    bankDetails: { bankName: 'Bank', accountName: 'Example Events', accountNumber: '123', branch: 'Sandton', branchCode: '250655', swiftCode: 'FIRNZAJJ' },
    issuedAt: new Date('2025-03-01T08:00:00Z'),
    ...overrides,
  }
}

describe('tax invoice PDF', () => {
  it('renders an invoice to the same bytes whatever was rendered before it in the process', async () => {
    const first = await renderTaxInvoicePdf(invoice())
    // Other glyphs through the same parsed fonts must not find their way into the next invoice's embedded subset.
    await renderTaxInvoicePdf(invoice({ recipient: { name: 'Łódź Żółć Holdings', addressLines: ['Αθήνα', 'Москва'], vatNumber: '' }, reference: 'ZZZZ2222' }))
    const again = await renderTaxInvoicePdf(invoice())
    expect(again.equals(first)).toBe(true)
  })
})
