import type { InsertQueryBuilder, InsertResult, QueryCreator, Transaction } from 'kysely'
import type { Database, SqlDialectName } from '../db/database.ts'
import type { InvoicesTable } from '../db/tables/invoices.ts'

const TAX_INVOICE_SERIES = 'tax-invoice'

/** An invoice row as stored, all but its number. */
export type UnnumberedInvoiceRow = Omit<InvoicesTable, 'number'>

/** An insert without RETURNING into any table, to be written alongside a numbered invoice (insertNumberedInvoice). */
export type AlongsideWrite = { [Table in keyof Database]: InsertQueryBuilder<Database, Table, InsertResult> }[keyof Database]

/** Increments a document series' counter (creating it at 1) and returns the number it now holds. */
function takeNextNumber(queries: QueryCreator<Database>, series: string) {
  return queries
    .insertInto('invoice_counters')
    .values({ series, last_number: 1 })
    .onConflict((conflict) => conflict.column('series').doUpdateSet((eb) => ({ last_number: eb('invoice_counters.last_number', '+', 1) })))
    .returning('last_number')
}

/**
 * Stores an invoice under the next tax invoice number, inside the caller's transaction, as its LAST write. The
 * counter row is updated in place, so a rolled-back transaction gives its number back and the series has no gaps;
 * but on PostgreSQL every other issuer then waits on that row's lock until this transaction commits. So the number
 * is taken in the statement right before the COMMIT, nothing that needs it is written after, and whatever prints it
 * (the PDF, the e-mails) reads it from the stored invoice later. The transaction's other writes that can go
 * last as well (`alongside`, without RETURNING) are written first; on PostgreSQL in the same statement.
 */
export async function insertNumberedInvoice(
  transaction: Transaction<Database>,
  dialect: SqlDialectName,
  invoice: UnnumberedInvoiceRow,
  alongside: ReadonlyArray<AlongsideWrite> = [],
): Promise<void> {
  if (dialect === 'postgres') {
    // One statement (a data-modifying WITH): the other writes made, the lock taken and the invoice stored in a
    // single round trip. Each `with` widens the builder's type by its name; the statement only needs its SQL.
    let queries: QueryCreator<Database> = transaction
    alongside.forEach((write, index) => {
      queries = queries.with(`alongside_${index}`, () => write) as unknown as QueryCreator<Database>
    })
    await queries
      .with('next_number', (queries) => takeNextNumber(queries, TAX_INVOICE_SERIES))
      .insertInto('invoices')
      .columns(['id', 'registration_id', 'number', 'issued_at', 'pdf_base64', 'data_json'])
      .expression((eb) =>
        eb
          .selectFrom('next_number')
          .select([
            eb.val(invoice.id).as('id'),
            eb.val(invoice.registration_id).as('registration_id'),
            'next_number.last_number',
            eb.val(invoice.issued_at).as('issued_at'),
            eb.val(invoice.pdf_base64).as('pdf_base64'),
            eb.val(invoice.data_json).as('data_json'),
          ]),
      )
      .execute()
    return
  }
  // SQLite has one writer at a time: nobody waits between the statements.
  for (const write of alongside) await write.execute()
  const { last_number } = await takeNextNumber(transaction, TAX_INVOICE_SERIES).executeTakeFirstOrThrow()
  await transaction
    .insertInto('invoices')
    .values({ ...invoice, number: last_number })
    .execute()
}

/** A document number as printed: the series' prefix and six digits, e.g. "INV-000042". */
export function formatSeriesNumber(prefix: string, number: number): string {
  return `${prefix}-${String(number).padStart(6, '0')}`
}

/**
 * Takes the next number of a document series inside the caller's transaction. The counter row is updated in place,
 * so a rolled-back transaction gives its number back and the series has no gaps; on PostgreSQL concurrent issuers
 * queue on the row lock until the transaction ends, so take it as late in the transaction as possible.
 */
export async function nextNumberInSeries(transaction: Transaction<Database>, series: string): Promise<number> {
  const row = await takeNextNumber(transaction, series).executeTakeFirstOrThrow()
  return Number(row.last_number)
}

/**
 * Takes the next tax invoice number inside the caller's transaction, for an invoice whose number the same transaction
 * must print (a correction's e-mail); a registration's invoice takes it as its last write instead (insertNumberedInvoice).
 */
export function nextTaxInvoiceNumber(transaction: Transaction<Database>): Promise<number> {
  return nextNumberInSeries(transaction, TAX_INVOICE_SERIES)
}

/** The invoice number as printed: "INV-000042". */
export function formatInvoiceNumber(number: number): string {
  return formatSeriesNumber('INV', number)
}
