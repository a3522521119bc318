import type { Transaction } from 'kysely'
import type { Database } from '../db/database.ts'

const TAX_INVOICE_SERIES = 'tax-invoice'

/**
 * Takes the next number of a document series inside the caller's transaction. The counter row is updated in place,
 * so a rolled-back transaction gives its number back and the series has no gaps; on PostgreSQL concurrent
 * issuers queue on the row lock.
 */
export async function nextNumberInSeries(transaction: Transaction<Database>, series: string): Promise<number> {
  const row = await transaction
    .insertInto('invoice_counters')
    .values({ series, last_number: 1 })
    .onConflict((conflict) =>
      conflict.column('series').doUpdateSet((eb) => ({ last_number: eb('invoice_counters.last_number', '+', 1) })),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow()
  return Number(row.last_number)
}

/** A document number as printed: the series' prefix and six digits, e.g. "INV-000042". */
export function formatSeriesNumber(prefix: string, number: number): string {
  return `${prefix}-${String(number).padStart(6, '0')}`
}

/** Takes the next tax invoice number inside the caller's transaction (see `nextNumberInSeries`). */
export function nextInvoiceNumber(transaction: Transaction<Database>): Promise<number> {
  return nextNumberInSeries(transaction, TAX_INVOICE_SERIES)
}

/** The invoice number as printed: "INV-000042". */
export function formatInvoiceNumber(number: number): string {
  return formatSeriesNumber('INV', number)
}
