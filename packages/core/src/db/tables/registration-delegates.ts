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
  /** The cancellation that cancelled this delegate, or null while they attend. */
  cancellation_id: string | null
}
