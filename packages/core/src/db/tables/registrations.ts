import type { Generated, Selectable } from 'kysely'
import type { PaymentMethod } from '../../submissions/choices.ts'

/**
 * A registration waits for payment until a verified card payment webhook, or bank transfers recorded by staff that
 * add up to its total, mark it paid; bank transfers that fall short leave it part-paid.
 */
export type RegistrationStatus = 'awaiting-payment' | 'part-paid' | 'paid'

/** A registration with a snapshot of the event and price it was made for, so later content edits do not change it. */
export interface RegistrationsTable {
  id: string
  reference: string
  secret: string
  status: RegistrationStatus
  /**
   * The event's content document id, which a slug rename keeps: the back office groups and filters by it. Null only
   * for a row stored before the column existed until fillRegistrationEventIds finds its event.
   */
  event_id: string | null
  /** The event's slug when the registration was made, like event_title: a later rename does not change it. */
  event_slug: string
  event_kind: string
  event_title: string
  event_start: string
  event_end: string
  venue_name: string
  venue_address: string
  submitted_code: string
  company_name: string
  address: string
  email: string
  tel: string
  /** Empty for a company that is not registered for VAT. */
  vat_number: string
  /** The company's purchase order number ("Your reference" on its tax documents); empty when none was given. */
  purchase_order_number: string
  /** The quotation it was made from, as printed (Q-000001); '' when none was given. */
  quotation_number: Generated<string>
  attendance_option: string
  attendance_option_label: string
  /** A key (`bank-transfer`, `card`); PAYMENT_METHOD_LABELS says what people read for it. */
  payment_method: PaymentMethod
  delegate_count: number
  unit_amount_cents: number
  subtotal_cents: number
  vat_cents: number
  total_cents: number
  vat_rate: number
  currency: string
  payload_hash: string
  legal_agreement_accepted_at: string
  created_at: string
  updated_at: string
  /** When a verified payment webhook marked it paid. */
  paid_at: string | null
  /** When the whole registration was cancelled (all its delegates); it keeps its history, invoice and credit notes. */
  cancelled_at: string | null
}

export type RegistrationRow = Selectable<RegistrationsTable>
