/** One delegate of a registration; `ordinal` keeps the order the registrant listed them in. */
export interface RegistrationDelegatesTable {
  id: string
  registration_id: string
  ordinal: number
  name: string
  position: string
  email: string
  /** The cancellation that cancelled this delegate, or null while they attend. */
  cancellation_id: string | null
}
