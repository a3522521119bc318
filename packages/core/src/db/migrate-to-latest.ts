import type { MigrationResultSet, Migrator } from 'kysely/migration'

const VANISHED_SCHEMA = '3F000'
const ATTEMPTS = 3

/** Whether a migration failed because a schema it listed was dropped meanwhile (PostgreSQL's invalid_schema_name). */
function isVanishedSchema(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === VANISHED_SCHEMA
}

/**
 * Runs a migrator to the latest migration. Kysely's migrator looks for its tables by listing every schema's tables
 * by name; on a PostgreSQL database shared with others (test runs, other applications) a schema dropped during that
 * listing fails it with "schema … does not exist", though nothing of ours is wrong. Such a failure happens before any
 * migration runs (and PostgreSQL migrates in a transaction), so it is tried again, at most three times in all.
 */
export async function migrateToLatest(migrator: Migrator): Promise<MigrationResultSet> {
  for (let attempt = 1; ; attempt++) {
    const result = await migrator.migrateToLatest()
    if (result.error === undefined || !isVanishedSchema(result.error) || attempt === ATTEMPTS) return result
  }
}
