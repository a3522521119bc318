import type { Kysely } from 'kysely'

// A registration's outbox messages name a template; the data they are rendered from is stored once, here.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('registration_mail_data')
    .addColumn('registration_id', 'text', (column) => column.primaryKey().references('registrations.id'))
    .addColumn('context_json', 'text', (column) => column.notNull())
    .execute()
}
