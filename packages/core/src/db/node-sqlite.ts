import { foldForSearch } from '../backoffice/search-fold.ts'
import { DatabaseSync, type SQLInputValue } from 'node:sqlite'
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from 'kysely'

const MAX_CACHED_STATEMENTS = 500

function toSqliteValue(value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0
  if (value === undefined) return null
  return value as SQLInputValue
}

function toSqliteValues(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map(toSqliteValue)
}

/**
 * Presents node:sqlite's DatabaseSync with the interface Kysely's own SQLite dialect drives, so the
 * adapter, query compiler, introspector and single-connection mutex all come from Kysely.
 */
function asKyselySqliteDatabase(database: DatabaseSync): SqliteDatabase {
  // Kysely prepares every query afresh; the queries are a small fixed set, so compiling each SQL text once
  // saves SQLite's parse and plan on every request. Kysely's mutex keeps one statement in use at a time.
  // Multi-row inserts vary the text with the row count, so the cache is bounded all the same.
  const statements = new Map<string, SqliteStatement>()
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      const cached = statements.get(sql)
      if (cached) return cached
      const statement = database.prepare(sql)
      const prepared: SqliteStatement = {
        // A statement yields rows when it has result columns (SELECT, or a write with RETURNING).
        reader: statement.columns().length > 0,
        all: (parameters) => statement.all(...toSqliteValues(parameters)),
        run: (parameters) => statement.run(...toSqliteValues(parameters)),
        iterate: (parameters) => statement.iterate(...toSqliteValues(parameters)),
      }
      if (statements.size >= MAX_CACHED_STATEMENTS) statements.clear()
      statements.set(sql, prepared)
      return prepared
    },
  }
}

/**
 * Kysely's SQLite driver, with transactions that take the write lock as they begin (BEGIN IMMEDIATE). A deferred
 * transaction that reads and then writes fails at once with SQLITE_BUSY when another process (a second instance on
 * the same file, the admin command line) committed in between, whatever busy_timeout says; an immediate one waits
 * for the lock instead. Within one process the writes already go one transaction at a time (group commit).
 */
class ImmediateTransactionDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }
}

class ImmediateTransactionDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig

  constructor(config: SqliteDialectConfig) {
    super(config)
    this.#config = config
  }

  override createDriver(): Driver {
    return new ImmediateTransactionDriver(this.#config)
  }
}

/** Opens a SQLite file with node:sqlite, durable on every commit (WAL, synchronous=FULL), as a Kysely dialect. */
export function createNodeSqliteDialect(filename: string): SqliteDialect {
  const database = new DatabaseSync(filename)
  database.exec('PRAGMA journal_mode = WAL')
  database.exec('PRAGMA synchronous = FULL')
  database.exec('PRAGMA foreign_keys = ON')
  database.exec('PRAGMA busy_timeout = 5000')
  // The back office's search folds case and accents in SQL; PostgreSQL does it with translate().
  database.function('search_fold', { deterministic: true }, (text) => (typeof text === 'string' ? foldForSearch(text) : text))
  return new ImmediateTransactionDialect({ database: asKyselySqliteDatabase(database) })
}
