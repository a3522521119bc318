import type { Kysely } from 'kysely'

export interface RecordedMigrationTable {
  /** Kysely's record of what ran: `kysely_migration` for the core, each package's own otherwise. */
  migrationTableName: string
  /** The PostgreSQL schema the table lives in; none on SQLite. */
  migrationTableSchema?: string | undefined
  /** Old name to new name. */
  renames: Readonly<Record<string, string>>
}

/**
 * Renames migrations a database recorded under names they no longer have, before the migrator reads the record:
 * Kysely would otherwise take a renamed migration for a missing one and a new one to run. The run times stay, so the
 * recorded order stays; a database that never ran them (or a fresh one, without the table) is left as it is. Safe to
 * run from several instances at once: the second finds nothing left to rename.
 */
export async function renameRecordedMigrations(kysely: Kysely<unknown>, table: RecordedMigrationTable): Promise<void> {
  // Kysely leaves its own default tables (kysely_migration) out of the list unless asked.
  const existing = await kysely.introspection.getTables({ withInternalKyselyTables: true })
  const recorded = existing.some(
    (candidate) => candidate.name === table.migrationTableName && (table.migrationTableSchema === undefined || candidate.schema === table.migrationTableSchema),
  )
  if (!recorded) return
  const db = (table.migrationTableSchema === undefined ? kysely : kysely.withSchema(table.migrationTableSchema)) as unknown as Kysely<
    Record<string, { name: string }>
  >
  await db.transaction().execute(async (transaction) => {
    for (const [oldName, newName] of Object.entries(table.renames)) {
      await transaction.updateTable(table.migrationTableName).set({ name: newName }).where('name', '=', oldName).execute()
    }
  })
}
