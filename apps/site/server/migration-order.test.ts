import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { migrationProvider as coreMigrations, renamedMigrations as renamedCoreMigrations } from '../../../packages/core/src/db/migrations/index.ts'
import { paymentMigrationProvider } from '../../../packages/payments/src/db/migrations/index.ts'
import { renamedStaffMigrations, staffMigrationProvider } from '../../../packages/staff/src/db/migrations/index.ts'

/**
 * The migrations of one database: three lists, each with its own record of what ran, applied in this order (the
 * payment tables refer to the core's registrations). Kysely runs each list in name order and refuses a database whose
 * recorded migrations are not the first ones of that order, so a new migration must sort after every one that exists.
 */
interface MigrationList {
  /** The table Kysely records this list's runs in. */
  table: string
  /** Where the list's files are, each named after its migration. */
  folder: string
  /** The names as the list gives them, in its order. */
  names: string[]
  /** Old name to new name of migrations renamed after databases ran them. */
  renames: Readonly<Record<string, string>>
}

const REPOSITORY = path.resolve(import.meta.dirname, '../../..')
const migrationsOf = (pkg: string) => path.join('packages', pkg, 'src/db/migrations')

async function databaseMigrations(): Promise<MigrationList[]> {
  return [
    { table: 'kysely_migration', folder: migrationsOf('core'), names: Object.keys(await coreMigrations.getMigrations()), renames: renamedCoreMigrations },
    { table: 'payments_migrations', folder: migrationsOf('payments'), names: Object.keys(await paymentMigrationProvider.getMigrations()), renames: {} },
    {
      table: 'staff_migrations',
      folder: migrationsOf('staff'),
      names: Object.keys(await staffMigrationProvider('sqlite').getMigrations()),
      renames: renamedStaffMigrations,
    },
  ]
}

/** `2026-11-28-topic`, or `2026-11-27T05-topic` for the migrations renamed to sort after that day's others. */
const MIGRATION_NAME = /^(\d{4}-\d{2}-\d{2})(?:T\d{2})?-[a-z0-9]+(?:-[a-z0-9]+)*$/

const inNameOrder = (names: readonly string[]) =>
  // Kysely sorts the list by code unit and the recorded runs of one moment with localeCompare: both must agree.
  names.every((name, index) => index === 0 || (names[index - 1]! < name && names[index - 1]!.localeCompare(name) < 0))

/**
 * What is wrong with a database's migration lists: a name out of form, a list out of name order, a name dated after
 * the day its file was first committed (so one written on that day could sort before it), a name used twice, a file
 * missing, or a renaming that changed the order databases ran them in.
 */
function migrationListProblems(lists: readonly MigrationList[], firstCommitDay: (file: string) => string | undefined): string[] {
  const problems: string[] = []
  const seen = new Set<string>()
  for (const list of lists) {
    if (!inNameOrder(list.names)) problems.push(`${list.table}: not listed in name order: ${list.names.join(', ')}`)
    for (const name of list.names) {
      if (seen.has(name)) problems.push(`${name} is named twice in the database`)
      seen.add(name)
      const day = MIGRATION_NAME.exec(name)?.[1]
      if (day === undefined) {
        problems.push(`${name} is not named YYYY-MM-DD-topic in lower case`)
        continue
      }
      const file = path.join(list.folder, `${name}.ts`)
      const committed = firstCommitDay(file)
      if (committed === undefined) problems.push(`${name} has no file ${file}`)
      else if (day > committed) problems.push(`${name} is dated after ${committed}, the day ${file} was first committed`)
    }
    // The databases that ran the old names ran the list up to its last renamed migration; later ones came after.
    const newToOld = new Map(Object.entries(list.renames).map(([oldName, newName]) => [newName, oldName]))
    const ranUnderOldNames = list.names.slice(0, Math.max(...list.names.map((name, index) => (newToOld.has(name) ? index + 1 : 0)), 0))
    const runOrderBefore = ranUnderOldNames.map((name) => newToOld.get(name) ?? name).sort()
    const runOrderAfter = runOrderBefore.map((name) => list.renames[name] ?? name)
    if (runOrderAfter.join() !== ranUnderOldNames.join()) problems.push(`${list.table}: the renamed migrations no longer sort in the order databases ran them`)
    for (const newName of Object.values(list.renames)) {
      if (!list.names.includes(newName)) problems.push(`${list.table}: renamed to ${newName}, which the list lacks`)
    }
  }
  return problems
}

/** The day (UTC, as git prints it) a file was first committed, following renames; today for one not committed yet. */
function gitFirstCommitDay(file: string): string | undefined {
  if (!existsSync(path.join(REPOSITORY, file))) return undefined
  const days = execFileSync('git', ['log', '--follow', '--diff-filter=A', '--format=%cs', '--', file], { cwd: REPOSITORY, encoding: 'utf8' })
    .trim()
    .split('\n')
    .filter(Boolean)
  return days.at(-1) ?? new Date().toISOString().slice(0, 10)
}

describe("the database's migration lists", () => {
  it('are in name order, dated no later than each was committed, so a migration written today sorts last', async () => {
    expect(migrationListProblems(await databaseMigrations(), gitFirstCommitDay)).toEqual([])
  })

  const committedOn = (days: Record<string, string>) => (file: string) => days[path.basename(file, '.ts')]
  const list = (names: string[], renames: Record<string, string> = {}): MigrationList => ({ table: 'kysely_migration', folder: 'm', names, renames })
  it.each<{ case: string; lists: MigrationList[]; days: Record<string, string>; problem: string }>([
    {
      case: 'a name dated after the day it was committed',
      lists: [list(['2026-11-27-quotes', '2026-11-30-certificates'])],
      days: { '2026-11-27-quotes': '2026-11-27', '2026-11-30-certificates': '2026-11-27' },
      problem: '2026-11-30-certificates is dated after 2026-11-27',
    },
    {
      case: 'a new migration added at the end that sorts before the last one',
      lists: [list(['2026-11-27T12-joining-mails', '2026-11-27-door-codes'])],
      days: { '2026-11-27T12-joining-mails': '2026-11-27', '2026-11-27-door-codes': '2026-11-28' },
      problem: 'not listed in name order',
    },
    {
      case: 'a topic in capitals, which Kysely’s two comparisons sort apart',
      lists: [list(['2026-11-28-Quotes'])],
      days: { '2026-11-28-Quotes': '2026-11-28' },
      problem: 'is not named YYYY-MM-DD-topic in lower case',
    },
    {
      case: 'the same name in two lists of one database',
      lists: [list(['2026-11-28-audit']), { ...list(['2026-11-28-audit']), table: 'staff_migrations' }],
      days: { '2026-11-28-audit': '2026-11-28' },
      problem: '2026-11-28-audit is named twice',
    },
    {
      case: 'a migration without its file',
      lists: [list(['2026-11-28-quotes'])],
      days: {},
      problem: '2026-11-28-quotes has no file',
    },
    {
      case: 'a renaming that changes the order databases ran the migrations in',
      lists: [list(['2026-11-27T01-b', '2026-11-27T02-a'], { '2026-11-28-a': '2026-11-27T02-a', '2026-11-28-b': '2026-11-27T01-b' })],
      days: { '2026-11-27T01-b': '2026-11-27', '2026-11-27T02-a': '2026-11-27' },
      problem: 'no longer sort in the order databases ran them',
    },
  ])('refuse $case', ({ lists, days, problem }) => {
    expect(migrationListProblems(lists, committedOn(days)).join('\n')).toContain(problem)
  })

  it('accept a migration named for the day it is written, at the end of a list with renamed ones', () => {
    const names = ['2026-11-27-webhook-deliveries', '2026-11-27T01-invoice-corrections', '2026-11-28-door-codes']
    const days = { '2026-11-27-webhook-deliveries': '2026-11-27', '2026-11-27T01-invoice-corrections': '2026-11-27', '2026-11-28-door-codes': '2026-11-28' }
    expect(migrationListProblems([list(names, { '2026-11-28-invoice-corrections': '2026-11-27T01-invoice-corrections' })], committedOn(days))).toEqual([])
  })
})
