import type { Kysely } from 'kysely'

// Statement lines staff can dismiss (bank charges, interest, another business's income), which stay dismissed on a
// re-import since a line is kept once; a line that is the same money as a line of an earlier file in the other format
// (an OFX and a CSV of one account) points at it; an import read with a bank's preset names it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('bank_statement_imports').addColumn('bank_preset', 'text').execute()
  await db.schema.alterTable('bank_statement_lines').addColumn('same_as_line_id', 'text').execute()
  await db.schema.alterTable('bank_statement_lines').addColumn('dismissed_reason', 'text').execute()
  await db.schema.alterTable('bank_statement_lines').addColumn('dismissed_by_name', 'text').execute()
  await db.schema.alterTable('bank_statement_lines').addColumn('dismissed_at', 'text').execute()
  // Twins are looked for by date and amount among the lines already kept.
  await db.schema.createIndex('bank_statement_lines_posted_amount').on('bank_statement_lines').columns(['posted_on', 'amount_cents']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('bank_statement_lines_posted_amount').execute()
  for (const column of ['dismissed_at', 'dismissed_by_name', 'dismissed_reason', 'same_as_line_id']) {
    await db.schema.alterTable('bank_statement_lines').dropColumn(column).execute()
  }
  await db.schema.alterTable('bank_statement_imports').dropColumn('bank_preset').execute()
}
