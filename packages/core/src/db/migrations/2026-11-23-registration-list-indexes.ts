import type { Kysely } from 'kysely'

// The back office lists registrations newest first, filtered by event, status or payment method; each filter has an
// index that also gives the order, so a page is read without sorting the table.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('registrations_created').on('registrations').columns(['created_at', 'id']).execute()
  await db.schema.createIndex('registrations_event_created').on('registrations').columns(['event_slug', 'created_at', 'id']).execute()
  await db.schema.createIndex('registrations_status_created').on('registrations').columns(['status', 'created_at', 'id']).execute()
  await db.schema.createIndex('registrations_payment_method_created').on('registrations').columns(['payment_method', 'created_at', 'id']).execute()
}
