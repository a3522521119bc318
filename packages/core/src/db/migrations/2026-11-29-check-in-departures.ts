import type { Kysely } from 'kysely'

// A delegate who leaves before the day ends (at tea, say) has the moment recorded on the day's check-in, with who
// recorded it: the certificate then counts only the sessions that ended before it.
// Additive only (nullable columns), so the previous release runs beside it during a rolling deploy.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('check_ins').addColumn('left_at', 'varchar(40)').execute()
  await db.schema.alterTable('check_ins').addColumn('left_by_name', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('check_ins').dropColumn('left_by_name').execute()
  await db.schema.alterTable('check_ins').dropColumn('left_at').execute()
}
