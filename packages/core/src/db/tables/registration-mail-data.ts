/**
 * What a registration's e-mails say, fixed when it was stored: one JSON document (a RegistrationMailContext)
 * that each of its outbox messages is rendered from when it is sent.
 */
export interface RegistrationMailDataTable {
  registration_id: string
  context_json: string
}
