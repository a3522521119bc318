import type { Generated, Selectable } from 'kysely'
import type { PaymentReminderKind } from './payment-reminders.ts'

/** A deal waits for a manager while its price is below the package's; once approved it is invoiced and its codes sent. */
type SponsorshipDealStatus = 'awaiting-approval' | 'approved' | 'cancelled'

/** A sponsorship deal (see the migration 2026-11-28-sponsorship-deals). */
export interface SponsorshipDealsTable {
  id: string
  /** Its payment reference, from the registrations' alphabet. */
  reference: string
  status: SponsorshipDealStatus
  event_id: string
  event_slug: string
  event_title: string
  event_start: string
  /** The last day its codes are accepted: the day registration closes. */
  codes_valid_until: string
  package_id: string
  package_title: string
  package_price_cents: number | null
  complimentary_seats: number
  participant_discount_percent: number
  promotional_text_words: number
  literature_pages: number
  speaking_slot: string
  company_name: string
  address: string
  vat_number: string
  purchase_order_number: string
  contact_name: string
  contact_email: string
  contact_tel: string
  agreed_price_cents: number
  vat_rate: number
  vat_cents: number
  total_cents: number
  recorded_by: string
  recorded_at: string
  approved_by: string | null
  approved_at: string | null
  cancelled_at: string | null
  promo_text: string
  promo_text_received_at: string | null
  literature_received_at: string | null
  slot_scheduled_for: string
  /** When the codes go to the contact: on approval, or once the invoice is paid in full. */
  send_codes_when: Generated<SendCodesWhen>
  /** When the codes were first e-mailed; null while they wait for the payment. */
  codes_sent_at: string | null
  /** When the invoice was paid in full by the transfers recorded against the deal. */
  paid_at: string | null
}

/** When a deal's codes are e-mailed to its contact. */
export type SendCodesWhen = 'approved' | 'paid'

/** A bank transfer recorded against a deal; `bank_reference` is recorded once across this table and bank_payments. */
export interface SponsorshipPaymentsTable {
  id: string
  deal_id: string
  amount_cents: number
  received_on: string
  bank_reference: string
  note: string
  recorded_by_id: string
  recorded_by_name: string
  recorded_at: string
}

export type SponsorshipDealRow = Selectable<SponsorshipDealsTable>

/** A cancelled deal's credit note, numbered in the registrations' credit note series. */
export interface SponsorshipCreditNotesTable {
  id: string
  deal_id: string
  number: number
  issued_at: string
  pdf_base64: string
  data_json: string
}

/** A deal's tax invoice, numbered in the registrations' series. */
export interface SponsorshipInvoicesTable {
  id: string
  deal_id: string
  number: number
  issued_at: string
  pdf_base64: string
  data_json: string
}

/** A payment reminder queued for a deal's tax invoice; the automatic kinds at most once each (see payment_reminders). */
export interface SponsorshipPaymentRemindersTable {
  id: string
  deal_id: string
  kind: PaymentReminderKind
  /** What the reminder said was owed. */
  outstanding_cents: number
  /** The business day (YYYY-MM-DD, Johannesburg) it was sent on. */
  business_day: string
  /** The staff member who sent it ("remind now"); null for the automatic ones. */
  sent_by_name: string | null
  created_at: string
}

/** What a transfer paid beyond a deal's invoice: owed back to the sponsor until staff pay it out (see surplus_refunds). */
export interface SponsorshipSurplusRefundsTable {
  id: string
  deal_id: string
  /** The transfer (sponsorship_payments) that overpaid. */
  payment_id: string
  amount_cents: number
  status: 'awaiting-payout' | 'paid-out'
  paid_out_on: string | null
  bank_reference: string | null
  paid_out_by_name: string | null
  created_at: string
  updated_at: string
}

/** The account a sponsor's refunds are paid into, as staff took it from the sponsor (see refund_bank_details). */
export interface SponsorshipRefundBankDetailsTable {
  deal_id: string
  account_holder: string
  bank_name: string
  branch_code: string
  account_number: string
  updated_by_name: string
  updated_at: string
}
