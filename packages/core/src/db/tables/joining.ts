/** An event's joining instructions, written by staff in the back office (never in the content, never public). */
export interface EventJoiningTable {
  /** The event's back-office key (eventKeyOf). */
  event_id: string
  /** What venue delegates need: arrival, parking, start time. */
  venue_instructions: string
  /** The online meeting's link for every day; empty until staff set it. */
  meeting_url: string
  /** JSON: the meeting link of the days where it differs, `{ "2025-07-04": "https://…" }`. */
  day_meeting_urls: string
  updated_at: string
  updated_by_name: string
}

/** A delegate who joined online through their personal link on an event day; the first join of the day is kept. */
export interface OnlineAttendanceTable {
  delegate_id: string
  /** The event day (YYYY-MM-DD, Johannesburg). */
  event_day: string
  joined_at: string
}
