import type { Kysely } from 'kysely'

// The form rate limit's counters, shared by every instance on PostgreSQL, in the layout rate-limiter-flexible's
// PostgreSQL store reads and writes (one row per key: posts counted, window end in epoch milliseconds). SQLite
// serves one process, which counts in memory, so there the table stays empty.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('form_rate_limits')
    .addColumn('key', 'varchar(255)', (column) => column.primaryKey())
    .addColumn('points', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute()
}
