import { parseStrict, type ofxTypes } from 'ofx-js'
import { BackOfficeError } from '../errors.ts'
import { checkLineCount, ofxLineKey, parseStatementAmount, statementText, type ParsedStatement, type StatementLine } from './statement-line.ts'

/** Whether a file is OFX (SGML 1.x or XML 2.x) rather than CSV, by what it says rather than its name. */
export function looksLikeOfx(text: string): boolean {
  return /^\s*(OFXHEADER|<\?xml[^>]*>\s*<\?OFX)/i.test(text) || /<OFX>/i.test(text.slice(0, 4096))
}

function asList<Item>(value: Item | Item[] | undefined): Item[] {
  if (value === undefined) return []
  return Array.isArray(value) ? value : [value]
}

// OFX amounts use a decimal point, but some banks write a decimal comma (the specification allows both).
function ofxAmount(text: string): number | undefined {
  const value = text.trim()
  return parseStatementAmount(value, value.includes(',') && !value.includes('.') ? ',' : '.')
}

function ofxDate(text: string): string | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})/.exec(text.trim())
  if (!match) return undefined
  const [, year, month, day] = match
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)))
  return date.getUTCMonth() === Number(month) - 1 ? `${year}-${month}-${day}` : undefined
}

function readOfx(text: string): ofxTypes.ParsedOFX {
  try {
    return parseStrict(text)
  } catch (error) {
    throw new BackOfficeError('invalid-input', `The file could not be read as OFX (${(error as Error).message}). Export the statement again from the bank.`)
  }
}

/**
 * Reads an OFX bank statement (every account's STMTTRN list): the credits, keyed by account and FITID, debits counted
 * and left out. A transaction without an id, a date or an amount is refused, naming its FITID or position.
 */
export function parseOfxStatement(text: string): ParsedStatement {
  const ofx = readOfx(text)
  const statements = asList(ofx.OFX?.BANKMSGSRSV1?.STMTTRNRS).flatMap((response) => (response.STMTRS ? [response.STMTRS] : []))
  if (statements.length === 0) throw new BackOfficeError('invalid-input', 'The OFX file holds no bank statement (no STMTRS). Export a bank account statement.')
  const lines: StatementLine[] = []
  let debitsSkipped = 0
  let position = 0
  for (const statement of statements) {
    const accountId = String(statement.BANKACCTFROM?.ACCTID ?? '').trim()
    for (const transaction of asList(statement.BANKTRANLIST?.STMTTRN)) {
      position += 1
      const fitId = String(transaction.FITID ?? '').trim()
      const named = fitId ? `Transaction ${fitId}` : `Transaction ${position}`
      if (!fitId) throw new BackOfficeError('invalid-input', `${named} has no FITID, so it could not be told apart from others. Export the statement again from the bank.`)
      const postedOn = ofxDate(String(transaction.DTPOSTED ?? ''))
      if (!postedOn) throw new BackOfficeError('invalid-input', `${named}: the date “${String(transaction.DTPOSTED ?? '')}” is not an OFX date.`)
      const amountCents = ofxAmount(String(transaction.TRNAMT ?? ''))
      if (amountCents === undefined) throw new BackOfficeError('invalid-input', `${named}: the amount “${String(transaction.TRNAMT ?? '')}” is not an amount.`)
      if (amountCents <= 0) {
        debitsSkipped += 1
        continue
      }
      lines.push({
        key: ofxLineKey(accountId, fitId),
        postedOn,
        amountCents,
        description: statementText([transaction.NAME, transaction.MEMO].filter((part) => typeof part === 'string' && part.trim() !== '').join(' ')),
        reference: statementText(String(transaction.REFNUM || transaction.CHECKNUM || '')),
      })
    }
  }
  checkLineCount(lines.length + debitsSkipped)
  return { format: 'ofx', lines, debitsSkipped }
}
