import type { Selectable } from 'kysely'

/**
 * A cancellation staff confirmed: of the whole registration (`whole_registration` 1) or of some delegates, with the
 * fee the terms proposed, the fee applied (and why, when staff overrode it) and what was credited, in cents.
 */
export interface CancellationsTable {
  id: string
  registration_id: string
  whole_registration: number
  /** The business day of the cancellation, YYYY-MM-DD in Johannesburg. */
  cancelled_on: string
  working_days_before: number
  proposed_fee_percent: number
  fee_percent: number
  /** '' when the proposed fee was applied. */
  fee_override_reason: string
  cancelled_subtotal_cents: number
  fee_subtotal_cents: number
  credited_subtotal_cents: number
  credited_vat_cents: number
  credited_total_cents: number
  /** What was paid beyond what is still owed once this cancellation is credited. */
  refundable_cents: number
  cancelled_by_id: string
  cancelled_by_name: string
  cancelled_at: string
}

export type CancellationRow = Selectable<CancellationsTable>

/** A credit note against a tax invoice, numbered in its own series (CN-000001); `data_json` is everything it says. */
export interface CreditNotesTable {
  id: string
  /** The cancellation it credits; null for the credit note of an invoice correction (correctInvoice). */
  cancellation_id: string | null
  registration_id: string
  invoice_id: string
  number: number
  issued_at: string
  /** '' until first rendered, then kept so it never changes. */
  pdf_base64: string
  data_json: string
}

/**
 * Money going back to a registrant after a cancellation: a card refund through the provider (`pending`, then
 * `succeeded` or `refused`), or a bank transfer staff pay out themselves (`awaiting-payout`, then `paid-out`).
 */
export interface RefundsTable {
  id: string
  cancellation_id: string
  registration_id: string
  method: 'card' | 'bank-transfer'
  amount_cents: number
  status: 'pending' | 'succeeded' | 'refused' | 'awaiting-payout' | 'paid-out'
  /** The card checkout refunded. */
  checkout_id: string | null
  /** Requests made to the provider; each attempt has its own idempotency key. */
  attempts: number
  provider_refund_id: string | null
  /** The provider's answer, or '' before there is one. */
  outcome_message: string
  paid_out_on: string | null
  bank_reference: string | null
  recorded_by_id: string | null
  recorded_by_name: string | null
  created_at: string
  updated_at: string
}

export type RefundRow = Selectable<RefundsTable>
