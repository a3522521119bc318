import type { SqlDialectName } from '@events/core'
import type { Migration, MigrationProvider } from 'kysely/migration'
import { staffAccountsMigration } from './2026-11-23-staff-accounts.ts'
import * as auditSubjectIndex from './2026-11-24-audit-subject-index.ts'
import { staffLifecycleMigration } from './2026-11-26T01-staff-lifecycle.ts'
import * as signInNotices from './2026-11-29T50-sign-in-notices.ts'
import * as staffDevices from './2026-11-29T60-staff-devices.ts'
import { passkeysMigration } from './2026-11-29T70-passkeys.ts'

/** The staff package's migrations for a database of the given dialect, in name order (docs/operations.md). */
export function staffMigrationProvider(dialect: SqlDialectName): MigrationProvider {
  // Listed statically so the migrations travel with the code; never edit one that has landed.
  const migrations: Record<string, Migration> = {
    '2026-11-23-staff-accounts': staffAccountsMigration(dialect),
    '2026-11-24-audit-subject-index': auditSubjectIndex,
    '2026-11-26T01-staff-lifecycle': staffLifecycleMigration(dialect),
    '2026-11-29T50-sign-in-notices': signInNotices,
    '2026-11-29T60-staff-devices': staffDevices,
    '2026-11-29T70-passkeys': passkeysMigration(dialect),
  }
  return { getMigrations: async () => migrations }
}

/** Migrations renamed so that one written today sorts after them (as the core's): old name to new name. */
export const renamedStaffMigrations: Readonly<Record<string, string>> = {
  '2026-11-27-staff-lifecycle': '2026-11-26T01-staff-lifecycle',
}
