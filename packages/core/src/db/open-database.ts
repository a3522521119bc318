import { userInfo } from 'node:os'
import path from 'node:path'
import { Kysely, PostgresDialect, sql } from 'kysely'
import { migrateToLatest } from './migrate-to-latest.ts'
import { Migrator } from 'kysely/migration'
import pg from 'pg'
import { parseIntoClientConfig } from 'pg-connection-string'
import type { CoreDatabase, Database } from './database.ts'
import { isDatabaseUnreachable } from './faults.ts'
import { createGroupCommit } from './group-commit.ts'
import { migrationProvider, renamedMigrations } from './migrations/index.ts'
import { makePrivateDirectory, makeSqliteFilesPrivate } from '../private-files.ts'
import { createNodeSqliteDialect } from './node-sqlite.ts'
import { renameRecordedMigrations } from './rename-recorded-migrations.ts'

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; without it the data lives in SQLite under dataDir. */
  databaseUrl?: string | undefined
  dataDir: string
  /** PostgreSQL schema to work in (created when missing), e.g. one per test file. */
  schema?: string | undefined
  /** How long to keep retrying a PostgreSQL server that cannot be reached at startup (default 60 s). */
  startupWaitMs?: number | undefined
  /** Where the retries and lost connections are reported (default: standard error). */
  log?: ((line: string) => void) | undefined
  /** Waits between startup attempts; tests pass a fake one. */
  sleep?: ((ms: number) => Promise<void>) | undefined
  /**
   * True (the default) applies pending migrations; false leaves them to `pnpm db:migrate` and refuses a database
   * that has not had them (DatabaseBehindError).
   */
  migrate?: boolean | undefined
  /** PostgreSQL connections the pool opens at most (default 10). */
  poolMax?: number | undefined
  /** How long a query waits for a free connection when all are lent out, in ms (default 30 000). */
  poolWaitMs?: number | undefined
}

/** Thrown when migrations were left to `pnpm db:migrate` and the database has not had them yet. */
export class DatabaseBehindError extends Error {
  constructor(pending: string[]) {
    super(
      `the database lacks ${pending.length} migration(s) of this release (${pending.join(', ')}): run \`pnpm db:migrate\` first, or start with MIGRATE_ON_START=1`,
    )
    this.name = 'DatabaseBehindError'
  }
}

/** Thrown when PostgreSQL could not be reached within the startup wait; its message is the whole story. */
export class DatabaseUnreachableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'DatabaseUnreachableError'
  }
}

const DEFAULT_STARTUP_WAIT_MS = 60_000
const DEFAULT_POOL_MAX = 10
const FIRST_STARTUP_RETRY_MS = 1_000
const MAX_STARTUP_RETRY_MS = 10_000
// A server that accepts no connection (a dropped packet, a dead host) fails a request after this long, not never.
const CONNECT_TIMEOUT_MS = 5_000
// How long a request waits its turn for one of the pool's connections when all are lent out (a rush of buyers for the
// last seats, whose transactions take the seats' lock one after the other): long enough that each gets its answer
// (201 or sold out) rather than a 503, well inside the balancer's 60 s server timeout.
const POOL_WAIT_MS = 30_000

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/** Where the SQLite database of a data directory lives. */
export function sqliteFileOf(dataDir: string): string {
  return path.join(dataDir, 'events.sqlite')
}

/** pg client settings for a connection URL, with a user name even when the URL has none. */
export function postgresClientConfig(databaseUrl: string): pg.ClientConfig {
  const config = parseIntoClientConfig(databaseUrl)
  // Like libpq, fall back to PGUSER and then the operating-system user when the URL names no user.
  return { ...config, user: config.user || process.env.PGUSER || userInfo().username }
}

/** The server a connection URL names, without its password, for log lines. */
function describeServer(databaseUrl: string): string {
  const { host, port, database } = postgresClientConfig(databaseUrl)
  return `PostgreSQL at ${host ?? 'localhost'}:${port ?? 5432}/${database ?? ''}`
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const code = (error as { code?: unknown } | null)?.code
  return message || (typeof code === 'string' ? code : 'no answer')
}

async function createSchema(clientConfig: pg.ClientConfig, schema: string): Promise<void> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid PostgreSQL schema name: ${schema}`)
  const client = new pg.Client({ ...clientConfig, connectionTimeoutMillis: CONNECT_TIMEOUT_MS })
  // A connection dropped while this one-off client is open fails its query; the event must not end the process.
  client.on('error', () => {})
  await client.connect()
  try {
    await client.query(`create schema if not exists "${schema}"`)
  } finally {
    await client.end()
  }
}

/**
 * A pool that outlives its server: a connection the server drops (a restart, a failover, an idle kill) is logged
 * and discarded instead of ending the process, and the next query opens a fresh one.
 */
function createPostgresPool(databaseUrl: string, schema: string | undefined, log: (line: string) => void, max: number): pg.Pool {
  const pool = new pg.Pool({
    ...postgresClientConfig(databaseUrl),
    max,
    // pg-pool gives one timeout to both opening a connection and waiting for a free one; opening keeps its own (the
    // client's), and the wait is bounded apart by connectWithin.
    Client: ConnectingClient,
    connectionTimeoutMillis: 0,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  })
  // A connection the server drops is reported once, whether it sat idle in the pool or was lent out (pg tells of one
  // loss twice: the server's notice, then the closed socket). A lent-out connection's next query fails, and the pool
  // discards it on release.
  pool.on('connect', (client) => {
    client.once('error', (error) => log(`Database connection lost (${describeServer(databaseUrl)}): ${reason(error)}`))
    client.on('error', () => {})
  })
  // pg-pool passes an idle connection's loss on to the pool too, where without a listener Node would end the process.
  pool.on('error', () => {})
  return pool
}

/**
 * Brings the schema up to date; on failure closes the database and throws. On PostgreSQL the migrator is told the
 * schema it works in: otherwise it takes the migration tables of any other schema in the database (another test
 * run, another application) for its own, and fails.
 */
async function migrate(kysely: Kysely<Database>, apply: boolean, migrationTableSchema?: string): Promise<void> {
  const migrator = new Migrator({ db: kysely, provider: migrationProvider, ...(migrationTableSchema ? { migrationTableSchema } : {}) })
  if (!apply) {
    const pending = (await migrator.getMigrations()).filter((migration) => migration.executedAt === undefined).map((migration) => migration.name)
    if (pending.length === 0) return
    await kysely.destroy()
    throw new DatabaseBehindError(pending)
  }
  const { error } = await renameRecordedMigrations(kysely as unknown as Kysely<unknown>, {
    migrationTableName: 'kysely_migration',
    migrationTableSchema,
    renames: renamedMigrations,
  }).then(
    () => migrateToLatest(migrator),
    (renameError: unknown) => ({ error: renameError }),
  )
  if (error) {
    await kysely.destroy()
    throw error instanceof Error ? error : new Error(`Database migration failed: ${String(error)}`)
  }
}

/** A client that gives up opening its connection after CONNECT_TIMEOUT_MS. */
class ConnectingClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS })
  }
}

/**
 * A connection from the pool within `waitMs`, or the error pg-pool itself gives for a timed-out wait (a database fault:
 * the request answers 503). A connection that comes after the caller gave up goes straight back to the pool.
 */
async function connectWithin(pool: pg.Pool, waitMs: number): Promise<pg.PoolClient> {
  const connecting = pool.connect()
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout exceeded when trying to connect')), waitMs)
  })
  try {
    return await Promise.race([connecting, timedOut])
  } catch (error) {
    connecting.then(
      (client) => client.release(),
      () => undefined,
    )
    throw error
  } finally {
    clearTimeout(timer)
  }
}

async function openPostgres(databaseUrl: string, options: OpenDatabaseOptions): Promise<CoreDatabase> {
  const log = options.log ?? ((line: string) => console.error(line))
  const pool = createPostgresPool(databaseUrl, options.schema, log, options.poolMax ?? DEFAULT_POOL_MAX)
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: { Client: ConnectingClient, options: pool.options, connect: () => connectWithin(pool, options.poolWaitMs ?? POOL_WAIT_MS), end: () => pool.end() },
    }),
  })
  if (options.schema !== undefined) {
    try {
      await createSchema(postgresClientConfig(databaseUrl), options.schema)
    } catch (error) {
      await kysely.destroy()
      throw error
    }
  }
  let currentSchema: string | undefined
  try {
    currentSchema = (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(kysely)).rows[0]?.schema ?? undefined
  } catch (error) {
    await kysely.destroy()
    throw error
  }
  await migrate(kysely, options.migrate ?? true, currentSchema)
  return {
    kysely,
    dialect: 'postgres',
    writeTransaction: (unit) => kysely.transaction().execute(unit),
    writeStatement: (statement) => statement(kysely),
    postgresPool: pool,
    close: () => kysely.destroy(),
  }
}

/**
 * Opens PostgreSQL, retrying while the server cannot be reached (it may be starting alongside this process) with
 * a doubling wait, one log line per attempt, for up to startupWaitMs; then gives up with DatabaseUnreachableError.
 */
async function openPostgresWhenReachable(databaseUrl: string, options: OpenDatabaseOptions): Promise<CoreDatabase> {
  const log = options.log ?? ((line: string) => console.error(line))
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const waitMs = options.startupWaitMs ?? DEFAULT_STARTUP_WAIT_MS
  const server = describeServer(databaseUrl)
  let waited = 0
  for (let attempt = 1; ; attempt++) {
    try {
      return await openPostgres(databaseUrl, options)
    } catch (error) {
      if (!isDatabaseUnreachable(error)) throw error
      const left = waitMs - waited
      if (left <= 0) {
        throw new DatabaseUnreachableError(`Could not reach ${server} within ${Math.round(waitMs / 1000)} s (${reason(error)}); exiting.`, { cause: error })
      }
      const delay = Math.min(FIRST_STARTUP_RETRY_MS * 2 ** (attempt - 1), MAX_STARTUP_RETRY_MS, left)
      log(`${server} is not reachable (${reason(error)}); attempt ${attempt}, retrying in ${(delay / 1000).toFixed(1)} s`)
      await sleep(delay)
      waited += delay
    }
  }
}

/** Opens SQLite under dataDir (or PostgreSQL when databaseUrl is set) and brings its schema up to date. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<CoreDatabase> {
  if (options.databaseUrl) return openPostgresWhenReachable(options.databaseUrl, options)
  const databaseFile = sqliteFileOf(options.dataDir)
  // Registrants' personal data: readable by the server's own user only.
  await makePrivateDirectory(options.dataDir)
  await makeSqliteFilesPrivate(databaseFile)
  const kysely = new Kysely<Database>({ dialect: createNodeSqliteDialect(databaseFile) })
  await migrate(kysely, options.migrate ?? true)
  const writeTransaction = createGroupCommit(kysely)
  return { kysely, dialect: 'sqlite', writeTransaction, writeStatement: (statement) => writeTransaction(statement), close: () => kysely.destroy() }
}
