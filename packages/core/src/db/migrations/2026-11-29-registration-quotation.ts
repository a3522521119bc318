import type { Kysely } from 'kysely'

// The quotation a registration was made from (its number as printed, Q-000001), so staff see which quotes converted;
// empty when none was given. Additive only, so the previous release runs beside it during a rolling deploy.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('registrations')
    .addColumn('quotation_number', 'text', (column) => column.notNull().defaultTo(''))
    .execute()
  await db.schema.createIndex('registrations_quotation_number').on('registrations').column('quotation_number').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('registrations_quotation_number').execute()
  await db.schema.alterTable('registrations').dropColumn('quotation_number').execute()
}
