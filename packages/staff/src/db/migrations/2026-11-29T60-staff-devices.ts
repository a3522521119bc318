import type { Kysely } from 'kysely'

/**
 * The browsers each member has signed in from, known by a random id in a long-lived cookie (kept here as a hash), so
 * that a sign-in from a browser not seen before on the account e-mails the member.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('staff_devices')
    .addColumn('user_id', 'text', (column) => column.notNull().references('staff_users.id').onDelete('cascade'))
    .addColumn('device_hash', 'text', (column) => column.notNull())
    .addColumn('first_seen_at', 'text', (column) => column.notNull())
    .addColumn('last_seen_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('staff_devices_pk', ['user_id', 'device_hash'])
    .execute()
}
