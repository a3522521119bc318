import { migrateToLatest, renameRecordedMigrations, type SqlDialectName } from '@events/core'
import { sql, type Kysely } from 'kysely'
import { Migrator } from 'kysely/migration'
import { renamedStaffMigrations, staffMigrationProvider } from './migrations/index.ts'

/**
 * Brings the staff tables up to date; its own migration table keeps them apart from the core's. On PostgreSQL the
 * migrator is told the schema it works in, as the core's is: otherwise it takes the staff migration tables of any
 * other schema in the database (another test run, another application) for its own, and fails.
 */
export async function migrateStaffTables(kysely: Kysely<unknown>, dialect: SqlDialectName): Promise<void> {
  const migrationTableSchema =
    dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(kysely)).rows[0]?.schema : undefined
  const migrator = new Migrator({
    db: kysely,
    provider: staffMigrationProvider(dialect),
    migrationTableName: 'staff_migrations',
    migrationLockTableName: 'staff_migrations_lock',
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  })
  await renameRecordedMigrations(kysely, { migrationTableName: 'staff_migrations', migrationTableSchema, renames: renamedStaffMigrations })
  const { error } = await migrateToLatest(migrator)
  if (error) throw error instanceof Error ? error : new Error(`Staff migration failed: ${String(error)}`)
}
