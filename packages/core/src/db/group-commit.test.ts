import { spawn } from 'node:child_process'
import path from 'node:path'
import { Kysely, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { temporaryDirectory } from '../test-support.ts'
import { createGroupCommit, type WriteTransactionRunner } from './group-commit.ts'
import { createNodeSqliteDialect } from './node-sqlite.ts'

interface Schema {
  parents: { id: number }
  children: { id: number; parent_id: number }
}

describe('group commit on SQLite', () => {
  let directory: ReturnType<typeof temporaryDirectory>
  let kysely: Kysely<Schema>
  let write: WriteTransactionRunner<Schema>
  let events: string[]

  beforeEach(async () => {
    directory = temporaryDirectory()
    events = []
    kysely = new Kysely<Schema>({
      dialect: createNodeSqliteDialect(path.join(directory.dir, 'test.sqlite')),
      log: (event) => {
        if (/^(begin|commit|rollback)/i.test(event.query.sql)) events.push(event.query.sql.toLowerCase())
      },
    })
    await sql`create table parents (id integer primary key)`.execute(kysely)
    // Checked at COMMIT, so a test can make the shared commit itself fail.
    await sql`create table children (id integer primary key, parent_id integer not null references parents (id) deferrable initially deferred)`.execute(kysely)
    events = []
    write = createGroupCommit(kysely)
  })

  afterEach(async () => {
    await kysely.destroy()
    directory.remove()
  })

  const insertParent = (id: number) => (transaction: Parameters<Parameters<typeof write>[0]>[0]) =>
    transaction
      .insertInto('parents')
      .values({ id })
      .execute()
      .then(() => id)

  const storedParents = async () => (await kysely.selectFrom('parents').select('id').orderBy('id').execute()).map((row) => row.id)

  it('runs the writes that arrive together in one transaction and answers each with its own result', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => write(insertParent(index + 1))))

    expect(results).toEqual(Array.from({ length: 20 }, (_, index) => index + 1))
    expect(await storedParents()).toEqual(results)
    expect(events.filter((event) => event === 'commit')).toHaveLength(1)
  })

  it('settles no write before the commit that holds it has returned, and queues later writes for the next commit', async () => {
    const settled = (id: number) => events.push(`settled ${id}`)
    let arrivedDuringCommit: Promise<number> | undefined
    await Promise.all([
      write(async (transaction) => {
        arrivedDuringCommit = write(insertParent(3))
        void arrivedDuringCommit.then(settled)
        return insertParent(1)(transaction)
      }).then(settled),
      write(insertParent(2)).then(settled),
    ])
    await arrivedDuringCommit

    expect(events).toEqual(['begin immediate', 'commit', 'settled 1', 'settled 2', 'begin immediate', 'commit', 'settled 3'])
    expect(await storedParents()).toEqual([1, 2, 3])
  })

  it('rolls back only the writes of a unit that throws, and rejects that unit alone', async () => {
    const failure = new Error('this unit fails after writing')
    const outcomes = await Promise.allSettled([
      write(insertParent(1)),
      write(insertParent(2)),
      write(async (transaction) => {
        await transaction.insertInto('parents').values({ id: 3 }).execute()
        throw failure
      }),
      write(insertParent(4)),
    ])

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled'])
    expect(outcomes[2]).toEqual({ status: 'rejected', reason: failure })
    expect(await storedParents()).toEqual([1, 2, 4])
  })

  it('rejects every unit of a batch whose commit fails, stores none of them, and goes on with the next writes', async () => {
    await write(insertParent(1))
    const outcomes = await Promise.allSettled([
      write(insertParent(2)),
      write(insertParent(3)),
      // A child of a parent that does not exist: the deferred foreign key fails the shared COMMIT.
      write((transaction) => transaction.insertInto('children').values({ id: 1, parent_id: 99 }).execute()),
    ])

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected'])
    expect(await storedParents()).toEqual([1])

    await write(insertParent(5))
    expect(await storedParents()).toEqual([1, 5])
  })
})

describe('SQLite transactions beside another process', () => {
  it('take the write lock as they begin: a transaction that reads then writes finishes, and the other process waits its turn', async () => {
    const directory = temporaryDirectory()
    const file = path.join(directory.dir, 'shared.sqlite')
    const kysely = new Kysely<{ notes: { text: string } }>({ dialect: createNodeSqliteDialect(file) })
    try {
      await sql`create table notes (text text not null)`.execute(kysely)
      const transaction = await kysely.startTransaction().execute()
      await transaction.selectFrom('notes').select('text').execute()
      // A second instance on the same file writes now, waiting up to five seconds for the lock as the site's do.
      const other = spawn(process.execPath, [
        '-e',
        `const { DatabaseSync } = require('node:sqlite'); const db = new DatabaseSync(${JSON.stringify(file)}); db.exec('PRAGMA busy_timeout = 5000'); db.exec("insert into notes values ('from another process')")`,
      ])
      const otherExit = new Promise<number | null>((resolve) => other.once('exit', resolve))
      // A deferred transaction would let it write at once; an immediate one holds it off until the commit.
      const exitedEarly = await Promise.race([otherExit.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 1500))])
      await transaction.insertInto('notes').values({ text: 'from this process' }).execute()
      await transaction.commit().execute()
      expect(exitedEarly).toBe(false)
      expect(await otherExit).toBe(0)
      expect((await kysely.selectFrom('notes').select('text').execute()).map((row) => row.text).sort()).toEqual(['from another process', 'from this process'])
    } finally {
      await kysely.destroy()
      directory.remove()
    }
  })
})
