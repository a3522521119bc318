import type { SqlDialectName } from '@events/core'
import type { Kysely } from 'kysely'
import { Migrator } from 'kysely/migration'
import { staffMigrationProvider } from './migrations/index.ts'

/** Brings the staff tables up to date; its own migration table keeps them apart from the core's. */
export async function migrateStaffTables(kysely: Kysely<unknown>, dialect: SqlDialectName): Promise<void> {
  const migrator = new Migrator({
    db: kysely,
    provider: staffMigrationProvider(dialect),
    migrationTableName: 'staff_migrations',
    migrationLockTableName: 'staff_migrations_lock',
  })
  const { error } = await migrator.migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error(`Staff migration failed: ${String(error)}`)
}
