/**
 * A delegate's pass: the short code staff type or scan at the door (the QR code holds it), and the private token of
 * the pass page. One per delegate row; a new person in the delegate's place gets a new pass.
 */
export interface DelegatePassesTable {
  delegate_id: string
  registration_id: string
  /** Eight characters without look-alikes (no 0, O, 1 or I), stored without the dash it is shown with. */
  code: string
  /** The pass page's private link token. */
  token: string
  created_at: string
}
