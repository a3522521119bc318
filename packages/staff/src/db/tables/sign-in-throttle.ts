/**
 * Failed sign-ins per key: `address:<ip>` for a client address, `account:<email>` for an account, `codes:<user id>`
 * for the wrong two-factor codes typed after an account's password (counted for the member's notice, never a lock). Each failure past
 * the free ones pushes `blocked_until` further (a growing delay); a success clears the row.
 */
export interface StaffSignInThrottleTable {
  key: string
  failures: number
  last_failure_at: string
  blocked_until: string
}

/** The TOTP codes each user has signed in with, kept for a few minutes so that a code works once. */
export interface StaffUsedTotpCodesTable {
  user_id: string
  code_hash: string
  used_at: string
}

/** When a member was last e-mailed about a kind of sign-in trouble (`code-failures`). */
export interface StaffSignInNoticesTable {
  user_id: string
  kind: string
  sent_at: string
}

/** A browser a member has signed in from: a hash of the random id in its `staff.device` cookie. */
export interface StaffDevicesTable {
  user_id: string
  device_hash: string
  first_seen_at: string
  last_seen_at: string
}
