import type { ColumnType } from 'kysely'

/** A request for in-house or online training. */
export interface TrainingRequestsTable {
  id: string
  kind: string
  name: string
  email: string
  phone: string
  organization: string
  message: string
  created_at: string
  /** In the back office's inbox: `new`, `in-progress` or `closed`, and the staff member it is assigned to. */
  status: ColumnType<string, string | undefined, string>
  assignee_id: string | null
  assignee_name: string | null
}
