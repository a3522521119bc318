import type { Kysely } from 'kysely'
import type { StaffAccountsTable } from './tables/accounts.ts'
import type { StaffAuditLogTable } from './tables/audit-log.ts'
import type { StaffPasskeysTable } from './tables/passkeys.ts'
import type { StaffRateLimitsTable } from './tables/rate-limits.ts'
import type { StaffSessionsTable } from './tables/sessions.ts'
import type { StaffSettingsTable } from './tables/settings.ts'
import type { StaffDevicesTable, StaffSignInNoticesTable, StaffSignInThrottleTable, StaffUsedTotpCodesTable } from './tables/sign-in-throttle.ts'
import type { StaffTwoFactorsTable } from './tables/two-factors.ts'
import type { StaffUsersTable } from './tables/users.ts'
import type { StaffVerificationsTable } from './tables/verifications.ts'

/** The staff package's tables, in the same database as the core's. */
export interface StaffDatabase {
  staff_users: StaffUsersTable
  staff_sessions: StaffSessionsTable
  staff_accounts: StaffAccountsTable
  staff_verifications: StaffVerificationsTable
  staff_two_factors: StaffTwoFactorsTable
  staff_rate_limits: StaffRateLimitsTable
  staff_sign_in_throttle: StaffSignInThrottleTable
  staff_used_totp_codes: StaffUsedTotpCodesTable
  staff_sign_in_notices: StaffSignInNoticesTable
  staff_devices: StaffDevicesTable
  staff_passkeys: StaffPasskeysTable
  staff_settings: StaffSettingsTable
  staff_audit_log: StaffAuditLogTable
}

export type StaffKysely = Kysely<StaffDatabase>
