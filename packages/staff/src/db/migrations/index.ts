import type { Migration, MigrationProvider } from 'kysely/migration'
import * as staffAccounts from './2026-11-23-staff-accounts.ts'

// Listed statically so the migrations travel with the code; never edit one that has landed.
const migrations: Record<string, Migration> = {
  '2026-11-23-staff-accounts': staffAccounts,
}

/** The staff package's migrations, in the order they were written. */
export const staffMigrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
}
