/** A message staff wrote to an event's delegates; each delegate's copy is an outbox e-mail under their registration. */
export interface DelegateMessagesTable {
  id: string
  /** The event's back-office key (eventKeyOf). */
  event_id: string
  /** As staff wrote it, `{name}` standing for each delegate's name. */
  subject: string
  body: string
  /** JSON: the filters it was sent with (attendance, payment, day). */
  filters_json: string
  recipient_count: number
  sent_at: string
  sent_by_name: string
}
