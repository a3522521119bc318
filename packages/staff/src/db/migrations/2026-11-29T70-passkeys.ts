import type { SqlDialectName } from '@events/core'
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'

/**
 * Passkeys (WebAuthn credentials) of staff members, in the columns better-auth's passkey plugin names, plus when each
 * last signed someone in. A credential id belongs to one account only.
 */
export function passkeysMigration(dialect: SqlDialectName): Migration {
  const dateType = dialect === 'postgres' ? 'timestamptz' : 'date'
  const booleanType = dialect === 'postgres' ? 'boolean' : 'integer'
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('staff_passkeys')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('name', 'text')
        .addColumn('publicKey', 'text', (column) => column.notNull())
        .addColumn('userId', 'text', (column) => column.notNull().references('staff_users.id').onDelete('cascade'))
        .addColumn('credentialID', 'text', (column) => column.notNull().unique())
        .addColumn('counter', 'integer', (column) => column.notNull())
        .addColumn('deviceType', 'text', (column) => column.notNull())
        .addColumn('backedUp', booleanType, (column) => column.notNull())
        .addColumn('transports', 'text')
        .addColumn('createdAt', dateType)
        .addColumn('aaguid', 'text')
        .addColumn('lastUsedAt', dateType)
        .execute()
      await db.schema.createIndex('staff_passkeys_user_id').on('staff_passkeys').column('userId').execute()
    },
  }
}
