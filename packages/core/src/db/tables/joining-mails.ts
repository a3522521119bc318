/** A joining e-mail sent automatically to a delegate at one of its moments; staff's resends are not recorded here. */
export interface JoiningMailsTable {
  delegate_id: string
  /** `before-event` (the set number of days before the event) or `eve-YYYY-MM-DD` (the day before that event day). */
  moment: string
  registration_id: string
  /** The business day it was sent on (YYYY-MM-DD, Johannesburg). */
  business_day: string
  created_at: string
}
