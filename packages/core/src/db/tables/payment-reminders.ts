/** Why a payment reminder was sent: past the invoice's due date, a week before the event, or staff's "remind now". */
export type PaymentReminderKind = 'overdue' | 'before-event' | 'staff'

/** A payment reminder queued in the outbox for a registration; the automatic kinds at most once each. */
export interface PaymentRemindersTable {
  id: string
  registration_id: string
  kind: PaymentReminderKind
  /** What the reminder said was owed. */
  outstanding_cents: number
  /** The business day (YYYY-MM-DD, Johannesburg, SITE_DATE's clock) it was sent on. */
  business_day: string
  /** The staff member who sent it ("remind now"); null for the automatic ones. */
  sent_by_name: string | null
  created_at: string
}
