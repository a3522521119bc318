import type { Selectable } from 'kysely'

/**
 * A cancellation a staff member asked for, which a manager approves (it is then made as asked) or declines. The
 * terms' "management approval": staff may not cancel, waive a fee or refund by themselves.
 */
export interface CancellationRequestsTable {
  id: string
  registration_id: string
  /** JSON: "all", or the ids of the delegates to cancel. */
  delegate_ids_json: string
  /** The fee asked for, a whole percentage; null for the one the terms propose on the day it is approved. */
  fee_percent: number | null
  /** Why another fee than the proposed one; '' when none. */
  override_reason: string
  status: 'pending' | 'approved' | 'declined'
  requested_by_id: string
  requested_by_name: string
  requested_at: string
  decided_by_id: string | null
  decided_by_name: string | null
  decided_at: string | null
}

export type CancellationRequestRow = Selectable<CancellationRequestsTable>
