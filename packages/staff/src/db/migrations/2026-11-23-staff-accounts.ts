import type { SqlDialectName } from '@events/core'
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

/**
 * better-auth's documented schema (camelCase columns), under the staff_ table names the auth configuration maps
 * its models to. better-auth stores booleans and dates natively on PostgreSQL and as integers and ISO text on SQLite.
 * The dialect is told, not guessed from the Kysely adapter's class: in the site's server bundle that class is another
 * copy than the one the database was opened with.
 */
export function staffAccountsMigration(dialect: SqlDialectName): Migration {
  return { up: (db) => createStaffAccountTables(db, dialect === 'postgres') }
}

async function createStaffAccountTables(db: Kysely<unknown>, postgres: boolean): Promise<void> {
  const booleanType = postgres ? 'boolean' : 'integer'
  const dateType = postgres ? 'timestamptz' : 'date'

  await db.schema
    .createTable('staff_users')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('email', 'text', (column) => column.notNull().unique())
    .addColumn('emailVerified', booleanType, (column) => column.notNull())
    .addColumn('image', 'text')
    .addColumn('createdAt', dateType, (column) => column.notNull())
    .addColumn('updatedAt', dateType, (column) => column.notNull())
    .addColumn('twoFactorEnabled', booleanType)
    .addColumn('role', 'text', (column) => column.notNull())
    .execute()

  await db.schema
    .createTable('staff_sessions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('expiresAt', dateType, (column) => column.notNull())
    .addColumn('token', 'text', (column) => column.notNull().unique())
    .addColumn('createdAt', dateType, (column) => column.notNull())
    .addColumn('updatedAt', dateType, (column) => column.notNull())
    .addColumn('ipAddress', 'text')
    .addColumn('userAgent', 'text')
    .addColumn('userId', 'text', (column) => column.notNull().references('staff_users.id').onDelete('cascade'))
    .execute()
  await db.schema.createIndex('staff_sessions_user_id').on('staff_sessions').column('userId').execute()

  await db.schema
    .createTable('staff_accounts')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('accountId', 'text', (column) => column.notNull())
    .addColumn('providerId', 'text', (column) => column.notNull())
    .addColumn('userId', 'text', (column) => column.notNull().references('staff_users.id').onDelete('cascade'))
    .addColumn('accessToken', 'text')
    .addColumn('refreshToken', 'text')
    .addColumn('idToken', 'text')
    .addColumn('accessTokenExpiresAt', dateType)
    .addColumn('refreshTokenExpiresAt', dateType)
    .addColumn('scope', 'text')
    .addColumn('password', 'text')
    .addColumn('createdAt', dateType, (column) => column.notNull())
    .addColumn('updatedAt', dateType, (column) => column.notNull())
    .execute()
  await db.schema.createIndex('staff_accounts_user_id').on('staff_accounts').column('userId').execute()

  await db.schema
    .createTable('staff_verifications')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('identifier', 'text', (column) => column.notNull())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('expiresAt', dateType, (column) => column.notNull())
    .addColumn('createdAt', dateType, (column) => column.notNull())
    .addColumn('updatedAt', dateType, (column) => column.notNull())
    .execute()
  await db.schema.createIndex('staff_verifications_identifier').on('staff_verifications').column('identifier').execute()

  await db.schema
    .createTable('staff_two_factors')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('secret', 'text', (column) => column.notNull())
    .addColumn('backupCodes', 'text', (column) => column.notNull())
    .addColumn('userId', 'text', (column) => column.notNull().references('staff_users.id').onDelete('cascade'))
    .addColumn('verified', booleanType)
    .addColumn('failedVerificationCount', 'integer')
    .addColumn('lockedUntil', dateType)
    .execute()
  await db.schema.createIndex('staff_two_factors_secret').on('staff_two_factors').column('secret').execute()
  await db.schema.createIndex('staff_two_factors_user_id').on('staff_two_factors').column('userId').execute()

  await db.schema
    .createTable('staff_rate_limits')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('key', 'text', (column) => column.notNull().unique())
    .addColumn('count', 'integer', (column) => column.notNull())
    .addColumn('lastRequest', 'bigint', (column) => column.notNull())
    .execute()

  await db.schema
    .createTable('staff_sign_in_failures')
    .addColumn('email', 'text', (column) => column.primaryKey())
    .addColumn('failures', 'integer', (column) => column.notNull())
    .addColumn('window_start', 'text', (column) => column.notNull())
    .execute()

  await db.schema
    .createTable('staff_settings')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('value_json', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()

  await db.schema
    .createTable('staff_audit_log')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('occurred_at', 'text', (column) => column.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (column) => column.notNull())
    .addColumn('subject_type', 'text', (column) => column.notNull())
    .addColumn('subject_id', 'text')
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('ip_address', 'text')
    .execute()
  // Listed newest first; ids are UUIDv7, so they order by time within the same instant.
  await db.schema.createIndex('staff_audit_log_occurred').on('staff_audit_log').columns(['occurred_at', 'id']).execute()
}
