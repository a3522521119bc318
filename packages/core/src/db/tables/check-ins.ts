/**
 * A delegate checked in at the door on one day of their event. An undone check-in keeps its row (who checked in and
 * who undid it, for the record); at most one check-in per delegate and day is in force (undone_at null).
 */
export interface CheckInsTable {
  id: string
  delegate_id: string
  /** The event day (YYYY-MM-DD, Johannesburg). */
  event_day: string
  checked_in_at: string
  checked_in_by_id: string
  checked_in_by_name: string
  undone_at: string | null
  undone_by_name: string | null
  /** The id the scanning device gave the scan: its replay (an answer lost) is recognised. Null for older rows. */
  scan_id: string | null
  /** When the delegate left before the day ended, if staff recorded it; the certificate counts the sessions before. */
  left_at: string | null
  left_by_name: string | null
}
