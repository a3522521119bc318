/** better-auth's rateLimit model: one counter per client address and path, shared by every instance. */
export interface StaffRateLimitsTable {
  id: string
  key: string
  count: number
  lastRequest: number | string
}
