import type { MigrationResultSet, Migrator } from 'kysely/migration'
import { describe, expect, it } from 'vitest'
import { migrateToLatest } from './migrate-to-latest.ts'

/** A migrator whose runs answer the given results in turn, counting its runs. */
function migratorAnswering(...results: MigrationResultSet[]): { migrator: Migrator; runs: () => number } {
  let runs = 0
  const migrator = { migrateToLatest: async () => results[Math.min(runs++, results.length - 1)]! } as unknown as Migrator
  return { migrator, runs: () => runs }
}

const vanished = { error: Object.assign(new Error('schema "core_test_x" does not exist'), { code: '3F000' }) }
const done: MigrationResultSet = { results: [] }

describe('migrating to the latest migration', () => {
  it('lists the tables again when another schema vanished during the listing', async () => {
    const { migrator, runs } = migratorAnswering(vanished, vanished, done)
    expect(await migrateToLatest(migrator)).toBe(done)
    expect(runs()).toBe(3)
  })

  it('gives up after three such failures, answering the last', async () => {
    const { migrator, runs } = migratorAnswering(vanished)
    expect(await migrateToLatest(migrator)).toBe(vanished)
    expect(runs()).toBe(3)
  })

  it('answers any other failure at once', async () => {
    const failed = { error: Object.assign(new Error('syntax error'), { code: '42601' }) }
    const { migrator, runs } = migratorAnswering(failed, done)
    expect(await migrateToLatest(migrator)).toBe(failed)
    expect(runs()).toBe(1)
  })
})
