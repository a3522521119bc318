import type { Kysely } from 'kysely'

// Each instance's readiness check writes its row here once a second: a database that accepts reads but refuses
// writes (a full or read-only disk, a standby after a failover) then makes the instance unready. Additive only, so
// the previous release runs beside it during a rolling deploy.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('readiness_checks')
    .addColumn('instance', 'varchar(100)', (column) => column.primaryKey())
    .addColumn('checked_at', 'varchar(40)', (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('readiness_checks').execute()
}
