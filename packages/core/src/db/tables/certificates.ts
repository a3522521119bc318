/** A certificate of attendance as issued; never rewritten but to revoke or replace it. */
export interface CertificatesTable {
  id: string
  /** The number printed and verified, `CPD-K7M2-Q9XD`. */
  number: string
  delegate_id: string
  registration_id: string
  /** The event's back-office key (eventKeyOf). */
  event_id: string
  /** The delegate's name as printed. */
  name: string
  event_title: string
  /** JSON: the days attended (YYYY-MM-DD, Johannesburg), first to last. */
  days: string
  /** The CPD time certified, in minutes (whole half hours). */
  cpd_minutes: number
  /** The organiser as printed (the site settings' name). */
  organiser: string
  issued_at: string
  /** The staff member who issued it; null when the round after the event did. */
  issued_by_name: string | null
  revoked_at: string | null
  revoked_by_name: string | null
  /** The number of the certificate that replaced it (a corrected name). */
  replaced_by: string | null
  /** JSON `CertificateDetails`: what the certificate said beyond the above; null on one issued before it was kept. */
  details: string | null
}

/** Staff's CPD hours of an event, used instead of the agenda's count. */
export interface EventCpdHoursTable {
  event_id: string
  minutes_per_day: number
  updated_at: string
  updated_by_name: string
}

/** Staff's CPD hours of one day of an event, used instead of the agenda's count of that day. */
export interface EventCpdDayHoursTable {
  event_id: string
  /** YYYY-MM-DD, Johannesburg: a day of the event. */
  date: string
  minutes: number
  updated_at: string
  updated_by_name: string
}
