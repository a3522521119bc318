/**
 * What a registration's e-mails say, fixed when it was stored: one JSON document (a StoredRegistrationMailContext)
 * that each of its outbox messages is rendered from when it is sent, with the number of the registration's invoice.
 */
export interface RegistrationMailDataTable {
  registration_id: string
  context_json: string
}
