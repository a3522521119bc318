import type { Generated, Selectable } from 'kysely'

/** How one bank's CSV export is read: its columns by heading, separator, date layout and decimal separator. */
export interface BankStatementMappingsTable {
  id: string
  name: string
  delimiter: string
  date_column: string
  date_format: string
  description_column: string
  amount_column: string
  /** '' when the bank has no reference column. */
  reference_column: string
  decimal_separator: string
  /** Money in and out in two columns (with `amount_column` ''), charges, running balance: '' where the bank has none. */
  money_in_column: Generated<string>
  money_out_column: Generated<string>
  fee_column: Generated<string>
  balance_column: Generated<string>
  created_by_name: string
  created_at: string
}

/** One statement file staff imported; `new_line_count` of its `line_count` credits had not been seen before. */
export interface BankStatementImportsTable {
  id: string
  file_name: string
  format: 'csv' | 'ofx'
  mapping_id: string | null
  /** The bank preset (`BANK_PRESETS`) a CSV was read with, instead of a saved mapping. */
  bank_preset: string | null
  line_count: number
  new_line_count: number
  debits_skipped: number
  imported_by_id: string
  imported_by_name: string
  imported_at: string
}

/**
 * A credit on a bank statement, kept once however often it is imported (`line_key`: the OFX FITID or a hash of a CSV
 * line). It is recorded when a bank payment carries its `payment_reference`.
 */
export interface BankStatementLinesTable {
  id: string
  line_key: string
  payment_reference: string
  posted_on: string
  amount_cents: number
  description: string
  reference: string
  first_import_id: string
  created_at: string
  /** The line of an earlier file in the other format that is the same money (same date and amount). */
  same_as_line_id: string | null
  /** Why staff set the line aside as no registration's payment; null while it is open. */
  dismissed_reason: string | null
  dismissed_by_name: string | null
  dismissed_at: string | null
}

/** The lines of an import in the file's order (a line seen before is shared with the earlier import). */
export interface BankStatementImportLinesTable {
  import_id: string
  position: number
  line_id: string
}

export type BankStatementMappingRow = Selectable<BankStatementMappingsTable>
export type BankStatementImportRow = Selectable<BankStatementImportsTable>
export type BankStatementLineRow = Selectable<BankStatementLinesTable>
