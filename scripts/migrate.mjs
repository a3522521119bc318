// `pnpm db:migrate`: applies the core's, the payment tables' and the staff tables' pending migrations to the database the site is
// configured for (DATA_DIR / DATABASE_URL, read like the server) and exits. Run it before starting a new release's
// instances with MIGRATE_ON_START=0; every migration leaves a schema the previous release still runs on
// (docs/decisions/0009-rolling-deploy-migrations.md).
import { readConfig } from '../packages/config/src/index.ts'
import { openDatabase } from '../packages/core/src/index.ts'
import { wrapLines } from '../packages/observability/src/index.ts'
import { migratePaymentTables } from '../packages/payments/src/index.ts'
import { migrateStaffTables } from '../packages/staff/src/index.ts'

try {
  const { core: config } = readConfig(process.env)
  const startedAt = performance.now()
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    startupWaitMs: config.databaseStartupWaitMs,
    migrate: true,
    poolMax: 2,
  })
  try {
    // The payment and staff tables are their packages' own: the core's Database type does not name them. The payment
    // tables refer to the core's registrations, so they come after the core's.
    await migratePaymentTables(db)
    await migrateStaffTables(/** @type {Parameters<typeof migrateStaffTables>[0]} */ (/** @type {unknown} */ (db.kysely)), db.dialect)
  } finally {
    await db.close()
  }
  console.log(`Database migrated (${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}) in ${Math.round(performance.now() - startedAt)} ms.`)
} catch (error) {
  console.error(wrapLines(`Migration failed: ${error instanceof Error ? error.message : String(error)}`))
  process.exit(1)
}
