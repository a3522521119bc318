import type { Kysely } from 'kysely'

// Each scan carries the id its device gave it, kept with the check-in it made: a scan replayed because its answer was
// lost is then recognised as the same scan and answered "checked in" again, not "already checked in".
// Additive only (a nullable column), so the previous release runs beside it during a rolling deploy.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('check_ins').addColumn('scan_id', 'varchar(64)').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('check_ins').dropColumn('scan_id').execute()
}
