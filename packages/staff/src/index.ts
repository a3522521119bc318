export {
  listAudit,
  recordAudit,
  staffAuditWriter,
  type AuditActor,
  type AuditEntry,
  type AuditListOptions,
  type AuditPage,
  type AuditRecord,
  type AuditSubject,
} from './audit.ts'
export { MIN_PASSWORD_LENGTH, passwordProblem } from './password-rule.ts'
export { DEFAULT_SIGN_IN_LIMITS, IDLE_EXPIRY_SECONDS, SIGN_IN_FAILED_MESSAGE, STAFF_CLIENT_IP_HEADER, type SignInLimits, type StaffAuth } from './auth.ts'
export type { StaffDatabase, StaffKysely } from './db/database.ts'
export { migrateStaffTables } from './db/migrate.ts'
export type { StaffRole } from './db/tables/users.ts'
export {
  INVITATION_LINK_SECONDS,
  STAFF_ROLES,
  StaffAccountError,
  createStaff,
  roleAllows,
  type MemberChange,
  type OwnPasskey,
  type OwnSession,
  type PasskeyCeremony,
  PASSKEY_UNAVAILABLE_MESSAGE,
  type StaffMember,
  type NewStaffUser,
  type RequireStaffOptions,
  type SignInResult,
  type Staff,
  type StaffOptions,
  type StaffSession,
  type StaffUser,
} from './staff.ts'
