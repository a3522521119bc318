import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

/** A split statement line's further parts are recorded under its bank reference with `/2`, `/3`, … appended. */
const SPLIT_PART = /\/\d+$/

/**
 * How the bank describes each recorded transfer, by its bank reference: a statement line's own description and
 * reference (its `STMT-…` key is the site's, never the bank's); a transfer typed in by hand is described by the bank
 * reference staff copied from the statement.
 */
export async function bankDescriptionsOf(queries: Kysely<Database>, bankReferences: readonly string[]): Promise<Map<string, string>> {
  const lineReferences = [...new Set(bankReferences.map((reference) => reference.replace(SPLIT_PART, '')))]
  const lines =
    lineReferences.length === 0
      ? []
      : await queries
          .selectFrom('bank_statement_lines')
          .select(['payment_reference', 'description', 'reference'])
          .where('payment_reference', 'in', lineReferences)
          .execute()
  const byLine = new Map(lines.map((line) => [line.payment_reference, [line.description, line.reference].filter((part) => part !== '').join(' / ')]))
  return new Map(bankReferences.map((reference) => [reference, byLine.get(reference.replace(SPLIT_PART, '')) || reference]))
}
