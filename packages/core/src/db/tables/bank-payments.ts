import type { Selectable } from 'kysely'

/**
 * A bank transfer staff recorded against a registration. `bank_reference` is stored normalised (upper case, single
 * spaces) and is unique across registrations; `received_on` is the date on the bank statement (YYYY-MM-DD).
 */
export interface BankPaymentsTable {
  id: string
  registration_id: string
  amount_cents: number
  received_on: string
  bank_reference: string
  note: string
  recorded_by_id: string
  recorded_by_name: string
  recorded_at: string
}

export type BankPaymentRow = Selectable<BankPaymentsTable>
