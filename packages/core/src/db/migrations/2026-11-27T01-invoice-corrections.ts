import { PostgresAdapter, sql, type Kysely } from 'kysely'

// Correcting a tax invoice (correctInvoice) credits it with a credit note that no cancellation caused and issues a
// second invoice for the same registration: credit_notes.cancellation_id may be null, and invoices.registration_id is
// no longer unique (the registration's current invoice is its highest-numbered one). PostgreSQL changes both in place.
// SQLite cannot, so it rebuilds both tables with the same rows, as its documentation prescribes: foreign keys off
// (Kysely runs SQLite migrations outside a transaction), the rebuild in one transaction, checked, then on again.
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table credit_notes alter column cancellation_id drop not null`.execute(db)
    await sql`alter table invoices drop constraint invoices_registration_id_key`.execute(db)
    await db.schema.createIndex('invoices_registration').on('invoices').column('registration_id').execute()
    return
  }
  await sql`pragma foreign_keys = off`.execute(db)
  try {
    await sql`begin`.execute(db)
    await db.schema
      .createTable('invoices_rebuilt')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('registration_id', 'text', (column) => column.notNull().references('registrations.id').onDelete('cascade'))
      .addColumn('number', 'integer', (column) => column.notNull().unique())
      .addColumn('issued_at', 'text', (column) => column.notNull())
      .addColumn('pdf_base64', 'text', (column) => column.notNull())
      .addColumn('data_json', 'text')
      .execute()
    await sql`insert into invoices_rebuilt (id, registration_id, number, issued_at, pdf_base64, data_json)
      select id, registration_id, number, issued_at, pdf_base64, data_json from invoices`.execute(db)
    await db.schema.dropTable('invoices').execute()
    await db.schema.alterTable('invoices_rebuilt').renameTo('invoices').execute()
    await db.schema.createIndex('invoices_registration').on('invoices').column('registration_id').execute()

    await db.schema
      .createTable('credit_notes_rebuilt')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('cancellation_id', 'text', (column) => column.unique().references('cancellations.id').onDelete('cascade'))
      .addColumn('registration_id', 'text', (column) => column.notNull().references('registrations.id').onDelete('cascade'))
      .addColumn('invoice_id', 'text', (column) => column.notNull().references('invoices.id').onDelete('cascade'))
      .addColumn('number', 'integer', (column) => column.notNull().unique())
      .addColumn('issued_at', 'text', (column) => column.notNull())
      .addColumn('pdf_base64', 'text', (column) => column.notNull())
      .addColumn('data_json', 'text', (column) => column.notNull())
      .execute()
    await sql`insert into credit_notes_rebuilt (id, cancellation_id, registration_id, invoice_id, number, issued_at, pdf_base64, data_json)
      select id, cancellation_id, registration_id, invoice_id, number, issued_at, pdf_base64, data_json from credit_notes`.execute(db)
    await db.schema.dropTable('credit_notes').execute()
    await db.schema.alterTable('credit_notes_rebuilt').renameTo('credit_notes').execute()
    await db.schema.createIndex('credit_notes_registration').on('credit_notes').column('registration_id').execute()

    const { rows: broken } = await sql`pragma foreign_key_check`.execute(db)
    if (broken.length > 0) throw new Error(`Rebuilding invoices and credit notes broke ${broken.length} references`)
    await sql`commit`.execute(db)
  } catch (error) {
    await sql`rollback`.execute(db).catch(() => undefined)
    throw error
  } finally {
    await sql`pragma foreign_keys = on`.execute(db)
  }
}

// Only before any correction was made: its credit note has no cancellation, and its registration two invoices.
export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.schema.dropIndex('invoices_registration').execute()
    await sql`alter table invoices add constraint invoices_registration_id_key unique (registration_id)`.execute(db)
    await sql`alter table credit_notes alter column cancellation_id set not null`.execute(db)
  }
}
