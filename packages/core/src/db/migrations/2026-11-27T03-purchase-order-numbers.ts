import type { Kysely } from 'kysely'

// The company's own reference for a registration (its purchase order number), printed on its tax documents as "Your
// reference"; empty when none was given. Additive only, so the previous release runs beside it during a rolling deploy.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('registrations')
    .addColumn('purchase_order_number', 'text', (column) => column.notNull().defaultTo(''))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('registrations').dropColumn('purchase_order_number').execute()
}
