import { DatabaseBehindError, migrateToLatest, type CoreDatabase } from '@events/core'
import { sql, type Kysely } from 'kysely'
import { Migrator } from 'kysely/migration'
import { paymentMigrationProvider } from './migrations/index.ts'

/**
 * Brings the payment tables up to date (or, with `apply: false`, refuses a database that lacks one of their migrations), after the core's (they refer to its registrations); their own migration table
 * keeps them apart from the core's and the staff package's. On PostgreSQL the migrator is told the schema it works in,
 * as the others are, so it never takes another schema's migration table for its own.
 */
export async function migratePaymentTables(db: Pick<CoreDatabase, 'kysely' | 'dialect'>, options: { apply?: boolean } = {}): Promise<void> {
  const kysely = db.kysely as unknown as Kysely<unknown>
  const { dialect } = db
  const migrationTableSchema =
    dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(kysely)).rows[0]?.schema : undefined
  const migrator = new Migrator({
    db: kysely,
    provider: paymentMigrationProvider,
    migrationTableName: 'payments_migrations',
    migrationLockTableName: 'payments_migrations_lock',
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  })
  if (options.apply === false) {
    // Left to `pnpm db:migrate` (MIGRATE_ON_START=0): a database without them is refused as the core refuses one.
    const pending = (await migrator.getMigrations()).filter((migration) => migration.executedAt === undefined).map((migration) => migration.name)
    if (pending.length > 0) throw new DatabaseBehindError(pending)
    return
  }
  const { error } = await migrateToLatest(migrator)
  if (error) throw error instanceof Error ? error : new Error(`Payments migration failed: ${String(error)}`)
}
