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

/** Whether a form's value names one of the date layouts. */
export function isStatementDateFormat(value: string): value is StatementDateFormat {
  return Object.hasOwn(STATEMENT_DATE_FORMATS, value)
}

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
  /** The bank's charges when it writes them in a column of their own (money out); '' or absent otherwise. */
  feeColumn?: string | undefined
  /** The running balance after each line; when mapped, every line must follow from the one before it. */
  balanceColumn?: string | undefined
  decimalSeparator: '.' | ','
  /**
   * A file without a heading row whose lines each start with a record type (Standard Bank's legacy export): the
   * transactions are the rows of `type`, read by position under `headings`; every other row (account, opening and
   * closing records) is passed over.
   */
  records?: { type: string; headings: readonly string[] } | undefined
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
    if (error instanceof CsvError) throw new BackOfficeError('invalid-input', { problem: 'csv-unreadable', reason: error.message })
    throw error
  }
}

// A balance row (opening, closing, brought or carried forward) is not a transaction, wherever the bank puts it: above
// the heading, between the lines or below them, with or without a date and an amount.
const BALANCE_ROW = /\b(opening|closing)\s+balance\b|\bbalance\s+(brought|carried)\s+forward\b|^\s*bal(ance)?\s+[bc]\/?f\b/i

function isBalanceRow(cells: string[]): boolean {
  return cells.some((cell) => BALANCE_ROW.test(cell))
}

/** A record-typed file's transactions under a heading of their own (the rows as they are without `records`). */
function recordRows(rows: CsvRow[], records: StatementColumns['records']): CsvRow[] {
  if (!records) return rows
  const type = records.type.toUpperCase()
  const transactions = rows.filter((row) => (row.cells[0] ?? '').trim().toUpperCase() === type)
  return [{ cells: [...records.headings], line: 0 }, ...transactions]
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
  const rows = recordRows(readRows(text, columns.delimiter), columns.records)
  const wanted = [
    columns.dateColumn,
    columns.descriptionColumn,
    ...amountColumnsOf(columns),
    columns.referenceColumn,
    columns.feeColumn ?? '',
    columns.balanceColumn ?? '',
  ].filter((name) => name.trim() !== '')
  const headingIndex = rows.slice(0, MAX_ROWS_BEFORE_HEADING).findIndex((row) => {
    const names = row.cells.map(heading)
    return wanted.every((name) => names.includes(heading(name)))
  })
  if (headingIndex === -1) {
    const firstRow = rows[0]?.cells.join(', ') ?? ''
    throw new BackOfficeError('invalid-input', {
      problem: 'csv-heading-missing',
      columns: wanted.map((name) => `“${name}”`).join(', '),
      firstRow: firstRow.slice(0, 200),
    })
  }
  const names = rows[headingIndex]!.cells.map(heading)
  const indexOf = (name: string | undefined) => (!name || name.trim() === '' ? -1 : names.indexOf(heading(name)))
  const [dateAt, descriptionAt, referenceAt] = [columns.dateColumn, columns.descriptionColumn, columns.referenceColumn].map(indexOf)
  const [amountAt, moneyInAt, moneyOutAt, feeAt, balanceAt] = [
    columns.amountColumn,
    columns.moneyInColumn,
    columns.moneyOutColumn,
    columns.feeColumn,
    columns.balanceColumn,
  ].map(indexOf)
  const cellCount = names.length
  const credits: Array<Omit<StatementLine, 'key'>> = []
  const balances: BalanceEntry[] = []
  let debitsSkipped = 0
  let moneyOutCents = 0
  const amountIn = (row: string[], at: number, rowNumber: number): number | undefined => {
    const amountText = at === -1 ? '' : (row[at] ?? '').trim()
    if (amountText === '') return undefined
    const cents = parseStatementAmount(amountText, columns.decimalSeparator)
    if (cents === undefined) {
      throw new BackOfficeError('statement-amount-unreadable', { row: rowNumber, amount: amountText.slice(0, 60), decimalSeparator: columns.decimalSeparator })
    }
    return cents
  }
  for (const { cells: row, line: rowNumber } of rows.slice(headingIndex + 1)) {
    const dateText = row[dateAt!]?.trim() ?? ''
    if (isBalanceRow(row)) {
      // A balance row between or below the lines is checked against the running balance, and is no transaction.
      const balance = balanceAt === -1 ? undefined : amountIn(row, balanceAt!, rowNumber)
      if (balance !== undefined) balances.push({ row: rowNumber, cells: row, amountCents: 0, balanceCents: balance })
      continue
    }
    // A row with a cell more or fewer than the heading (an unquoted comma in a description) cannot be read with
    // certainty: its amount may sit in another column. Only a footer note without a date is passed over.
    if (row.length !== cellCount) {
      const footer =
        row.length < cellCount && (dateText === '' || !DateTime.fromFormat(dateText, columns.dateFormat, { zone: TIME_ZONE, locale: 'en' }).isValid)
      if (footer) continue
      throw new BackOfficeError('statement-row-cells', {
        row: rowNumber,
        cells: row.length,
        headingCells: cellCount,
        content: row.join(columns.delimiter).slice(0, 200),
      })
    }
    if (dateText === '') continue
    const date = DateTime.fromFormat(dateText, columns.dateFormat, { zone: TIME_ZONE, locale: 'en' })
    if (!date.isValid) {
      throw new BackOfficeError('invalid-input', {
        problem: 'csv-date',
        row: rowNumber,
        date: dateText.slice(0, 60),
        format: STATEMENT_DATE_FORMATS[columns.dateFormat],
      })
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
    const fee = feeAt === -1 ? undefined : amountIn(row, feeAt!, rowNumber)
    const movementCents = (amountCents ?? 0) - Math.abs(fee ?? 0)
    const balance = balanceAt === -1 ? undefined : amountIn(row, balanceAt!, rowNumber)
    if (amountCents !== undefined || fee !== undefined || balance !== undefined) {
      balances.push({ row: rowNumber, cells: row, amountCents: movementCents, balanceCents: balance })
    }
    if (amountCents === undefined && fee !== undefined && fee !== 0) {
      debitsSkipped += 1
      moneyOutCents += Math.abs(fee)
      continue
    }
    if (amountCents === undefined) continue
    if (amountCents <= 0) {
      debitsSkipped += 1
      moneyOutCents += Math.abs(movementCents)
      continue
    }
    if (fee !== undefined) moneyOutCents += Math.abs(fee)
    credits.push({
      postedOn: date.toISODate()!,
      amountCents,
      description: statementText(row[descriptionAt!] ?? ''),
      reference: referenceAt === -1 ? '' : statementText(row[referenceAt!] ?? ''),
    })
  }
  checkLineCount(credits.length + debitsSkipped)
  const balanceChecked = balanceAt !== -1 && checkRunningBalance(balances, columns.delimiter)
  const keys = contentLineKeys('csv', credits)
  return { format: 'csv', lines: credits.map((line, index) => ({ key: keys[index]!, ...line })), debitsSkipped, moneyOutCents, balanceChecked }
}

interface BalanceEntry {
  row: number
  cells: string[]
  /** What the row moved the balance by: money in positive, money out and charges negative, 0 for a balance row. */
  amountCents: number
  /** The balance the bank shows after the row; undefined where the row shows none. */
  balanceCents: number | undefined
}

/** The first entry whose balance does not follow from the one before it and its amount, in the order given. */
function firstBreak(entries: readonly BalanceEntry[]): { entry: BalanceEntry; expectedCents: number } | undefined {
  let running: number | undefined
  for (const entry of entries) {
    if (running !== undefined) running += entry.amountCents
    if (entry.balanceCents !== undefined) {
      if (running !== undefined && running !== entry.balanceCents) return { entry, expectedCents: running }
      running = entry.balanceCents
    }
  }
  return undefined
}

/**
 * Checks the file's running balance, oldest line first or (as some banks list them) newest first: a line skipped,
 * misread or added shows as a balance that does not follow. True when at least two balances were compared.
 */
function checkRunningBalance(entries: readonly BalanceEntry[], delimiter: StatementDelimiter): boolean {
  const withBalance = entries.filter((entry) => entry.balanceCents !== undefined)
  if (withBalance.length < 2) return false
  const forward = firstBreak(entries)
  if (forward === undefined) return true
  // Newest first: each balance is the one below it plus the row's own amount, so read bottom-up it runs forward.
  const reversed = [...entries].reverse()
  const shifted = reversed.map((entry, index) => ({ ...entry, amountCents: index === 0 ? 0 : reversed[index - 1]!.amountCents }))
  if (firstBreak(shifted) === undefined) return true
  const { entry, expectedCents } = forward
  throw new BackOfficeError('statement-balance-broken', {
    row: entry.row,
    balanceCents: entry.balanceCents!,
    expectedCents,
    content: entry.cells.join(delimiter).slice(0, 200),
  })
}
