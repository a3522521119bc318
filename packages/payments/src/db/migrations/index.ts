import type { Migration, MigrationProvider } from 'kysely/migration'
import * as paymentTables from './2026-11-22-payment-tables.ts'

// Listed statically so the migrations travel with the code; never edit one that has landed.
const migrations: Record<string, Migration> = {
  '2026-11-22-payment-tables': paymentTables,
}

/** The payments package's migrations, in the order they were written. */
export const paymentMigrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
}
