/** One delegate of a registration; `ordinal` keeps the order the registrant listed them in. */
export interface RegistrationDelegatesTable {
  id: string
  registration_id: string
  ordinal: number
  name: string
  position: string
  email: string
  /** The delegate's professional registration number for a CPD-accredited event, when they gave one. */
  professional_registration_number: string | null
  /** Where the delegate attends: in the room or online (their join link instead of a door pass). */
  attendance: 'venue' | 'online'
  /** What the delegate costs, excl. VAT, after any discount: what cancelling them credits; 0 on a table, priced flat. */
  unit_amount_cents: number
  /** The cancellation that cancelled this delegate, or null while they attend. */
  cancellation_id: string | null
}
