import { sha256Hex } from '../../ids.ts'
import { singleLine } from '../../validation/fields.ts'
import { BackOfficeError } from '../errors.ts'

/** One credit on a bank statement, as read from the file. */
export interface StatementLine {
  /** The line's identity across imports: the same transfer in two files has the same key, so it is recorded once. */
  key: string
  /** The date on the statement, YYYY-MM-DD. */
  postedOn: string
  /** Positive: statements list money received; debits are left out when the file is read. */
  amountCents: number
  description: string
  reference: string
}

/** What a statement file held: its credits, and how many debits were passed over. */
export interface ParsedStatement {
  format: 'csv' | 'ofx'
  lines: StatementLine[]
  debitsSkipped: number
  /** Money paid out in the file (debits and charges), in cents, for the preview; 0 where the format does not say. */
  moneyOutCents?: number
  /** True when the file's running balance was followed line by line and every line agreed. */
  balanceChecked?: boolean
}

const MAX_STATEMENT_LINES = 5000
const MAX_TEXT_LENGTH = 500

/** A description or reference as kept: one line, trimmed, at most 500 characters. */
export function statementText(value: string): string {
  return singleLine(value).slice(0, MAX_TEXT_LENGTH)
}

/**
 * An amount as a statement writes it, in cents: `1234.56`, `-1,234.56`, `R 1 234.56`, `(500.00)`, `350.00-` or
 * `350.00 Dr` for a debit, `20 677,00 Cr` for a credit, or with a decimal comma (`1 234,56`, `1.234,56`). Thousands
 * separators must group three digits, so `20677.00` read with a decimal comma is no amount rather than R 2 067 700.00.
 * Undefined when it is not an amount; never through floating point.
 */
export function parseStatementAmount(text: string, decimalSeparator: '.' | ','): number | undefined {
  let value = text
    .trim()
    .replace(/^R\s*/i, '')
    .replace(/\s*ZAR$/i, '')
  let negative = false
  const creditOrDebit = /^(.*[\d)])\s*(cr|dr)$/i.exec(value)
  if (creditOrDebit) {
    negative = creditOrDebit[2]!.toLowerCase() === 'dr'
    value = creditOrDebit[1]!.trim()
  }
  const bracketed = /^\((.*)\)$/.exec(value)
  if (bracketed) {
    if (creditOrDebit) return undefined
    negative = true
    value = bracketed[1]!.trim()
  }
  const signs = [/^[-+]/.exec(value)?.[0], /[-+]$/.exec(value)?.[0]].filter((sign) => sign !== undefined)
  if (signs.length > 1 || (signs.length === 1 && (creditOrDebit || bracketed))) return undefined
  if (signs.length === 1) {
    negative = signs[0] === '-'
    value = value.replace(/^[-+]|[-+]$/, '').trim()
  }
  const thousands = decimalSeparator === '.' ? "[,\\s\\u00a0']" : "[.\\s\\u00a0']"
  const decimals = decimalSeparator === '.' ? '\\.' : ','
  const match = new RegExp(`^(\\d+|\\d{1,3}(?:${thousands}\\d{3})+)(?:${decimals}(\\d{1,2}))?$`).exec(value)
  if (!match) return undefined
  const cents = Number(match[1]!.replace(/\D/g, '')) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
  if (!Number.isSafeInteger(cents)) return undefined
  return negative ? -cents : cents
}

/**
 * Keys for lines that carry no id of their own (CSV lines, OFX lines with an empty FITID): a hash of the account (when
 * known), date, amount, description and reference, and how many identical lines came before it in the file (two
 * equal transfers on one day are two payments).
 */
export function contentLineKeys(format: 'csv' | 'ofx', lines: ReadonlyArray<Omit<StatementLine, 'key'> & { account?: string }>): string[] {
  const seen = new Map<string, number>()
  return lines.map((line) => {
    const parts = [line.postedOn, line.amountCents, line.description, line.reference]
    const content = JSON.stringify(line.account === undefined ? parts : [line.account, ...parts])
    const occurrence = (seen.get(content) ?? 0) + 1
    seen.set(content, occurrence)
    return `${format}:${format === 'ofx' ? 'content:' : ''}${sha256Hex(`${content}#${occurrence}`)}`
  })
}

/** The key of an OFX line: the bank's own transaction id (FITID), unique within its account. */
export function ofxLineKey(accountId: string, fitId: string): string {
  return `ofx:${sha256Hex(JSON.stringify([accountId, fitId]))}`
}

/**
 * The bank reference a statement line is recorded under: derived from its key, so a second recording of the same line
 * (a re-import, two members confirming at once) meets the unique bank reference and is refused.
 */
export function statementPaymentReference(lineKey: string): string {
  return `STMT-${sha256Hex(lineKey).slice(0, 16).toUpperCase()}`
}

/** Refuses a file with more lines than one import takes. */
export function checkLineCount(count: number): void {
  if (count > MAX_STATEMENT_LINES) {
    throw new BackOfficeError('invalid-input', { problem: 'statement-too-long', count, max: MAX_STATEMENT_LINES })
  }
}
