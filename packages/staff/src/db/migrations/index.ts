import type { SqlDialectName } from '@events/core'
import type { Migration, MigrationProvider } from 'kysely/migration'
import { staffAccountsMigration } from './2026-11-23-staff-accounts.ts'
import * as auditSubjectIndex from './2026-11-24-audit-subject-index.ts'
import { staffLifecycleMigration } from './2026-11-27-staff-lifecycle.ts'

/** The staff package's migrations for a database of the given dialect, in the order they were written. */
export function staffMigrationProvider(dialect: SqlDialectName): MigrationProvider {
  // Listed statically so the migrations travel with the code; never edit one that has landed.
  const migrations: Record<string, Migration> = {
    '2026-11-23-staff-accounts': staffAccountsMigration(dialect),
    '2026-11-24-audit-subject-index': auditSubjectIndex,
    '2026-11-27-staff-lifecycle': staffLifecycleMigration(dialect),
  }
  return { getMigrations: async () => migrations }
}
