import { TEST_BACKENDS, openTestDatabase, testSiteLinks, type TestDatabase } from '@events/core/test-support'
import { sql, type Kysely } from 'kysely'
import { Migrator, type Migration } from 'kysely/migration'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createStaff } from '../staff.ts'
import { migrateStaffTables } from './migrate.ts'
import { renamedStaffMigrations, staffMigrationProvider } from './migrations/index.ts'

describe.each(TEST_BACKENDS)('staff migrations on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it("create the staff tables beside the core's, recorded in a migration table of their own, and run once", async () => {
    const kysely = testDb.db.kysely as unknown as Kysely<unknown>
    await migrateStaffTables(kysely, testDb.db.dialect)
    await migrateStaffTables(kysely, testDb.db.dialect)
    const tables = (await kysely.introspection.getTables()).map((table) => table.name)
    for (const table of [
      'staff_users',
      'staff_sessions',
      'staff_accounts',
      'staff_verifications',
      'staff_two_factors',
      'staff_rate_limits',
      'staff_audit_log',
      'staff_settings',
      'staff_sign_in_throttle',
      'staff_used_totp_codes',
      'staff_sign_in_notices',
      'staff_devices',
      'staff_passkeys',
      'registrations',
      'outbox_messages',
    ]) {
      expect(tables).toContain(table)
    }
    const staffMigrations = await sql<{ name: string }>`select name from staff_migrations`.execute(kysely)
    expect(staffMigrations.rows.map((row) => row.name)).toEqual([
      '2026-11-23-staff-accounts',
      '2026-11-24-audit-subject-index',
      '2026-11-26T01-staff-lifecycle',
      '2026-11-29T50-sign-in-notices',
      '2026-11-29T60-staff-devices',
      '2026-11-29T70-passkeys',
    ])
    const coreMigrations = await sql<{ name: string }>`select name from kysely_migration`.execute(kysely)
    expect(coreMigrations.rows.map((row) => row.name)).not.toContain('2026-11-23-staff-accounts')
    expect(coreMigrations.rows.length).toBeGreaterThan(0)
  })

  it('rename what a database ran under the old names before migrating it, keeping each run time and running nothing again', async () => {
    const kysely = testDb.db.kysely as unknown as Kysely<unknown>
    const schema = testDb.openOptions.schema
    const newToOld = new Map(Object.entries(renamedStaffMigrations).map(([oldName, newName]) => [newName, oldName]))
    const current = await staffMigrationProvider(testDb.db.dialect).getMigrations()
    const underOldNames = Object.fromEntries(Object.entries(current).map(([name, migration]): [string, Migration] => [newToOld.get(name) ?? name, migration]))
    const oldRelease = new Migrator({
      db: kysely,
      provider: { getMigrations: async () => underOldNames },
      migrationTableName: 'staff_migrations',
      migrationLockTableName: 'staff_migrations_lock',
      ...(schema ? { migrationTableSchema: schema } : {}),
    })
    expect((await oldRelease.migrateToLatest()).error).toBeUndefined()
    const recorded = async () =>
      (await sql<{ name: string; timestamp: string }>`select name, timestamp from staff_migrations order by name`.execute(kysely)).rows
    const before = await recorded()
    expect(before.map((row) => row.name)).toContain('2026-11-27-staff-lifecycle')

    await migrateStaffTables(kysely, testDb.db.dialect)

    expect(await recorded()).toEqual(before.map((row) => ({ ...row, name: renamedStaffMigrations[row.name] ?? row.name })))
  })

  it("match better-auth's own schema: its migration planner finds nothing to create or add", async () => {
    const staff = await createStaff({ db: testDb.db, links: testSiteLinks() })
    const kysely = testDb.db.kysely as unknown as Kysely<unknown>
    const columns = async () =>
      (await kysely.introspection.getTables())
        .filter((table) => table.name.startsWith('staff_'))
        .flatMap((table) => table.columns.map((column) => `${table.name}.${column.name}`))
        .sort()
    const before = await columns()
    expect(before).toContain('staff_users.role')
    await (await staff.auth.$context).runMigrations()
    expect(await columns()).toEqual(before)
  })
})
