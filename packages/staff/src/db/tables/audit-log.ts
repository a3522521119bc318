import type { Selectable } from 'kysely'

/** Who did what, when, to which subject, with the subject's state before and after (JSON, null when none). */
export interface StaffAuditLogTable {
  id: string
  occurred_at: string
  actor_id: string | null
  actor_email: string | null
  action: string
  subject_type: string
  subject_id: string | null
  before_json: string | null
  after_json: string | null
  ip_address: string | null
}

export type StaffAuditLogRow = Selectable<StaffAuditLogTable>
