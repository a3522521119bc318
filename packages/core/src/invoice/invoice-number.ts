import type { Transaction } from 'kysely'
import type { Database } from '../db/database.ts'

const TAX_INVOICE_SERIES = 'tax-invoice'

/**
 * Takes the next tax invoice number inside the caller's transaction. The counter row is updated in place,
 * so a rolled-back registration gives its number back and the series has no gaps; on PostgreSQL concurrent
 * issuers queue on the row lock.
 */
export async function nextInvoiceNumber(transaction: Transaction<Database>): Promise<number> {
  const row = await transaction
    .insertInto('invoice_counters')
    .values({ series: TAX_INVOICE_SERIES, last_number: 1 })
    .onConflict((conflict) =>
      conflict.column('series').doUpdateSet((eb) => ({ last_number: eb('invoice_counters.last_number', '+', 1) })),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow()
  return Number(row.last_number)
}

/** The invoice number as printed: "INV-000042". */
export function formatInvoiceNumber(number: number): string {
  return `INV-${String(number).padStart(6, '0')}`
}
