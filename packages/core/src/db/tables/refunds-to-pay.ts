/**
 * What a bank transfer paid beyond what its registration owed: recorded with the transfer, owed back to the
 * registrant (`awaiting-payout`) until staff pay it out (`paid-out`, with the date and the bank's reference).
 */
export interface SurplusRefundsTable {
  id: string
  registration_id: string
  bank_payment_id: string
  amount_cents: number
  status: 'awaiting-payout' | 'paid-out'
  paid_out_on: string | null
  bank_reference: string | null
  paid_out_by_name: string | null
  created_at: string
  updated_at: string
}

/** The account a registrant's refunds are paid into, as staff took it from the registrant. */
export interface RefundBankDetailsTable {
  registration_id: string
  account_holder: string
  bank_name: string
  branch_code: string
  account_number: string
  updated_by_name: string
  updated_at: string
}
