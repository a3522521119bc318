import { connect, createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { sql, type Kysely } from 'kysely'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { CoreDatabase, Database } from './database.ts'
import { isDatabaseFault } from './faults.ts'
import { DatabaseBehindError, DatabaseUnreachableError, openDatabase, postgresClientConfig } from './open-database.ts'

describe('opening PostgreSQL at startup', () => {
  let refusing: Server | undefined
  afterEach(() => refusing?.close())

  it('retries an unreachable server with a doubling wait, one line per attempt, then gives up with one clear line', async () => {
    // Accepts and drops every connection, as a server that is going down does.
    refusing = createServer((socket) => socket.destroy())
    await new Promise<void>((resolve) => refusing!.listen(0, '127.0.0.1', resolve))
    const port = (refusing.address() as { port: number }).port
    const lines: string[] = []
    const waits: number[] = []
    const opening = openDatabase({
      databaseUrl: `postgres://user:secret@127.0.0.1:${port}/events`,
      dataDir: tmpdir(),
      startupWaitMs: 20_000,
      log: (line) => lines.push(line),
      sleep: async (ms) => {
        waits.push(ms)
      },
    })
    const error = await opening.then(
      () => undefined,
      (failure: unknown) => failure,
    )
    expect(error).toBeInstanceOf(DatabaseUnreachableError)
    expect((error as Error).message).toBe(`Could not reach PostgreSQL at 127.0.0.1:${port}/events within 20 s (Connection terminated unexpectedly); exiting.`)
    expect(waits).toEqual([1000, 2000, 4000, 8000, 5000])
    expect(lines).toHaveLength(5)
    expect(lines[0]).toBe(`PostgreSQL at 127.0.0.1:${port}/events is not reachable (Connection terminated unexpectedly); attempt 1, retrying in 1.0 s`)
    expect(lines.join('\n')).not.toContain('secret')
  })
})

const POSTGRES_URLS = process.env.TEST_DATABASE_URL ? [process.env.TEST_DATABASE_URL] : []

describe.each(POSTGRES_URLS)('PostgreSQL faults (%s)', (databaseUrl) => {
  let proxy: Server | undefined
  let opened: CoreDatabase | undefined
  const schema = `open_faults_${Date.now().toString(36)}`
  afterEach(async () => {
    proxy?.close()
    await opened?.close()
    opened = undefined
  })
  afterAll(async () => {
    await withAdmin((admin) => admin.query(`drop schema if exists "${schema}" cascade`))
  })

  async function withAdmin<T>(use: (admin: pg.Client) => Promise<T>): Promise<T> {
    const admin = new pg.Client(postgresClientConfig(databaseUrl))
    await admin.connect()
    try {
      return await use(admin)
    } finally {
      await admin.end()
    }
  }

  function backendPid(executor: Kysely<Database>): Promise<number> {
    return sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(executor).then(({ rows }) => rows[0]!.pid)
  }

  it('opens once the server answers within the wait', async () => {
    const target = postgresClientConfig(databaseUrl)
    // A proxy that drops the first two connections, then passes them on: a server coming up.
    let refusals = 2
    proxy = createServer((socket) => {
      if (refusals-- > 0) {
        socket.destroy()
        return
      }
      const upstream = connect(Number(target.port ?? 5432), String(target.host ?? '127.0.0.1'))
      socket.pipe(upstream).pipe(socket)
      socket.on('error', () => upstream.destroy())
      upstream.on('error', () => socket.destroy())
    })
    await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve))
    const port = (proxy.address() as { port: number }).port
    const lines: string[] = []
    opened = await openDatabase({
      databaseUrl: `postgres://${target.user}@127.0.0.1:${port}/${target.database}`,
      dataDir: tmpdir(),
      schema,
      log: (line) => lines.push(line),
      sleep: async () => {},
    })
    expect(lines).toHaveLength(2)
    expect((await sql<{ one: number }>`select 1 as one`.execute(opened.kysely)).rows).toEqual([{ one: 1 }])
  })

  it('migrates a fresh schema beside another schema that has its own migration tables', async () => {
    const neighbour = `${schema}_neighbour`
    const first = await openDatabase({ databaseUrl, dataDir: tmpdir(), schema: neighbour })
    try {
      opened = await openDatabase({ databaseUrl, dataDir: tmpdir(), schema })
      const tables = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = ${schema}`.execute(opened.kysely)
      expect(tables.rows.map((row) => row.name)).toEqual(expect.arrayContaining(['kysely_migration', 'kysely_migration_lock', 'registrations']))
    } finally {
      await first.close()
      await withAdmin((admin) => admin.query(`drop schema if exists "${neighbour}" cascade`))
    }
  })

  it('does not retry what waiting cannot fix', async () => {
    const url = new URL(databaseUrl)
    url.pathname = '/no_such_database_here'
    const lines: string[] = []
    await expect(openDatabase({ databaseUrl: url.toString(), dataDir: tmpdir(), log: (line) => lines.push(line) })).rejects.toThrow(/does not exist/)
    expect(lines).toEqual([])
  })

  it('lets a query wait its turn for a connection longer than a connection takes to open, then answers it', async () => {
    opened = await openDatabase({ databaseUrl, dataDir: tmpdir(), schema, poolMax: 1 })
    const db = opened
    // The only connection is held for 6 s (longer than the 5 s a new connection may take to open): the second query
    // waits for it instead of failing.
    const holding = db.kysely.connection().execute(async (connection) => {
      await sql`select pg_sleep(6)`.execute(connection)
      return backendPid(connection)
    })
    await new Promise((resolve) => setTimeout(resolve, 200))
    const started = performance.now()
    const waited = await backendPid(db.kysely)
    expect(performance.now() - started).toBeGreaterThan(5_000)
    expect(waited).toBe(await holding)
  }, 20_000)

  it('gives up waiting for a connection after the wait allowed, as a database fault, and lends the late connection out again', async () => {
    opened = await openDatabase({ databaseUrl, dataDir: tmpdir(), schema, poolMax: 1, poolWaitMs: 500 })
    const db = opened
    const holding = db.kysely.connection().execute((connection) => sql`select pg_sleep(1.5)`.execute(connection))
    await new Promise((resolve) => setTimeout(resolve, 100))
    const refused = await backendPid(db.kysely).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(isDatabaseFault(refused)).toBe(true)
    await holding
    expect(await backendPid(db.kysely)).toEqual(expect.any(Number))
    expect(await backendPid(db.kysely)).toEqual(expect.any(Number))
  })

  it('survives its idle connections being terminated, says so, and answers the next query', async () => {
    const lines: string[] = []
    opened = await openDatabase({ databaseUrl, dataDir: tmpdir(), schema, log: (line) => lines.push(line) })
    const pid = await backendPid(opened.kysely)
    await withAdmin((admin) => admin.query('select pg_terminate_backend($1)', [pid]))
    await vi.waitFor(() => expect(lines.join('\n')).toContain('Database connection lost'))
    expect(await backendPid(opened.kysely)).not.toBe(pid)
    expect(lines.filter((line) => line.includes('Database connection lost'))).toHaveLength(1)
  })

  it('survives a connection terminated while it is lent out between two queries, and says so once', async () => {
    const lines: string[] = []
    opened = await openDatabase({ databaseUrl, dataDir: tmpdir(), schema, log: (line) => lines.push(line) })
    const db = opened
    const failure = await db.kysely.connection().execute(async (connection) => {
      const pid = await backendPid(connection)
      await withAdmin((admin) => admin.query('select pg_terminate_backend($1)', [pid]))
      // The server's notice arrives while no query is running on this connection.
      await new Promise((resolve) => setTimeout(resolve, 200))
      return backendPid(connection).then(
        () => undefined,
        (error: unknown) => error,
      )
    })
    expect(isDatabaseFault(failure)).toBe(true)
    expect(await backendPid(db.kysely)).toEqual(expect.any(Number))
    expect(lines.filter((line) => line.includes('Database connection lost'))).toHaveLength(1)
  })
})

describe('migrations left to `pnpm db:migrate`', () => {
  it('refuses a database that lacks migrations, then opens it once they were applied', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs')
    const path = await import('node:path')
    const dataDir = mkdtempSync(path.join(tmpdir(), 'events-migrate-'))
    try {
      const behind = await openDatabase({ dataDir, migrate: false }).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(behind).toBeInstanceOf(DatabaseBehindError)
      expect((behind as Error).message).toMatch(/lacks \d+ migration\(s\) of this release \(2025-06-01-initial, .*\): run `pnpm db:migrate` first/)

      await (await openDatabase({ dataDir })).close()
      const opened = await openDatabase({ dataDir, migrate: false })
      await opened.kysely.selectFrom('readiness_checks').selectAll().execute()
      await opened.close()
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
