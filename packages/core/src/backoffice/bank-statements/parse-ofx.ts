import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { parseStrict, type ofxTypes } from 'ofx-js'
import { BackOfficeError } from '../errors.ts'
import { checkLineCount, contentLineKeys, ofxLineKey, parseStatementAmount, statementText, type ParsedStatement, type StatementLine } from './statement-line.ts'

/** The one currency the company's account is kept in; a statement of another account is refused. */
const ACCOUNT_CURRENCY = 'ZAR'

/** Whether a file is OFX (SGML 1.x or XML 2.x) rather than CSV, by what it says rather than its name. */
export function looksLikeOfx(text: string): boolean {
  return /^\s*(OFXHEADER|<\?xml[^>]*>\s*<\?OFX)/i.test(text) || /<OFX>/i.test(text.slice(0, 4096))
}

function isXmlOfx(text: string): boolean {
  return /^\s*(\uFEFF)?<\?xml/i.test(text)
}

function asList<Item>(value: Item | Item[] | undefined): Item[] {
  if (value === undefined || value === '') return []
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

function unreadable(reason: string): BackOfficeError {
  return new BackOfficeError('invalid-input', { problem: 'ofx-unreadable', reason })
}

// OFX 2 is XML: read by an XML parser, which takes CDATA sections and entities as XML defines them. Every element's
// text is kept as a string, and the elements a statement may repeat are always lists.
const xmlParser = new XMLParser({
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'STMTTRNRS' || name === 'STMTTRN',
})

function readXmlOfx(text: string): ofxTypes.ParsedOFX {
  const valid = XMLValidator.validate(text)
  if (valid !== true) throw unreadable(`line ${valid.err.line}: ${valid.err.msg}`)
  return xmlParser.parse(text) as ofxTypes.ParsedOFX
}

function readOfx(text: string): ofxTypes.ParsedOFX {
  if (isXmlOfx(text)) return readXmlOfx(text)
  try {
    return parseStrict(text)
  } catch (error) {
    throw unreadable((error as Error).message)
  }
}

/**
 * Reads an OFX bank statement (every account's STMTTRN list): the credits, keyed by account and FITID, debits counted
 * and left out. A transaction without a FITID is keyed by its content (account, date, amount, texts and how many
 * identical ones came before it). A statement in another currency than rand, or a transaction without a date or an
 * amount, is refused, naming its FITID or position.
 */
export function parseOfxStatement(text: string): ParsedStatement {
  const ofx = readOfx(text)
  const statements = asList(ofx.OFX?.BANKMSGSRSV1?.STMTTRNRS).flatMap((response) => (response.STMTRS ? [response.STMTRS] : []))
  if (statements.length === 0) throw new BackOfficeError('invalid-input', { problem: 'ofx-no-statement' })
  const lines: StatementLine[] = []
  const withoutId: Array<{ at: number; accountId: string; line: Omit<StatementLine, 'key'> }> = []
  let debitsSkipped = 0
  let position = 0
  for (const statement of statements) {
    const currency = String(statement.CURDEF ?? '')
      .trim()
      .toUpperCase()
    if (currency !== '' && currency !== ACCOUNT_CURRENCY) {
      throw new BackOfficeError('invalid-input', { problem: 'ofx-currency', currency })
    }
    const accountId = String(statement.BANKACCTFROM?.ACCTID ?? '').trim()
    for (const transaction of asList(statement.BANKTRANLIST?.STMTTRN)) {
      position += 1
      const fitId = String(transaction.FITID ?? '').trim()
      const named = fitId || position
      const postedOn = ofxDate(String(transaction.DTPOSTED ?? ''))
      if (!postedOn)
        throw new BackOfficeError('invalid-input', { problem: 'ofx-date', transaction: named, date: statementText(String(transaction.DTPOSTED ?? '')) })
      const amountCents = ofxAmount(String(transaction.TRNAMT ?? ''))
      if (amountCents === undefined)
        throw new BackOfficeError('invalid-input', { problem: 'ofx-amount', transaction: named, amount: statementText(String(transaction.TRNAMT ?? '')) })
      if (amountCents <= 0) {
        debitsSkipped += 1
        continue
      }
      const line = {
        postedOn,
        amountCents,
        description: statementText([transaction.NAME, transaction.MEMO].filter((part) => typeof part === 'string' && part.trim() !== '').join(' ')),
        reference: statementText(String(transaction.REFNUM || transaction.CHECKNUM || '')),
      }
      if (fitId) lines.push({ key: ofxLineKey(accountId, fitId), ...line })
      else withoutId.push({ at: lines.push({ key: '', ...line }) - 1, accountId, line })
    }
  }
  const contentKeys = contentLineKeys(
    'ofx',
    withoutId.map(({ accountId, line }) => ({ ...line, account: accountId })),
  )
  withoutId.forEach(({ at }, index) => {
    lines[at]!.key = contentKeys[index]!
  })
  checkLineCount(lines.length + debitsSkipped)
  return { format: 'ofx', lines, debitsSkipped }
}
