import type { Kysely } from 'kysely'

// Settings the back office keeps in the database (the accounting export's account codes and tax-rate names), one row
// a setting; and every document an accounting export has carried, so the next export of an overlapping period leaves
// it out unless staff ask for it again. Additive only, so the previous release runs beside it during a rolling deploy.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('back_office_settings')
    .addColumn('name', 'text', (column) => column.primaryKey())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('updated_by_name', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createTable('accounting_exported_documents')
    .addColumn('package', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('document_key', 'text', (column) => column.notNull())
    .addColumn('exported_at', 'text', (column) => column.notNull())
    .addColumn('exported_by_name', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('accounting_exported_documents_pkey', ['package', 'kind', 'document_key'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('accounting_exported_documents').execute()
  await db.schema.dropTable('back_office_settings').execute()
}
