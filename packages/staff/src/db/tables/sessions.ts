/** better-auth's session model: one row per signed-in browser, found by the token in the session cookie. */
export interface StaffSessionsTable {
  id: string
  expiresAt: Date | string
  token: string
  createdAt: Date | string
  updatedAt: Date | string
  ipAddress: string | null
  userAgent: string | null
  userId: string
}
