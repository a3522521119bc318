import { createServer } from 'node:net'
import { DatabaseSync } from 'node:sqlite'
import path from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { temporaryDirectory } from '../test-support.ts'
import { isDatabaseFault, isDatabaseUnreachable } from './faults.ts'
import { postgresClientConfig } from './open-database.ts'

async function errorOf(action: () => unknown): Promise<unknown> {
  try {
    await action()
  } catch (error) {
    return error
  }
  throw new Error('expected the action to fail')
}

async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const port = (probe.address() as { port: number }).port
  await new Promise((resolve) => probe.close(resolve))
  return port
}

describe('database faults', () => {
  it('counts a refused PostgreSQL connection as unreachable and as a fault', async () => {
    const client = new pg.Client(postgresClientConfig(`postgres://127.0.0.1:${await closedPort()}/test`))
    const error = await errorOf(() => client.connect())
    expect(isDatabaseUnreachable(error)).toBe(true)
    expect(isDatabaseFault(error)).toBe(true)
  })

  it('counts SQLite unable to write its file as a fault, and a wrong query as none', async () => {
    const { dir, remove } = temporaryDirectory()
    try {
      const file = path.join(dir, 'faults.sqlite')
      const writable = new DatabaseSync(file)
      writable.exec('create table notes (text text)')
      writable.close()
      const readOnly = new DatabaseSync(file, { readOnly: true })
      const readOnlyError = await errorOf(() => readOnly.exec(`insert into notes values ('x')`))
      const syntaxError = await errorOf(() => readOnly.exec('select from'))
      readOnly.close()
      expect(isDatabaseFault(readOnlyError)).toBe(true)
      expect(isDatabaseUnreachable(readOnlyError)).toBe(false)
      expect(isDatabaseFault(syntaxError)).toBe(false)
    } finally {
      remove()
    }
  })

  it.each([
    ['an SQLite disk I/O error (SQLITE_IOERR_WRITE)', { code: 'ERR_SQLITE_ERROR', errcode: 778, errstr: 'disk I/O error' }, true],
    ['an SQLite full disk', { code: 'ERR_SQLITE_ERROR', errcode: 13, errstr: 'database or disk is full' }, true],
    ['an SQLite constraint', { code: 'ERR_SQLITE_ERROR', errcode: 2067, errstr: 'UNIQUE constraint failed' }, false],
    ['a terminated PostgreSQL backend', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), true],
    ['PostgreSQL out of connections', Object.assign(new Error('too many clients already'), { code: '53300' }), true],
    ['a PostgreSQL unique violation', Object.assign(new Error('duplicate key'), { code: '23505' }), false],
    ['a connection pg saw end', new Error('Connection terminated unexpectedly'), true],
    ['a program error', new TypeError('x is undefined'), false],
    ['nothing', undefined, false],
  ])('tells %s', (_name, error, fault) => {
    expect(isDatabaseFault(error)).toBe(fault)
  })
})
