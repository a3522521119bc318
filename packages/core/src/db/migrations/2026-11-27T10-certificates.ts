import { sql, type Kysely } from 'kysely'

// Certificates of attendance, each with what it certifies as issued (a later change of the event or the delegate
// never rewrites one): one in force per delegate (a partial unique index), a revoked or replaced one kept so its
// number still answers on the verification page. And staff's CPD hours per event, overriding the agenda's count.
// Additive only.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('certificates')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('number', 'varchar(20)', (column) => column.notNull().unique())
    .addColumn('delegate_id', 'varchar(36)', (column) => column.notNull().references('registration_delegates.id'))
    .addColumn('registration_id', 'varchar(36)', (column) => column.notNull().references('registrations.id'))
    .addColumn('event_id', 'varchar(200)', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('event_title', 'text', (column) => column.notNull())
    .addColumn('days', 'text', (column) => column.notNull())
    .addColumn('cpd_minutes', 'integer', (column) => column.notNull())
    .addColumn('organiser', 'text', (column) => column.notNull())
    .addColumn('issued_at', 'varchar(40)', (column) => column.notNull())
    .addColumn('issued_by_name', 'text')
    .addColumn('revoked_at', 'varchar(40)')
    .addColumn('revoked_by_name', 'text')
    .addColumn('replaced_by', 'varchar(20)')
    .execute()
  await db.schema
    .createIndex('certificates_one_in_force')
    .on('certificates')
    .column('delegate_id')
    .unique()
    .where(sql<boolean>`revoked_at is null and replaced_by is null`)
    .execute()
  await db.schema.createIndex('certificates_by_event').on('certificates').column('event_id').execute()
  await db.schema
    .createTable('event_cpd_hours')
    .addColumn('event_id', 'varchar(200)', (column) => column.primaryKey())
    .addColumn('minutes_per_day', 'integer', (column) => column.notNull())
    .addColumn('updated_at', 'varchar(40)', (column) => column.notNull())
    .addColumn('updated_by_name', 'text', (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_cpd_hours').execute()
  await db.schema.dropTable('certificates').execute()
}
