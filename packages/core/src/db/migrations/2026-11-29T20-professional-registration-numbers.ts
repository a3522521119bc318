import type { Kysely } from 'kysely'

// A delegate of a CPD-accredited event may give their professional registration number (e.g. the Legal Practice
// Council's), printed on their certificate. Optional, so existing delegates have none (null). Additive only.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('registration_delegates').addColumn('professional_registration_number', 'varchar(40)').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('registration_delegates').dropColumn('professional_registration_number').execute()
}
