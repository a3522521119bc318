import type { Kysely } from 'kysely'

// A mapping described by staff may name money in and money out in two columns, a charges column and the running
// balance, as the built-in bank presets do; '' where the bank has none. Additive only, so the previous release runs
// beside it during a rolling deploy.
const COLUMNS = ['money_in_column', 'money_out_column', 'fee_column', 'balance_column'] as const

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) {
    await db.schema
      .alterTable('bank_statement_mappings')
      .addColumn(column, 'text', (definition) => definition.notNull().defaultTo(''))
      .execute()
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('bank_statement_mappings').dropColumn(column).execute()
}
