/** better-auth's verification model: password-reset tokens and two-factor challenges, each with its expiry. */
export interface StaffVerificationsTable {
  id: string
  identifier: string
  value: string
  expiresAt: Date | string
  createdAt: Date | string
  updatedAt: Date | string
}
