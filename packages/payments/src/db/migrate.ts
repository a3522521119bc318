import type { CoreDatabase } from '@events/core'
import { sql, type Kysely } from 'kysely'
import { Migrator } from 'kysely/migration'
import { paymentMigrationProvider } from './migrations/index.ts'

/**
 * Brings the payment tables up to date, after the core's (they refer to its registrations); their own migration table
 * keeps them apart from the core's and the staff package's. On PostgreSQL the migrator is told the schema it works in,
 * as the others are, so it never takes another schema's migration table for its own.
 */
export async function migratePaymentTables(db: Pick<CoreDatabase, 'kysely' | 'dialect'>): Promise<void> {
  const kysely = db.kysely as unknown as Kysely<unknown>
  const { dialect } = db
  const migrationTableSchema = dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(kysely)).rows[0]?.schema : undefined
  const migrator = new Migrator({
    db: kysely,
    provider: paymentMigrationProvider,
    migrationTableName: 'payments_migrations',
    migrationLockTableName: 'payments_migrations_lock',
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  })
  const { error } = await migrator.migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error(`Payments migration failed: ${String(error)}`)
}
