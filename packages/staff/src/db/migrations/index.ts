import type { Migration, MigrationProvider } from 'kysely/migration'
import * as staffAccounts from './2026-11-23-staff-accounts.ts'
import * as auditSubjectIndex from './2026-11-24-audit-subject-index.ts'

// Listed statically so the migrations travel with the code; never edit one that has landed.
const migrations: Record<string, Migration> = {
  '2026-11-23-staff-accounts': staffAccounts,
  '2026-11-24-audit-subject-index': auditSubjectIndex,
}

/** The staff package's migrations, in the order they were written. */
export const staffMigrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
}
