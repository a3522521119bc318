import type { Selectable } from 'kysely'

/** What a code takes off each delegate's price: a percentage, a rand amount, or all of it (a complimentary seat). */
export type DiscountKind = 'percent' | 'amount' | 'complimentary'

/** A discount code staff created or a sponsorship deal gave (see the migration 2026-11-28-discount-codes). */
export interface DiscountCodesTable {
  id: string
  /** As visitors type it, upper-cased: unique. */
  code: string
  kind: DiscountKind
  percent: number | null
  amount_cents: number | null
  /** The event's content id; null for every event. */
  event_id: string | null
  /** The event's title when the code was made, for staff's lists. */
  event_title: string | null
  /** How many registrations may use it; null for no limit. */
  max_uses: number | null
  /** The first and last Johannesburg days it is accepted on (YYYY-MM-DD), inclusive; null for no bound. */
  valid_from: string | null
  valid_until: string | null
  /** The options it applies to, comma-separated; empty for every per-delegate option. */
  option_keys: string
  /** 1 when it applies to table options too. */
  includes_tables: number
  /** What the invoice's discount line calls it, e.g. "Platinum sponsor discount". */
  source_label: string
  /** The sponsorship deal that gave it, if any. */
  deal_id: string | null
  voided_at: string | null
  /** Written by each registration that uses it, to take the code's turn (like event_seats). */
  claimed_at: string | null
  created_at: string
  created_by: string
}

export type DiscountCodeRow = Selectable<DiscountCodesTable>

/** The code a registration used and what it took off; one per registration. */
export interface RegistrationDiscountsTable {
  registration_id: string
  discount_code_id: string
  /** The invoice line's wording, e.g. "Platinum sponsor discount 50% (code PLAT-7Q2K)". */
  description: string
  /** 1 for a sponsor's complimentary seat. */
  complimentary: number
  full_subtotal_cents: number
  discount_cents: number
  created_at: string
}
