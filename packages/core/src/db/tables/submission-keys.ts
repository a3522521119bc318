/**
 * Claims that make a submission idempotent: a client token (form token or Idempotency-Key header) or a
 * hash of the payload. Payload claims expire, client tokens do not.
 */
export interface SubmissionKeysTable {
  key: string
  registration_id: string
  payload_hash: string
  expires_at: string | null
  created_at: string
}
