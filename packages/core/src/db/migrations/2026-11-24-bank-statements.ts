import type { Kysely } from 'kysely'

// Bank statements imported by staff: each bank's CSV column mapping, each import, and each statement line once
// (its key unique), so a statement imported twice never proposes or records a transfer twice.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bank_statement_mappings')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull().unique())
    .addColumn('delimiter', 'text', (column) => column.notNull())
    .addColumn('date_column', 'text', (column) => column.notNull())
    .addColumn('date_format', 'text', (column) => column.notNull())
    .addColumn('description_column', 'text', (column) => column.notNull())
    .addColumn('amount_column', 'text', (column) => column.notNull())
    .addColumn('reference_column', 'text', (column) => column.notNull())
    .addColumn('decimal_separator', 'text', (column) => column.notNull())
    .addColumn('created_by_name', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createTable('bank_statement_imports')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('file_name', 'text', (column) => column.notNull())
    .addColumn('format', 'text', (column) => column.notNull())
    .addColumn('mapping_id', 'text', (column) => column.references('bank_statement_mappings.id'))
    .addColumn('line_count', 'integer', (column) => column.notNull())
    .addColumn('new_line_count', 'integer', (column) => column.notNull())
    .addColumn('debits_skipped', 'integer', (column) => column.notNull())
    .addColumn('imported_by_id', 'text', (column) => column.notNull())
    .addColumn('imported_by_name', 'text', (column) => column.notNull())
    .addColumn('imported_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createTable('bank_statement_lines')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('line_key', 'text', (column) => column.notNull().unique())
    // The bank reference a recording of this line uses (bank_payments.bank_reference): recorded once, whoever confirms.
    .addColumn('payment_reference', 'text', (column) => column.notNull().unique())
    .addColumn('posted_on', 'text', (column) => column.notNull())
    .addColumn('amount_cents', 'integer', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('reference', 'text', (column) => column.notNull())
    .addColumn('first_import_id', 'text', (column) => column.notNull().references('bank_statement_imports.id'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createTable('bank_statement_import_lines')
    .addColumn('import_id', 'text', (column) => column.notNull().references('bank_statement_imports.id').onDelete('cascade'))
    .addColumn('position', 'integer', (column) => column.notNull())
    .addColumn('line_id', 'text', (column) => column.notNull().references('bank_statement_lines.id'))
    .addPrimaryKeyConstraint('bank_statement_import_lines_pk', ['import_id', 'position'])
    .execute()
  await db.schema.createIndex('bank_statement_imports_imported_at').on('bank_statement_imports').column('imported_at').execute()
  await db.schema.createIndex('bank_statement_lines_posted_on').on('bank_statement_lines').columns(['posted_on', 'id']).execute()
}
