/** owner: staff accounts and settings, and every right; manager: approvals; staff: the day-to-day work. */
export type StaffRole = 'owner' | 'manager' | 'staff'

/**
 * better-auth's user model (camelCase columns as better-auth names them) plus the role. Booleans and dates are
 * stored as SQLite integers and ISO text, as PostgreSQL booleans and timestamptz: the adapter converts both.
 */
export interface StaffUsersTable {
  id: string
  name: string
  email: string
  emailVerified: boolean | number
  image: string | null
  createdAt: Date | string
  updatedAt: Date | string
  twoFactorEnabled: boolean | number | null
  role: StaffRole
  /** Set while the account is deactivated: no sign-in, no session. */
  deactivatedAt: Date | string | null
  twoFactorEnrolRequired: boolean | number | null
}
