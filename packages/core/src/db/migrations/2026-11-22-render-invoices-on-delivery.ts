import type { Kysely } from 'kysely'

// An invoice keeps what it says (data_json) at issue; its PDF is rendered outside the registration's transaction,
// when the confirmation is sent or the invoice first downloaded.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invoices').addColumn('data_json', 'text').execute()
}
