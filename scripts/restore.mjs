// `pnpm restore SOURCE`: restores a PostgreSQL backup that `pnpm backup` wrote into the fresh database DATABASE_URL
// names, then checks it: every money table must have the rows the backup counted. See docs/operations.md.
import path from 'node:path'
import { readConfig } from '../packages/config/src/index.ts'
import { restorePostgres } from '../packages/core/src/index.ts'

const { databaseUrl } = readConfig(process.env).core
const [source] = process.argv.slice(2)
if (!databaseUrl || !source) {
  console.error(
    'Usage: DATABASE_URL=postgres://…/fresh-database pnpm restore BACKUP_FOLDER (a PostgreSQL backup from pnpm backup). A SQLite backup is restored by copying its files: see docs/operations.md.',
  )
  process.exit(2)
}

try {
  // pnpm runs scripts from the repository root; a folder typed in another directory means that directory.
  const restored = await restorePostgres({ databaseUrl, source: path.resolve(process.env.INIT_CWD ?? process.cwd(), source) })
  const counts = Object.entries(restored.counts)
    .map(([table, rows]) => `${rows} ${table}`)
    .join(', ')
  console.log(`Restored schema ${restored.schema} from ${restored.dumpFile}; the restore check found every money table as backed up (${counts}).`)
} catch (error) {
  console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
