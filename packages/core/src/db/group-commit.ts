import type { Kysely, Transaction } from 'kysely'

/** The writes of one unit of work, run inside a transaction it may share with others. */
type WriteUnit<Schema, Result> = (transaction: Transaction<Schema>) => Promise<Result>

export type WriteTransactionRunner<Schema> = <Result>(unit: WriteUnit<Schema, Result>) => Promise<Result>

interface QueuedUnit<Schema> {
  unit: WriteUnit<Schema, unknown>
  resolve(value: unknown): void
  reject(reason: unknown): void
}

/** More units than this wait for the next commit, so one transaction never holds the connection for long. */
const MAX_UNITS_PER_COMMIT = 64

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

/**
 * Group commit for a single-connection database (SQLite). Every durable commit costs an fsync on the one
 * connection, which caps the writes per second whatever the CPU. Units that arrive while a commit is under way
 * wait and then run together in the next transaction, each inside its own savepoint: a unit that throws rolls
 * back only its own writes, and no unit's promise settles before the shared COMMIT has returned, so a caller is
 * never told that a write succeeded before it is on disk.
 */
export function createGroupCommit<Schema>(kysely: Kysely<Schema>): WriteTransactionRunner<Schema> {
  const queue: Array<QueuedUnit<Schema>> = []
  let draining = false

  async function runBatch(batch: Array<QueuedUnit<Schema>>): Promise<void> {
    let outcomes: Outcome[]
    try {
      const transaction = await kysely.startTransaction().execute()
      try {
        outcomes = []
        for (const { unit } of batch) {
          const savepoint = await transaction.savepoint('unit').execute()
          try {
            outcomes.push({ ok: true, value: await unit(savepoint) })
          } catch (error) {
            await savepoint.rollbackToSavepoint('unit').execute()
            outcomes.push({ ok: false, error })
          }
          await savepoint.releaseSavepoint('unit').execute()
        }
        await transaction.commit().execute()
      } catch (error) {
        await transaction
          .rollback()
          .execute()
          .catch(() => undefined)
        throw error
      }
    } catch (error) {
      // Nothing of this batch was committed: every unit in it failed.
      for (const queued of batch) queued.reject(error)
      return
    }
    batch.forEach((queued, index) => {
      const outcome = outcomes[index]!
      if (outcome.ok) queued.resolve(outcome.value)
      else queued.reject(outcome.error)
    })
  }

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) await runBatch(queue.splice(0, MAX_UNITS_PER_COMMIT))
    } finally {
      draining = false
    }
  }

  return <Result>(unit: WriteUnit<Schema, Result>) =>
    new Promise<Result>((resolve, reject) => {
      queue.push({ unit, resolve: resolve as (value: unknown) => void, reject })
      if (draining) return
      draining = true
      // node:sqlite answers synchronously, so a batch started at once would finish before any other request got
      // this far. Starting after the current turn of the event loop lets the requests read in it join the batch.
      setImmediate(() => void drain())
    })
}
