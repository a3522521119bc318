import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Kysely, PostgresDialect, sql } from 'kysely'
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration'
import pg from 'pg'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TEST_BACKENDS } from '../test-support.ts'
import { migrationProvider, renamedMigrations } from './migrations/index.ts'
import { openDatabase, postgresClientConfig, sqliteFileOf, type OpenDatabaseOptions } from './open-database.ts'
import { createNodeSqliteDialect } from './node-sqlite.ts'

// The last migration those releases had; migrations written since came after the renaming and never had old names.
const LAST_BEFORE_RENAMING = Object.values(renamedMigrations).sort().at(-1)!

/** The core's migrations as the releases before the renaming named them. */
const providerUnderOldNames: MigrationProvider = {
  async getMigrations() {
    const newToOld = new Map(Object.entries(renamedMigrations).map(([oldName, newName]) => [newName, oldName]))
    const migrations = await migrationProvider.getMigrations()
    return Object.fromEntries(
      Object.entries(migrations)
        .filter(([name]) => name <= LAST_BEFORE_RENAMING)
        .map(([name, migration]): [string, Migration] => [newToOld.get(name) ?? name, migration]),
    )
  },
}

interface EmptyDatabase {
  /** A connection on the database that runs no migration of its own, as an earlier release's would. */
  kysely: Kysely<unknown>
  openOptions: OpenDatabaseOptions
  migrationTableSchema?: string
  dispose(): Promise<void>
}

async function emptyDatabase(backend: 'sqlite' | 'postgres'): Promise<EmptyDatabase> {
  if (backend === 'sqlite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'events-renamed-'))
    const kysely = new Kysely<unknown>({ dialect: createNodeSqliteDialect(sqliteFileOf(dataDir)) })
    return {
      kysely,
      openOptions: { dataDir },
      async dispose() {
        await kysely.destroy()
        rmSync(dataDir, { recursive: true, force: true })
      },
    }
  }
  const databaseUrl = process.env.TEST_DATABASE_URL ?? ''
  const schema = `renamed_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const admin = new pg.Client(postgresClientConfig(databaseUrl))
  await admin.connect()
  await admin.query(`create schema "${schema}"`)
  await admin.end()
  const pool = new pg.Pool({ ...postgresClientConfig(databaseUrl), options: `-c search_path=${schema}` })
  const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) })
  return {
    kysely,
    openOptions: { databaseUrl, dataDir: tmpdir(), schema },
    migrationTableSchema: schema,
    async dispose() {
      await kysely.destroy()
      const client = new pg.Client(postgresClientConfig(databaseUrl))
      await client.connect()
      await client.query(`drop schema if exists "${schema}" cascade`)
      await client.end()
    },
  }
}

describe.each(TEST_BACKENDS)('a database that ran migrations under their old names, on %s', (backend) => {
  let database: EmptyDatabase

  beforeEach(async () => {
    database = await emptyDatabase(backend)
  })
  afterEach(async () => {
    await database.dispose()
  })

  const oldRelease = () =>
    new Migrator({
      db: database.kysely,
      provider: providerUnderOldNames,
      ...(database.migrationTableSchema ? { migrationTableSchema: database.migrationTableSchema } : {}),
    })
  const recorded = async () =>
    (await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration order by name`.execute(database.kysely)).rows.map((row) => ({
      name: row.name,
      timestamp: String(row.timestamp),
    }))
  const currentNames = async () => Object.keys(await migrationProvider.getMigrations()).sort()

  it('opens with every recorded name renamed, its run time kept, and nothing run again', async () => {
    expect((await oldRelease().migrateToLatest()).error).toBeUndefined()
    const before = await recorded()
    expect(before.map((row) => row.name)).toContain('2026-11-30-joining-mails')

    const db = await openDatabase(database.openOptions)
    await db.close()

    const after = await recorded()
    expect(after.map((row) => row.name)).toEqual(await currentNames())
    const renamedBefore = before.map((row) => ({ name: renamedMigrations[row.name] ?? row.name, timestamp: row.timestamp }))
    // Migrations written since the renaming run after them; the ones the old release ran keep their run time.
    expect(after.slice(0, before.length)).toEqual(renamedBefore.sort((a, b) => (a.name < b.name ? -1 : 1)))
  })

  it('opens one that ran only part of them under their old names, renames that part and runs the rest', async () => {
    expect((await oldRelease().migrateTo('2026-11-28-quotes')).error).toBeUndefined()
    expect((await recorded()).map((row) => row.name)).not.toContain('2026-11-29-check-ins')

    const db = await openDatabase(database.openOptions)
    await db.close()

    expect((await recorded()).map((row) => row.name)).toEqual(await currentNames())
    const tables = (await database.kysely.introspection.getTables()).map((table) => table.name)
    expect(tables).toEqual(expect.arrayContaining(['quotes', 'check_ins', 'certificates']))
  })

  it('a second opening finds nothing left to rename and changes nothing', async () => {
    expect((await oldRelease().migrateToLatest()).error).toBeUndefined()
    await (await openDatabase(database.openOptions)).close()
    const once = await recorded()
    await (await openDatabase(database.openOptions)).close()
    expect(await recorded()).toEqual(once)
  })
})
