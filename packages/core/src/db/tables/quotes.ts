/** A quotation as issued: its number in the Q series, what it says (`data_json`), and its PDF ('' until first rendered). */
export interface QuotesTable {
  id: string
  number: number
  event_slug: string
  event_title: string
  /** The company it was made for; '' when none was given. */
  company_name: string
  total_cents: number
  /** When the price it quotes stops being offered (ISO instant). */
  valid_until: string
  issued_at: string
  data_json: string
  pdf_base64: string
}
