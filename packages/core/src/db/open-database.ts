import { mkdirSync } from 'node:fs'
import { userInfo } from 'node:os'
import path from 'node:path'
import { Kysely, PostgresDialect, type Dialect } from 'kysely'
import { Migrator } from 'kysely/migration'
import pg from 'pg'
import { parseIntoClientConfig } from 'pg-connection-string'
import type { CoreDatabase, Database, SqlDialectName } from './database.ts'
import { createGroupCommit } from './group-commit.ts'
import { migrationProvider } from './migrations/index.ts'
import { createNodeSqliteDialect } from './node-sqlite.ts'

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; without it the data lives in SQLite under dataDir. */
  databaseUrl?: string | undefined
  dataDir: string
  /** PostgreSQL schema to work in (created when missing), e.g. one per test file. */
  schema?: string | undefined
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/** pg client settings for a connection URL, with a user name even when the URL has none. */
export function postgresClientConfig(databaseUrl: string): pg.ClientConfig {
  const config = parseIntoClientConfig(databaseUrl)
  // Like libpq, fall back to PGUSER and then the operating-system user when the URL names no user.
  return { ...config, user: config.user || process.env.PGUSER || userInfo().username }
}

async function createPostgresDialect(databaseUrl: string, schema: string | undefined): Promise<Dialect> {
  const clientConfig = postgresClientConfig(databaseUrl)
  if (schema !== undefined) {
    if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid PostgreSQL schema name: ${schema}`)
    const client = new pg.Client(clientConfig)
    await client.connect()
    try {
      await client.query(`create schema if not exists "${schema}"`)
    } finally {
      await client.end()
    }
  }
  const pool = new pg.Pool({
    ...clientConfig,
    max: 10,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  })
  return new PostgresDialect({ pool })
}

/** Opens SQLite under dataDir (or PostgreSQL when databaseUrl is set) and brings its schema up to date. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<CoreDatabase> {
  let dialect: Dialect
  let dialectName: SqlDialectName
  if (options.databaseUrl) {
    dialect = await createPostgresDialect(options.databaseUrl, options.schema)
    dialectName = 'postgres'
  } else {
    mkdirSync(options.dataDir, { recursive: true })
    dialect = createNodeSqliteDialect(path.join(options.dataDir, 'events.sqlite'))
    dialectName = 'sqlite'
  }
  const kysely = new Kysely<Database>({ dialect })
  const migrator = new Migrator({ db: kysely, provider: migrationProvider })
  const { error } = await migrator.migrateToLatest()
  if (error) {
    await kysely.destroy()
    throw error instanceof Error ? error : new Error(`Database migration failed: ${String(error)}`)
  }
  const writeTransaction: CoreDatabase['writeTransaction'] =
    dialectName === 'sqlite' ? createGroupCommit(kysely) : (unit) => kysely.transaction().execute(unit)
  return { kysely, dialect: dialectName, writeTransaction, close: () => kysely.destroy() }
}
