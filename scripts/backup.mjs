// `pnpm backup [DEST]`: a consistent copy of the SQLite database and the written e-mails of DATA_DIR, taken while
// the site runs. DEST defaults to backups/<UTC timestamp> under the repository.
import path from 'node:path'
import { readConfig } from '../packages/config/src/index.ts'
import { backupDataDirectory } from '../packages/core/src/index.ts'

const { dataDir, databaseUrl } = readConfig(process.env).core
if (databaseUrl) {
  console.error(
    'DATABASE_URL is set, so the data is in PostgreSQL: back it up with pg_dump (pg_dump --format=custom --file=events.dump "$DATABASE_URL"), as docs/operations.md describes. Without SMTP_URL, copy DATA_DIR/mail too.',
  )
  process.exit(2)
}

const stamp = new Date()
  .toISOString()
  .replace(/\.\d+Z$/, 'Z')
  .replace(/:/g, '-')
// pnpm runs scripts from the repository root; a DEST typed in another directory means that directory.
const destination = path.resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2] ?? path.join(process.cwd(), 'backups', stamp))

try {
  const copy = await backupDataDirectory({ dataDir, destination })
  console.log(
    `Backed up ${dataDir} to ${destination}: ${copy.registrations} registrations, ${copy.mailFiles} e-mails; the database passed SQLite's integrity check.`,
  )
} catch (error) {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
