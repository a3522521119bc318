import { sql, type Kysely } from 'kysely'
import { newPassCode, newPassToken } from '../../event-days/pass-codes.ts'

// Every delegate's pass: a short code for the door and a private token for the pass page. The delegates registered
// before passes existed get theirs here. Additive only, so the previous release runs beside it during a rolling deploy.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('delegate_passes')
    .addColumn('delegate_id', 'varchar(36)', (column) => column.primaryKey().references('registration_delegates.id'))
    .addColumn('registration_id', 'varchar(36)', (column) => column.notNull().references('registrations.id'))
    .addColumn('code', 'varchar(8)', (column) => column.notNull().unique())
    .addColumn('token', 'varchar(64)', (column) => column.notNull().unique())
    .addColumn('created_at', 'varchar(40)', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('delegate_passes_registration').on('delegate_passes').column('registration_id').execute()
  const { rows } = await sql<{ id: string; registration_id: string }>`select id, registration_id from registration_delegates`.execute(db)
  const createdAt = new Date().toISOString()
  for (const row of rows) {
    await sql`insert into delegate_passes (delegate_id, registration_id, code, token, created_at) values (${row.id}, ${row.registration_id}, ${newPassCode()}, ${newPassToken()}, ${createdAt})`.execute(
      db,
    )
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('delegate_passes').execute()
}
