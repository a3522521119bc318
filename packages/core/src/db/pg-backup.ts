import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import { postgresClientConfig } from './open-database.ts'

/**
 * The tables whose rows are money or promises of money: the restore check compares their row counts in the backup's
 * snapshot with those of the restored copy. A table an older release does not have is left out of both.
 */
const MONEY_TABLES = [
  'registrations',
  'invoices',
  'invoice_counters',
  'credit_notes',
  'bank_payments',
  'refunds',
  'surplus_refunds',
  'sponsorship_deals',
  'sponsorship_invoices',
  'sponsorship_payments',
  'sponsorship_credit_notes',
  'outbox_messages',
] as const

const DUMP_FILE = 'events.dump'
const COUNTS_FILE = 'counts.json'
const PRIVATE_FILE = 0o600
const PRIVATE_DIRECTORY = 0o700

export interface PostgresBackup {
  dumpFile: string
  schema: string
  /** Rows per money table, in the snapshot the dump was taken in. */
  counts: Record<string, number>
}

function quoted(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`
}

async function countRows(client: pg.Client, schema: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const table of MONEY_TABLES) {
    const present = await client.query<{ exists: boolean }>('select to_regclass($1) is not null as exists', [`${quoted(schema)}.${quoted(table)}`])
    if (!present.rows[0]?.exists) continue
    const result = await client.query<{ count: string }>(`select count(*) as count from ${quoted(schema)}.${quoted(table)}`)
    counts[table] = Number(result.rows[0]?.count)
  }
  return counts
}

/**
 * Runs one of PostgreSQL's client programs on the database the URL names, its password in the environment rather
 * than on the command line (which other users of the machine can read); a missing program is named with the package
 * that brings it.
 */
function runTool(program: 'pg_dump' | 'pg_restore', args: string[], databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl)
  const password = decodeURIComponent(url.password)
  url.password = ''
  // libpq decodes %20 but not the + that URLSearchParams writes for a space (options=-c+search_path=…).
  url.search = [...url.searchParams].map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&')
  const env = password ? { ...process.env, PGPASSWORD: password } : process.env
  return new Promise((resolve, reject) => {
    const child = spawn(program, [...args, `--dbname=${url.toString()}`], { env, stdio: ['ignore', 'ignore', 'pipe'] })
    let errors = ''
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()))
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT' ? new Error(`${program} is not installed: install PostgreSQL's client programs (apt-get install postgresql-client)`) : error,
      ),
    )
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${program} failed (exit ${code}): ${errors.trim()}`))))
  })
}

/**
 * Dumps the site's schema (the connection's current schema) with pg_dump in its custom format, while the site runs:
 * pg_dump reads the snapshot of a read-only transaction that also counts the money tables, so the counts written
 * beside the dump are exactly what it holds. Every file is readable by its owner only.
 */
export async function backupPostgres({ databaseUrl, destination }: { databaseUrl: string; destination: string }): Promise<PostgresBackup> {
  const dumpFile = path.join(destination, DUMP_FILE)
  if (existsSync(dumpFile)) throw new Error(`${dumpFile} already exists; choose an empty destination`)
  const client = new pg.Client(postgresClientConfig(databaseUrl))
  await client.connect()
  try {
    await mkdir(destination, { recursive: true, mode: PRIVATE_DIRECTORY })
    await chmod(destination, PRIVATE_DIRECTORY)
    await client.query('begin isolation level repeatable read read only')
    const { rows } = await client.query<{ snapshot: string; schema: string }>('select pg_export_snapshot() as snapshot, current_schema() as schema')
    const { snapshot, schema } = rows[0]!
    const counts = await countRows(client, schema)
    await runTool('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, `--schema=${schema}`, '--no-owner', `--file=${dumpFile}`], databaseUrl)
    await client.query('commit')
    await chmod(dumpFile, PRIVATE_FILE)
    const countsFile = path.join(destination, COUNTS_FILE)
    await writeFile(countsFile, `${JSON.stringify({ schema, counts }, null, 2)}\n`, { mode: PRIVATE_FILE })
    return { dumpFile, schema, counts }
  } finally {
    await client.end()
  }
}

/**
 * Restores a backupPostgres copy into the database `databaseUrl` names, which must not hold the site's tables yet (a
 * fresh database: restoring over a live one would mix two histories), then checks the restore: every money table
 * must have the rows the backup counted in its snapshot.
 */
export async function restorePostgres({ databaseUrl, source }: { databaseUrl: string; source: string }): Promise<PostgresBackup> {
  const dumpFile = path.join(source, DUMP_FILE)
  if (!existsSync(dumpFile)) throw new Error(`There is no ${DUMP_FILE} in ${source}; name the folder pnpm backup wrote`)
  const expected = JSON.parse(await readFile(path.join(source, COUNTS_FILE), 'utf8')) as { schema: string; counts: Record<string, number> }

  const client = new pg.Client(postgresClientConfig(databaseUrl))
  await client.connect()
  try {
    const taken = await client.query<{ taken: boolean }>('select to_regclass($1) is not null as taken', [`${quoted(expected.schema)}.registrations`])
    if (taken.rows[0]?.taken) {
      throw new Error(`The database already has the site's tables in schema ${expected.schema}: restore into a fresh database, then point DATABASE_URL at it`)
    }
    await runTool('pg_restore', ['--no-owner', '--exit-on-error', '--single-transaction', dumpFile], databaseUrl)
    const counts = await countRows(client, expected.schema)
    const differing = Object.keys({ ...expected.counts, ...counts }).filter((table) => counts[table] !== expected.counts[table])
    if (differing.length > 0) {
      const detail = differing.map((table) => `${table} ${counts[table] ?? 'missing'} (backup: ${expected.counts[table] ?? 'missing'})`).join(', ')
      throw new Error(`The restored copy does not match the backup: ${detail}`)
    }
    return { dumpFile, schema: expected.schema, counts }
  } finally {
    await client.end()
  }
}
