import type { ColumnType } from 'kysely'

/** A message sent with the contact form. */
export interface ContactEnquiriesTable {
  id: string
  full_name: string
  company_name: string | null
  email: string
  phone: string
  interest: string
  message: string
  created_at: string
  /** In the back office's inbox: `new`, `in-progress` or `closed`, and the staff member it is assigned to. */
  status: ColumnType<string, string | undefined, string>
  assignee_id: string | null
  assignee_name: string | null
}
