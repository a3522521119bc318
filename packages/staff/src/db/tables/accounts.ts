/** better-auth's account model: for staff, the one `credential` account per user that holds the password hash. */
export interface StaffAccountsTable {
  id: string
  accountId: string
  providerId: string
  userId: string
  accessToken: string | null
  refreshToken: string | null
  idToken: string | null
  accessTokenExpiresAt: Date | string | null
  refreshTokenExpiresAt: Date | string | null
  scope: string | null
  password: string | null
  createdAt: Date | string
  updatedAt: Date | string
}
