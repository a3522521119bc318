// `pnpm backup [DEST]`: a consistent copy of the site's data, taken while the site runs. With SQLite, the database and
// the written e-mails of DATA_DIR; with PostgreSQL (DATABASE_URL), a pg_dump of the site's schema and the row counts
// of its money tables in the same snapshot, for `pnpm restore` to check against. DEST defaults to
// backups/<UTC timestamp> under the repository.
import path from 'node:path'
import { readConfig } from '../packages/config/src/index.ts'
import { backupDataDirectory, backupPostgres } from '../packages/core/src/index.ts'

const { dataDir, databaseUrl } = readConfig(process.env).core

const stamp = new Date()
  .toISOString()
  .replace(/\.\d+Z$/, 'Z')
  .replace(/:/g, '-')
// pnpm runs scripts from the repository root; a DEST typed in another directory means that directory.
const destination = path.resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2] ?? path.join(process.cwd(), 'backups', stamp))

try {
  if (databaseUrl) {
    const copy = await backupPostgres({ databaseUrl, destination })
    const counts = Object.entries(copy.counts)
      .map(([table, rows]) => `${rows} ${table}`)
      .join(', ')
    console.log(`Backed up PostgreSQL schema ${copy.schema} to ${copy.dumpFile} (${counts}); pnpm restore ${destination} restores it into a fresh database.`)
  } else {
    const copy = await backupDataDirectory({ dataDir, destination })
    console.log(
      `Backed up ${dataDir} to ${destination}: ${copy.registrations} registrations, ${copy.mailFiles} e-mails; the database passed SQLite's integrity check.`,
    )
  }
} catch (error) {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
