import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BackOfficeError } from '../errors.ts'
import { BANK_PRESETS, type BankPresetId } from './bank-presets.ts'
import { parseCsvStatement, type StatementColumns } from './parse-csv.ts'
import { looksLikeOfx, parseOfxStatement } from './parse-ofx.ts'
import { parseStatementAmount, statementPaymentReference } from './statement-line.ts'

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')

const FNB_STYLE: StatementColumns = {
  delimiter: ',',
  dateColumn: 'Date',
  dateFormat: 'yyyy/MM/dd',
  descriptionColumn: 'Description',
  amountColumn: 'Amount',
  referenceColumn: 'Reference',
  decimalSeparator: '.',
}

describe('parseStatementAmount', () => {
  it.each([
    ['1234.56', '.', 123_456],
    ['20,677.00', '.', 2_067_700],
    ['R 1 234.5', '.', 123_450],
    ['-350.00', '.', -35_000],
    ['(12.00)', '.', -1_200],
    ['+7', '.', 700],
    ['1 234,56', ',', 123_456],
    ['1.234,56', ',', 123_456],
    ['0.10', '.', 10],
    ['20 677,00 Cr', ',', 2_067_700],
    ['350.00 Dr', '.', -35_000],
    ['350.00DR', '.', -35_000],
    ['350.00-', '.', -35_000],
    ['1,234.50+', '.', 123_450],
  ] as const)('reads %s (decimal %s) as %i cents', (text, separator, cents) => {
    expect(parseStatementAmount(text, separator)).toBe(cents)
  })

  it.each([['12.345'], ['abc'], [''], ['1.2.3'], ['--5'], ['-5-'], ['(5.00) Cr'], ['-5.00 Dr'], ['1,2345.00'], ['Cr']])('refuses %s', (text) => {
    expect(parseStatementAmount(text, '.')).toBeUndefined()
  })

  // A decimal-comma mapping must not take a decimal point for a thousands separator: 20677.00 is no R 2 067 700.00.
  it.each([['20677.00'], ['1.2345,00'], ['20 677.00']])('refuses %s with a decimal comma', (text) => {
    expect(parseStatementAmount(text, ',')).toBeUndefined()
  })
})

describe('parseCsvStatement', () => {
  it('finds the heading below the account details, keeps credits and counts debits and rows without a date', () => {
    const parsed = parseCsvStatement(fixture('fnb-style.csv'), FNB_STYLE)
    expect(parsed.format).toBe('csv')
    expect(parsed.debitsSkipped).toBe(1)
    expect(parsed.lines.map(({ key: _key, ...line }) => line)).toEqual([
      { postedOn: '2025-02-24', amountCents: 2_067_700, description: 'FNB OB PMT ACME LEGAL', reference: 'REG 7KQ2M9XA' },
      { postedOn: '2025-02-26', amountCents: 500_000, description: 'CAPITEC T NKOSI', reference: '7kq2m9xa part' },
      { postedOn: '2025-02-26', amountCents: 500_000, description: 'CAPITEC T NKOSI', reference: '7kq2m9xa part' },
      { postedOn: '2025-02-27', amountCents: 123_450, description: 'MAGTAPE CREDIT UNKNOWN PAYER', reference: '' },
    ])
  })

  it('gives two identical lines of one file different keys, and the same keys when the file is read again', () => {
    const first = parseCsvStatement(fixture('fnb-style.csv'), FNB_STYLE)
    const again = parseCsvStatement(fixture('fnb-style.csv'), FNB_STYLE)
    const keys = first.lines.map((line) => line.key)
    expect(new Set(keys).size).toBe(4)
    expect(again.lines.map((line) => line.key)).toEqual(keys)
    expect(statementPaymentReference(keys[1]!)).not.toBe(statementPaymentReference(keys[2]!))
    expect(statementPaymentReference(keys[0]!)).toMatch(/^STMT-[0-9A-F]{16}$/)
  })

  it('reads semicolons, a byte-order mark, day-month dates, decimal commas and no reference column', () => {
    const parsed = parseCsvStatement(fixture('semicolon-decimal-comma.csv'), {
      delimiter: ';',
      dateColumn: 'datum',
      dateFormat: 'd MMM yyyy',
      descriptionColumn: 'Beskrywing',
      amountColumn: 'Bedrag',
      referenceColumn: '',
      decimalSeparator: ',',
    })
    expect(parsed.debitsSkipped).toBe(1)
    expect(parsed.lines).toEqual([expect.objectContaining({ postedOn: '2025-03-05', amountCents: 123_456, description: 'Betaling Ontvang', reference: '' })])
  })

  it('refuses a file without the mapped columns, saying what its first row reads', () => {
    expect(() => parseCsvStatement(fixture('semicolon-decimal-comma.csv'), FNB_STYLE)).toThrow(
      new BackOfficeError('invalid-input', {
        problem: 'csv-heading-missing',
        columns: '“Date”, “Description”, “Amount”, “Reference”',
        firstRow: 'Datum;Beskrywing;Bedrag;Verwysing',
      }),
    )
  })

  it('refuses a date in another layout and an amount that is not one, naming the row', () => {
    expect(() => parseCsvStatement(fixture('fnb-style.csv'), { ...FNB_STYLE, dateFormat: 'dd/MM/yyyy' })).toThrow(
      expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'csv-date', row: 5, date: '2025/02/24' }) }),
    )
    expect(() => parseCsvStatement(fixture('fnb-style.csv'), { ...FNB_STYLE, amountColumn: 'Description', descriptionColumn: 'Amount' })).toThrow(
      expect.objectContaining({ code: 'statement-amount-unreadable', details: expect.objectContaining({ row: 5, amount: 'FNB OB PMT ACME LEGAL' }) }),
    )
  })

  it('refuses a statement of more than 5,000 lines, and takes one of 5,000', () => {
    const rows = (count: number) =>
      ['Date,Amount,Description,Reference', ...Array.from({ length: count }, (_, index) => `2025/02/24,${index + 1}.00,PAYMENT,${index}`)].join('\n')
    expect(parseCsvStatement(rows(5000), FNB_STYLE).lines).toHaveLength(5000)
    expect(() => parseCsvStatement(rows(5001), FNB_STYLE)).toThrow(
      expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'statement-too-long', count: 5001, max: 5000 }) }),
    )
  })

  it('refuses text that is not CSV', () => {
    expect(() => parseCsvStatement('Date,Amount,Description,Reference\n2025/02/24,"1.00,x,y\n', FNB_STYLE)).toThrow(
      expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'csv-unreadable' }) }),
    )
  })
})

describe('date layouts', () => {
  it.each([
    ['yyyyMMdd', '20250307', '2025-03-07'],
    ['d MMM yyyy', '05 Mar 2025', '2025-03-05'],
    ['d MMM yyyy', '7 Mar 2025', '2025-03-07'],
  ] as const)('reads %s dates such as %s', (dateFormat, date, postedOn) => {
    const parsed = parseCsvStatement(`Date,Amount,Description,Reference\n${date},1.00,IN,`, { ...FNB_STYLE, dateFormat })
    expect(parsed.lines[0]!.postedOn).toBe(postedOn)
  })
})

describe('bank presets', () => {
  // Each bank's sample export holds, around its account details and balance rows, one payment naming a registration
  // (R 20 677.00 on 5 March), a bank fee (money out) and a payment without a reference (R 1 234.50 on 7 March).
  it.each(Object.keys(BANK_PRESETS) as BankPresetId[])('reads the %s sample: two credits, the fee left out, no balance row taken for money', (bank) => {
    const parsed = parseCsvStatement(fixture(`banks/${bank}.csv`), BANK_PRESETS[bank].columns)
    expect(parsed.lines.map((line) => [line.postedOn, line.amountCents])).toEqual([
      ['2025-02-05', 2_067_700],
      ['2025-02-07', 123_450],
    ])
    expect(`${parsed.lines[0]!.description} ${parsed.lines[0]!.reference}`).toContain('7KQ2M9XA')
    expect(parsed.debitsSkipped).toBe(1)
    expect(parsed.moneyOutCents).toBe(35_000)
    // Standard Bank's legacy export shows no balance after each line.
    expect(parsed.balanceChecked).toBe(bank !== 'standard-bank-hist')
  })

  it('reads Capitec’s money out and its fee, both written negative, as money out beside the balance', () => {
    const text = [
      'Nr,Account,Posting Date,Transaction Date,Description,Original Description,Parent Category,Category,Money In,Money Out,Fee,Balance',
      '1,1234567890,2025-03-05,2025-03-05,VENUE DEPOSIT,Payment: Venue,Business,Venue,,-1000.00,-7.50,8992.50',
      '2,1234567890,2025-03-06,2025-03-06,ACME LEGAL,Received: Acme,Income,Other Income,100.00,,,9092.50',
    ].join('\n')
    const parsed = parseCsvStatement(text, BANK_PRESETS.capitec.columns)
    expect(parsed.lines.map((line) => line.amountCents)).toEqual([10_000])
    expect(parsed.moneyOutCents).toBe(100_750)
    expect(parsed.balanceChecked).toBe(true)
    expect(() => parseCsvStatement(text.replace('9092.50', '9192.50'), BANK_PRESETS.capitec.columns)).toThrow(
      expect.objectContaining({ code: 'statement-balance-broken', details: expect.objectContaining({ row: 3 }) }),
    )
  })

  it('reads only the HIST records of Standard Bank’s legacy export, by position, and refuses one a cell short', () => {
    const columns = BANK_PRESETS['standard-bank-hist'].columns
    const text = ['ACC-NO,070000000,EVENTS COMPANY', 'OPEN,20250301,0.00', 'HIST,20250305,,100.00,IB TRANSFER,REG 7KQ2M9XA', 'CLOSE,20250331,100.00'].join('\n')
    const parsed = parseCsvStatement(text, columns)
    expect(parsed.lines.map((line) => [line.postedOn, line.amountCents, line.description, line.reference])).toEqual([
      ['2025-03-05', 10_000, 'IB TRANSFER', 'REG 7KQ2M9XA'],
    ])
    expect(() => parseCsvStatement(text.replace('HIST,20250305,,100.00', 'HIST,20250305,100.00'), columns)).toThrow(
      expect.objectContaining({ code: 'statement-row-cells', details: expect.objectContaining({ row: 3 }) }),
    )
  })

  it('takes money out as a debit whichever sign the bank writes it with, and a balance row anywhere as no transaction', () => {
    const columns = BANK_PRESETS['standard-bank'].columns
    const text = [
      'Date,Description,Reference,Payments,Deposits,Balance',
      '05/03/2025,TRANSFER IN,,,100.00,100.00',
      '05/03/2025,Opening balance,,,"5,000.00",100.00',
      '06/03/2025,FEE,,350.00,,-250.00',
      '06/03/2025,FEE,,-1.00,,-251.00',
      '07/03/2025,BAL C/F,,,,-251.00',
    ].join('\n')
    const parsed = parseCsvStatement(text, columns)
    expect(parsed.lines.map((line) => line.amountCents)).toEqual([10_000])
    expect(parsed.debitsSkipped).toBe(2)
  })
})

describe('parseOfxStatement', () => {
  it('reads OFX 2 with CDATA sections, and keys a line with an empty FITID by its content', () => {
    const text = fixture('xml-cdata-statement.ofx')
    const parsed = parseOfxStatement(text)
    expect(parsed.debitsSkipped).toBe(1)
    expect(parsed.lines.map(({ key: _key, ...line }) => line)).toEqual([
      { postedOn: '2025-02-05', amountCents: 2_067_700, description: 'FNB OB PMT ACME LEGAL <REG> 7KQ2M9XA Smith & Sons', reference: '' },
      { postedOn: '2025-02-07', amountCents: 123_450, description: 'MAGTAPE CREDIT UNKNOWN PAYER', reference: '' },
    ])
    const [withId, withoutId] = parsed.lines
    expect(withId!.key).toMatch(/^ofx:[0-9a-f]{64}$/)
    expect(withoutId!.key).toMatch(/^ofx:content:[0-9a-f]{64}$/)
    expect(parseOfxStatement(text).lines.map((line) => line.key)).toEqual(parsed.lines.map((line) => line.key))
    const twoWithoutId = text
      .replace('<FITID>202503050001</FITID>', '<FITID></FITID>')
      .replace('20250305120000[+2:SAST]', '20250307')
      .replace('<TRNAMT>20677.00', '<TRNAMT>1234.50')
    const keys = parseOfxStatement(
      twoWithoutId.replace(/<NAME><!\[CDATA\[FNB[^\]]*\]\]><\/NAME>\s*<MEMO>[^\n]*<\/MEMO>/, '<NAME>MAGTAPE CREDIT UNKNOWN PAYER</NAME>'),
    ).lines.map((line) => line.key)
    expect(new Set(keys).size).toBe(2)
  })

  it('refuses a statement in another currency than rand', () => {
    expect(() => parseOfxStatement(fixture('usd-statement.ofx'))).toThrow(
      expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'ofx-currency', currency: 'USD' }) }),
    )
  })

  it('refuses malformed OFX 2, saying where', () => {
    expect(() => parseOfxStatement(fixture('xml-cdata-statement.ofx').replace('</NAME>', ''))).toThrow(
      expect.objectContaining({
        code: 'invalid-input',
        details: expect.objectContaining({ problem: 'ofx-unreadable', reason: expect.stringMatching(/^line \d+: .+/) }),
      }),
    )
  })

  it('reads an SGML (OFX 1) statement: credits keyed by account and FITID, entities decoded, debits counted', () => {
    const text = fixture('sgml-statement.ofx')
    expect(looksLikeOfx(text)).toBe(true)
    const parsed = parseOfxStatement(text)
    expect(parsed.format).toBe('ofx')
    expect(parsed.debitsSkipped).toBe(1)
    expect(parsed.lines.map(({ key: _key, ...line }) => line)).toEqual([
      { postedOn: '2025-02-24', amountCents: 2_067_700, description: 'ACME LEGAL SERVICES REG 7KQ2M9XA & thanks', reference: '' },
      { postedOn: '2025-02-26', amountCents: 500_000, description: 'CAPITEC T NKOSI', reference: '7kq2m9xa' },
    ])
    expect(parseOfxStatement(text).lines.map((line) => line.key)).toEqual(parsed.lines.map((line) => line.key))
  })

  it('reads an XML (OFX 2) statement', () => {
    const text = fixture('xml-statement.ofx')
    expect(looksLikeOfx(text)).toBe(true)
    expect(parseOfxStatement(text).lines).toEqual([
      expect.objectContaining({ postedOn: '2025-02-27', amountCents: 123_450, description: 'Mokoena & Daughters Workshop fees', reference: '' }),
    ])
  })

  it('tells CSV from OFX by content', () => {
    expect(looksLikeOfx(fixture('fnb-style.csv'))).toBe(false)
  })

  it('refuses an OFX file without a bank statement', () => {
    expect(() => parseOfxStatement('OFXHEADER:100\n\n<OFX><SIGNONMSGSRSV1><SONRS><LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1></OFX>')).toThrow(
      expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'ofx-no-statement' }) }),
    )
  })
})
