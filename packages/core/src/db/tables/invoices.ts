/** The last number issued in an invoice series, updated in the transaction that issues the next one. */
export interface InvoiceCountersTable {
  series: string
  last_number: number
}

/**
 * A registration's tax invoice as issued. `data_json` is everything it says but its number (`number`, taken as the
 * last write of the registration's transaction), fixed at issue; `pdf_base64` is its PDF, '' until first rendered
 * (when the confirmation is sent or the invoice downloaded), then kept.
 */
export interface InvoicesTable {
  id: string
  registration_id: string
  number: number
  issued_at: string
  pdf_base64: string
  data_json: string | null
}
