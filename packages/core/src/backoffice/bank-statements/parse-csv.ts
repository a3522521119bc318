import { TIME_ZONE } from '@events/pricing'
import { CsvError, type Info } from 'csv-parse'
import { parse } from 'csv-parse/sync'
import { DateTime } from 'luxon'
import { BackOfficeError } from '../errors.ts'
import { checkLineCount, contentLineKeys, parseStatementAmount, statementText, type ParsedStatement, type StatementLine } from './statement-line.ts'

/** The date layouts a bank's CSV may use (luxon formats), each with an example for the form. */
export const STATEMENT_DATE_FORMATS = {
  'yyyy-MM-dd': '2025-03-05',
  'yyyy/MM/dd': '2025/03/05',
  'dd/MM/yyyy': '05/03/2025',
  'MM/dd/yyyy': '03/05/2025',
  yyyyMMdd: '20250305',
  'd MMM yyyy': '5 Mar 2025',
} as const

type StatementDateFormat = keyof typeof STATEMENT_DATE_FORMATS

export const STATEMENT_DELIMITERS = { ',': 'Comma', ';': 'Semicolon', '\t': 'Tab' } as const
type StatementDelimiter = keyof typeof STATEMENT_DELIMITERS

/** Where a bank's CSV export keeps each part of a line: columns by their heading, as the bank names them. */
export interface StatementColumns {
  delimiter: StatementDelimiter
  dateColumn: string
  dateFormat: StatementDateFormat
  descriptionColumn: string
  /** The signed amount (money received positive); '' when the bank writes money in and money out in two columns. */
  amountColumn: string
  /** With `amountColumn` '': the columns of money received and of money paid out. */
  moneyInColumn?: string | undefined
  moneyOutColumn?: string | undefined
  /** '' when the bank has no separate reference column. */
  referenceColumn: string
  decimalSeparator: '.' | ','
}

// Banks put account details and balances above the transactions; the heading row is looked for among the first rows.
const MAX_ROWS_BEFORE_HEADING = 30

function heading(text: string): string {
  return text.trim().toLowerCase()
}

interface CsvRow {
  cells: string[]
  /** The row's line number in the file, for messages. */
  line: number
}

function readRows(text: string, delimiter: StatementDelimiter): CsvRow[] {
  try {
    // Quotes are taken leniently: banks quote inconsistently, and a file read with the wrong separator should still
    // reach the message that names its first row.
    // With `info`, each record comes with where it was read; the library's types do not describe that shape.
    const records = parse(text, {
      delimiter,
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
    }) as unknown as Array<{
      record: string[]
      info: Info
    }>
    return records.map(({ record, info }) => ({ cells: record as string[], line: info.lines }))
  } catch (error) {
    if (error instanceof CsvError) throw new BackOfficeError('invalid-input', `The file could not be read as CSV: ${error.message}`)
    throw error
  }
}

// A balance row (opening, closing, brought or carried forward) is not a transaction, wherever the bank puts it: above
// the heading, between the lines or below them, with or without a date and an amount.
const BALANCE_ROW = /\b(opening|closing)\s+balance\b|\bbalance\s+(brought|carried)\s+forward\b|^\s*bal(ance)?\s+[bc]\/?f\b/i

function isBalanceRow(cells: string[]): boolean {
  return cells.some((cell) => BALANCE_ROW.test(cell))
}

function amountColumnsOf(columns: StatementColumns): string[] {
  return columns.amountColumn.trim() !== '' ? [columns.amountColumn] : [columns.moneyInColumn ?? '', columns.moneyOutColumn ?? '']
}

/**
 * Reads a CSV bank statement with a bank's column mapping: the credits with their keys, debits counted and left out.
 * The amount is one signed column, or money in and money out in two (either may be written with or without a sign).
 * Balance rows, rows without a date or without an amount, and rows too short to reach every mapped column (a footer)
 * are passed over; a date or amount that does not read is refused, naming the row, so nothing half-read is imported.
 */
export function parseCsvStatement(text: string, columns: StatementColumns): ParsedStatement {
  const rows = readRows(text, columns.delimiter)
  const wanted = [columns.dateColumn, columns.descriptionColumn, ...amountColumnsOf(columns), columns.referenceColumn].filter((name) => name.trim() !== '')
  const headingIndex = rows.slice(0, MAX_ROWS_BEFORE_HEADING).findIndex((row) => {
    const names = row.cells.map(heading)
    return wanted.every((name) => names.includes(heading(name)))
  })
  if (headingIndex === -1) {
    const firstRow = rows[0]?.cells.join(', ') ?? ''
    throw new BackOfficeError(
      'invalid-input',
      `The file has no heading row with the columns ${wanted.map((name) => `“${name}”`).join(', ')}.${firstRow ? ` Its first row reads: ${firstRow.slice(0, 200)}.` : ''} Check the mapping (and its separator) against the file.`,
    )
  }
  const names = rows[headingIndex]!.cells.map(heading)
  const indexOf = (name: string | undefined) => (!name || name.trim() === '' ? -1 : names.indexOf(heading(name)))
  const [dateAt, descriptionAt, referenceAt] = [columns.dateColumn, columns.descriptionColumn, columns.referenceColumn].map(indexOf)
  const [amountAt, moneyInAt, moneyOutAt] = [columns.amountColumn, columns.moneyInColumn, columns.moneyOutColumn].map(indexOf)
  const lastMappedCell = Math.max(dateAt!, descriptionAt!, referenceAt!, amountAt!, moneyInAt!, moneyOutAt!)
  const credits: Array<Omit<StatementLine, 'key'>> = []
  let debitsSkipped = 0
  const amountIn = (row: string[], at: number, rowNumber: number): number | undefined => {
    const amountText = at === -1 ? '' : (row[at] ?? '').trim()
    if (amountText === '') return undefined
    const cents = parseStatementAmount(amountText, columns.decimalSeparator)
    if (cents === undefined) {
      throw new BackOfficeError(
        'invalid-input',
        `Row ${rowNumber}: the amount “${amountText}” is not an amount in rand and cents. Check the mapping's amount column and decimal separator.`,
      )
    }
    return cents
  }
  for (const { cells: row, line: rowNumber } of rows.slice(headingIndex + 1)) {
    // Footers below the transactions are shorter rows, or rows without a date.
    const dateText = row[dateAt!]?.trim() ?? ''
    if (row.length <= lastMappedCell || dateText === '' || isBalanceRow(row)) continue
    const date = DateTime.fromFormat(dateText, columns.dateFormat, { zone: TIME_ZONE, locale: 'en' })
    if (!date.isValid) {
      throw new BackOfficeError(
        'invalid-input',
        `Row ${rowNumber}: the date “${dateText}” is not in the form ${STATEMENT_DATE_FORMATS[columns.dateFormat]}. Check the mapping's date format.`,
      )
    }
    let amountCents: number | undefined
    if (amountAt !== -1) {
      amountCents = amountIn(row, amountAt!, rowNumber)
    } else {
      // Money out is a debit whichever sign the bank writes it with; money in is a credit.
      const moneyIn = amountIn(row, moneyInAt!, rowNumber)
      const moneyOut = amountIn(row, moneyOutAt!, rowNumber)
      amountCents = moneyIn !== undefined && moneyIn !== 0 ? Math.abs(moneyIn) : moneyOut !== undefined ? -Math.abs(moneyOut) : moneyIn
    }
    if (amountCents === undefined) continue
    if (amountCents <= 0) {
      debitsSkipped += 1
      continue
    }
    credits.push({
      postedOn: date.toISODate()!,
      amountCents,
      description: statementText(row[descriptionAt!] ?? ''),
      reference: referenceAt === -1 ? '' : statementText(row[referenceAt!] ?? ''),
    })
  }
  checkLineCount(credits.length + debitsSkipped)
  const keys = contentLineKeys('csv', credits)
  return { format: 'csv', lines: credits.map((line, index) => ({ key: keys[index]!, ...line })), debitsSkipped }
}
