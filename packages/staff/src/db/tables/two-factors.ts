/** better-auth's twoFactor model: a user's TOTP secret and backup codes (both encrypted by better-auth). */
export interface StaffTwoFactorsTable {
  id: string
  secret: string
  backupCodes: string
  userId: string
  verified: boolean | number | null
  failedVerificationCount: number | null
  lockedUntil: Date | string | null
}
