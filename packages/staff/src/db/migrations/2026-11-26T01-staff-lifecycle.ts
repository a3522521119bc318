import type { SqlDialectName } from '@events/core'
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

/**
 * The lifecycle of staff accounts: a deactivation time on the user (the row and its audit history stay) and a flag
 * that makes them enrol in two-factor again; the TOTP codes already used, so a code signs in once; and sign-in
 * throttling per address and per account with growing delays, which replaces the per-account lock (anyone could
 * lock an owner out with it).
 */
export function staffLifecycleMigration(dialect: SqlDialectName): Migration {
  const dateType = dialect === 'postgres' ? 'timestamptz' : 'date'
  const booleanType = dialect === 'postgres' ? 'boolean' : 'integer'
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('staff_users').addColumn('deactivatedAt', dateType).execute()
      // Set when an owner resets someone's two-factor: they enrol again before anything else.
      await db.schema.alterTable('staff_users').addColumn('twoFactorEnrolRequired', booleanType).execute()

      await db.schema
        .createTable('staff_used_totp_codes')
        .addColumn('user_id', 'text', (column) => column.notNull().references('staff_users.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (column) => column.notNull())
        .addColumn('used_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('staff_used_totp_codes_pk', ['user_id', 'code_hash'])
        .execute()

      await db.schema
        .createTable('staff_sign_in_throttle')
        .addColumn('key', 'text', (column) => column.primaryKey())
        .addColumn('failures', 'integer', (column) => column.notNull())
        .addColumn('last_failure_at', 'text', (column) => column.notNull())
        .addColumn('blocked_until', 'text', (column) => column.notNull())
        .execute()
      await db.schema.dropTable('staff_sign_in_failures').execute()
    },
  }
}
