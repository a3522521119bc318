/**
 * Failed sign-ins per key: `address:<ip>` for a client address, `account:<email>` for an account. Each failure past
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
