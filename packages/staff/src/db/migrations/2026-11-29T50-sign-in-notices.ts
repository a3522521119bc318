import type { Kysely } from 'kysely'

/**
 * When a member was last e-mailed about each kind of sign-in trouble (failing two-factor codes), so that an attacker
 * hammering the code step does not flood their inbox: one notice per kind and member in any 15 minutes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('staff_sign_in_notices')
    .addColumn('user_id', 'text', (column) => column.notNull().references('staff_users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('sent_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('staff_sign_in_notices_pk', ['user_id', 'kind'])
    .execute()
}
