import { formatAmount } from '@events/pricing'
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TEST_BACKENDS, openTestDatabase, testAuditRows, type TestDatabase } from '../../test-support.ts'
import type { StaffCommandContext } from '../command.ts'
import { markRegistrationPaid } from '../../registration/payment-state.ts'
import { recordBankTransfer } from '../bank-transfers.ts'
import { RECORDED_BY, register, STAFF, testContext } from '../fixtures.ts'
import {
  assignStatementLine,
  confirmStatementLines,
  dismissStatementLine,
  splitStatementLine,
  getStatementImport,
  importBankStatement,
  previewBankStatement,
  listStatementImports,
  listStatementMappings,
  referencesIn,
  statementLines,
  type StatementMappingInput,
} from './bank-statements.ts'

// Legal Opinion, venue, two delegates: 2 × R 8 990 + 15% VAT.
const TOTAL_CENTS = 2_067_700

const FNB_MAPPING: StatementMappingInput = {
  name: 'FNB cheque account',
  delimiter: ',',
  dateColumn: 'Date',
  dateFormat: 'yyyy/MM/dd',
  descriptionColumn: 'Description',
  amountColumn: 'Amount',
  referenceColumn: 'Reference',
  decimalSeparator: '.',
}

/** The FNB-style fixture with its sample reference replaced by real registrations' references. */
function fnbStatement(...references: string[]): Uint8Array {
  const lines = [
    'Date,Amount,Balance,Description,Reference',
    ...references.map((reference, index) => `2025/02/2${index + 1},"20,677.00",0.00,"FNB OB PMT COMPANY ${index + 1}","REG ${reference}"`),
    '2025/02/25,-350.00,0.00,"MONTHLY ACCOUNT FEE",""',
    '2025/02/27,"1,234.50",0.00,"MAGTAPE CREDIT UNKNOWN PAYER",""',
  ]
  return new TextEncoder().encode(lines.join('\r\n'))
}

function csv(...rows: string[]): Uint8Array {
  return new TextEncoder().encode(['Date,Amount,Balance,Description,Reference', ...rows].join('\n'))
}

describe('referencesIn', () => {
  it.each([
    [['FNB OB PMT', 'REG 7kq2m9xa'], ['7KQ2M9XA']],
    [['7KQ2M9XA/7KQ2M9XA', ''], ['7KQ2M9XA']],
    [['PAYMENT 7KQ2M9XAB', ''], []],
    [['ref 7KQ2M9X0', ''], []],
    [
      ['A: 7KQ2M9XA B: 8LR3N4YB', ''],
      ['7KQ2M9XA', '8LR3N4YB'],
    ],
  ])('finds %j → %j', (texts, expected) => {
    expect(referencesIn(...texts)).toEqual(expected)
  })
})

describe.each(TEST_BACKENDS)('bank statements on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  async function statusOf(reference: string) {
    const row = await testDb.db.kysely.selectFrom('registrations').select(['id', 'status']).where('reference', '=', reference).executeTakeFirstOrThrow()
    const receipts = await testDb.db.kysely
      .selectFrom('outbox_messages')
      .select('id')
      .where('source_id', '=', row.id)
      .where('topic', '=', 'payment.receipt')
      .execute()
    return { status: row.status, receipts: receipts.length }
  }

  it('proposes the lines naming registrations, records both in one step with receipts, and a re-import records nothing twice', async () => {
    const [first, second] = await register(testDb.db, {}, { companyName: 'Other Company' })
    const context = testContext(testDb.db)

    const imported = await importBankStatement(
      context,
      { fileName: 'february.csv', content: fnbStatement(first!, second!), mapping: { create: FNB_MAPPING } },
      STAFF,
    )
    expect(imported).toMatchObject({
      fileName: 'february.csv',
      format: 'csv',
      mappingName: 'FNB cheque account',
      lineCount: 3,
      newLineCount: 3,
      debitsSkipped: 1,
      importedBy: STAFF.name,
    })
    expect(await listStatementMappings(context)).toEqual([
      expect.objectContaining({ name: 'FNB cheque account', dateFormat: 'yyyy/MM/dd', referenceColumn: 'Reference' }),
    ])

    const lines = await statementLines(context, { importId: imported.id })
    expect(lines.map((line) => [line.postedOn, line.amountCents, line.state])).toEqual([
      ['2025-02-21', TOTAL_CENTS, { kind: 'pays-in-full', registrationReference: first, companyName: 'Acme Legal Services', outstandingCents: TOTAL_CENTS }],
      ['2025-02-22', TOTAL_CENTS, { kind: 'pays-in-full', registrationReference: second, companyName: 'Other Company', outstandingCents: TOTAL_CENTS }],
      ['2025-02-27', 123_450, { kind: 'unmatched', suggestions: [] }],
    ])

    const confirmed = await confirmStatementLines(context, [lines[0]!.id, lines[1]!.id], STAFF)
    expect(confirmed.map((result) => result.outcome)).toEqual(['recorded', 'recorded'])
    expect(confirmed[0]).toMatchObject({
      transfer: { reference: first, after: { status: 'paid', outstandingCents: 0 }, receiptQueued: true, payment: { receivedOn: '2025-02-21' } },
    })
    expect(await statusOf(first!)).toEqual({ status: 'paid', receipts: 1 })
    expect(await statusOf(second!)).toEqual({ status: 'paid', receipts: 1 })
    // The receipt names the transfer as the registrant's bank shows it, on the statement's date; never the site's STMT- key.
    const receipt = await testDb.db.kysely
      .selectFrom('outbox_messages')
      .innerJoin('registrations', 'registrations.id', 'outbox_messages.source_id')
      .select('outbox_messages.mail')
      .where('registrations.reference', '=', first!)
      .where('outbox_messages.topic', '=', 'payment.receipt')
      .executeTakeFirstOrThrow()
    const receiptText = (JSON.parse(receipt.mail) as { text: string }).text
    expect(receiptText).toContain(`As your bank describes it: FNB OB PMT COMPANY 1 / REG ${first}`)
    expect(receiptText).toContain('Received on: 21 February 2025')
    expect(receiptText).not.toContain('STMT-')
    // The import and each recorded line wrote their audit row in their own transaction, with who and from where.
    expect((await testAuditRows(testDb.db)).map((row) => [row.action, row.subjectId, row.actorId, row.ipAddress])).toEqual([
      ['bank-statement-imported', imported.id, STAFF.id, STAFF.ipAddress],
      ['registration-payment-recorded', first, STAFF.id, STAFF.ipAddress],
      ['registration-payment-recorded', second, STAFF.id, STAFF.ipAddress],
    ])

    const [savedMapping] = await listStatementMappings(context)
    const again = await importBankStatement(
      context,
      { fileName: 'february again.csv', content: fnbStatement(first!, second!), mapping: { id: savedMapping!.id } },
      STAFF,
    )
    expect(again).toMatchObject({ lineCount: 3, newLineCount: 0 })
    const reimported = await statementLines(context, { importId: again.id })
    expect(reimported.map((line) => line.id)).toEqual(lines.map((line) => line.id))
    expect(reimported.map((line) => line.state.kind)).toEqual(['recorded', 'recorded', 'unmatched'])
    expect(reimported[0]!.state).toMatchObject({ registrationReference: first, recordedBy: RECORDED_BY.name })

    const twice = await confirmStatementLines(context, [lines[0]!.id], STAFF)
    expect(twice).toMatchObject([
      {
        lineId: lines[0]!.id,
        outcome: 'refused',
        error: { code: 'statement-line-settled', details: { amountCents: 2_067_700, postedOn: '2025-02-21', state: 'recorded', registrationReference: first } },
      },
    ])
    expect(await testDb.db.kysely.selectFrom('bank_payments').select('id').execute()).toHaveLength(2)
    expect(await statusOf(first!)).toEqual({ status: 'paid', receipts: 1 })

    expect((await statementLines(context)).map((line) => line.amountCents)).toEqual([123_450])
    expect((await listStatementImports(context)).map((entry) => entry.fileName)).toEqual(['february again.csv', 'february.csv'])
  })

  it('shows a part payment as such and records a surplus in full, counting earlier lines against what is outstanding', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    const imported = await importBankStatement(
      context,
      {
        fileName: 'part.csv',
        content: csv(`2025/02/20,10000.00,0,"EFT ${reference}",""`, `2025/02/21,20000.00,0,"EFT",${reference}`, `2025/02/22,5.00,0,"EFT",${reference}`),
        mapping: { create: FNB_MAPPING },
      },
      STAFF,
    )
    const lines = await statementLines(context, { importId: imported.id })
    expect(lines.map((line) => line.state)).toEqual([
      { kind: 'part-payment', registrationReference: reference, companyName: 'Acme Legal Services', outstandingCents: TOTAL_CENTS },
      {
        kind: 'surplus',
        registrationReference: reference,
        companyName: 'Acme Legal Services',
        outstandingCents: TOTAL_CENTS - 1_000_000,
        surplusCents: 2_000_000 - (TOTAL_CENTS - 1_000_000),
      },
      { kind: 'surplus', registrationReference: reference, companyName: 'Acme Legal Services', outstandingCents: 0, surplusCents: 500 },
    ])

    const confirmed = await confirmStatementLines(
      context,
      lines.map((line) => line.id),
      STAFF,
    )
    expect(confirmed.map((result) => result.outcome)).toEqual(['recorded', 'recorded', 'recorded'])
    // The R 20 000 completes the payment with a surplus; the R 5 after it is all surplus.
    expect(confirmed.map((result) => (result.outcome === 'recorded' ? result.transfer.surplusCents : undefined))).toEqual([
      0,
      2_000_000 - (TOTAL_CENTS - 1_000_000),
      500,
    ])
    expect(await statusOf(reference!)).toEqual({ status: 'paid', receipts: 1 })
    expect(await statementLines(context)).toEqual([])
  })

  it('offers, for staff to confirm, a registration whose reference is glued inside the text or that owes the amount under a similar name', async () => {
    const [glued, named, sameAmountOtherName, partPaid] = await register(
      testDb.db,
      { companyName: 'Lima Consulting' },
      { companyName: 'Umhlanga Légal (Pty) Ltd' },
      { companyName: 'Zebra Traders' },
      { companyName: 'Khanyisa Holdings' },
    )
    const context = testContext(testDb.db)
    await recordBankTransfer(context, { reference: partPaid!, amount: '677.00', receivedOn: '2025-02-10', bankReference: 'KHAN PART' }, STAFF)
    const owing = (reference: string, basis: 'reference-in-text' | 'amount-and-name', companyName: string, outstandingCents = TOTAL_CENTS) => ({
      registrationReference: reference,
      companyName,
      outstandingCents,
      basis,
    })
    // Each line, what it offers: no line is recorded until staff confirm it.
    const cases: Array<[row: string, suggestions: ReturnType<typeof owing>[]]> = [
      [`2025/02/20,20677.00,0,"LIMA${glued}","ABSA BANK"`, [owing(glued!, 'reference-in-text', 'Lima Consulting')]],
      [`2025/02/20,20677.00,0,"IB PAYMENT","x${glued!.toLowerCase()}99"`, [owing(glued!, 'reference-in-text', 'Lima Consulting')]],
      ['2025/02/21,20677.00,0,"UMHLANGA LEGAL SERVICES",""', [owing(named!, 'amount-and-name', 'Umhlanga Légal (Pty) Ltd')]],
      ['2025/02/21,20677.00,0,"DEPOSIT","UMHLANGALEGAL"', [owing(named!, 'amount-and-name', 'Umhlanga Légal (Pty) Ltd')]],
      ['2025/02/22,20000.00,0,"KHANYISA HOLDINGS EFT",""', [owing(partPaid!, 'amount-and-name', 'Khanyisa Holdings', TOTAL_CENTS - 67_700)]],
      // The same amount owed, but no word of the name: nothing offered; nor for the name with another amount.
      ['2025/02/22,20677.00,0,"CASH DEPOSIT SANDTON",""', []],
      ['2025/02/23,1000.00,0,"UMHLANGA LEGAL",""', []],
      // Only words that say which company it is count: "Holdings", "Pty", "Ltd" do not.
      ['2025/02/23,20677.00,0,"PTY LTD HOLDINGS",""', []],
      // Eight letters inside a longer word that are no registration's reference offer nothing.
      ['2025/02/24,20677.00,0,"ZZZZZZZZZZZZ",""', []],
    ]
    expect(sameAmountOtherName).toBeDefined()
    const imported = await importBankStatement(
      context,
      { fileName: 'suggestions.csv', content: csv(...cases.map(([row]) => row)), mapping: { create: FNB_MAPPING } },
      STAFF,
    )
    const lines = await statementLines(context, { importId: imported.id })
    expect(lines.map((line) => line.state)).toEqual(cases.map(([, suggestions]) => ({ kind: 'unmatched', suggestions })))
    for (const reference of [glued!, named!]) expect(await statusOf(reference)).toEqual({ status: 'awaiting-payment', receipts: 0 })

    // Confirmed by staff, the glued line is recorded against the registration offered.
    await assignStatementLine(context, lines[0]!.id, glued!, STAFF)
    expect(await statusOf(glued!)).toEqual({ status: 'paid', receipts: 1 })
  })

  it('leaves lines without a registration for staff to assign by hand, with the amount of the line', async () => {
    const [reference, other] = await register(testDb.db, {}, { companyName: 'Other Company' })
    const context = testContext(testDb.db)
    const imported = await importBankStatement(
      context,
      {
        fileName: 'hand.csv',
        content: csv('2025/02/20,20677.00,0,"CASH DEPOSIT SANDTON",""', `2025/02/21,100.00,0,"PAYS ${reference} AND ${other}",""`),
        mapping: { create: FNB_MAPPING },
      },
      STAFF,
    )
    const [cash, both] = await statementLines(context, { importId: imported.id })
    expect(cash!.state).toEqual({ kind: 'unmatched', suggestions: [] })
    expect(both!.state).toEqual({ kind: 'several-references', registrationReferences: [reference, other] })

    await expect(assignStatementLine(context, cash!.id, 'nonsense', STAFF)).rejects.toThrow(
      expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'registration-reference' }) }),
    )
    await expect(assignStatementLine(context, cash!.id, 'ZZZZZZZZ', STAFF)).rejects.toMatchObject({ code: 'not-found' })
    expect(await testDb.db.kysely.selectFrom('bank_payments').select('id').execute()).toHaveLength(0)

    const recorded = await assignStatementLine(context, cash!.id, ` ${reference!.toLowerCase()} `, STAFF)
    expect(recorded).toMatchObject({
      reference,
      receiptQueued: true,
      payment: { amountCents: TOTAL_CENTS, note: 'Bank statement of 2025-02-20: CASH DEPOSIT SANDTON' },
    })
    await expect(assignStatementLine(context, cash!.id, other!, STAFF)).rejects.toThrow(
      expect.objectContaining({
        code: 'statement-line-settled',
        details: expect.objectContaining({ postedOn: '2025-02-20', state: 'recorded', registrationReference: reference }),
      }),
    )
    expect(await statusOf(other!)).toEqual({ status: 'awaiting-payment', receipts: 0 })
    expect((await testAuditRows(testDb.db)).map((row) => [row.action, row.subjectId])).toEqual([
      ['bank-statement-imported', imported.id],
      ['registration-payment-recorded', reference],
    ])
  })

  it('keeps no import when its audit row cannot be written', async () => {
    const [reference] = await register(testDb.db, {})
    const failing: StaffCommandContext = { ...testContext(testDb.db), audit: async () => Promise.reject(new Error('audit log unavailable')) }
    await expect(
      importBankStatement(failing, { fileName: 'february.csv', content: fnbStatement(reference!), mapping: { create: FNB_MAPPING } }, STAFF),
    ).rejects.toThrow('audit log unavailable')
    expect(await testDb.db.kysely.selectFrom('bank_statement_imports').select('id').execute()).toEqual([])
    expect(await testDb.db.kysely.selectFrom('bank_statement_lines').select('id').execute()).toEqual([])
    expect(await listStatementMappings(testContext(testDb.db))).toEqual([])
  })

  it('records a line once when two members confirm it at the same moment', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    const other = testContext(await testDb.openAnother())
    const imported = await importBankStatement(
      context,
      { fileName: 'race.csv', content: csv(`2025/02/20,5000.00,0,"EFT ${reference}",""`), mapping: { create: FNB_MAPPING } },
      STAFF,
    )
    const [line] = await statementLines(context, { importId: imported.id })

    const results = (await Promise.all([confirmStatementLines(context, [line!.id], STAFF), confirmStatementLines(other, [line!.id], STAFF)])).flat()
    expect(results.map((result) => result.outcome).sort()).toEqual(['recorded', 'refused'])
    const payments = await testDb.db.kysely.selectFrom('bank_payments').select('amount_cents').execute()
    expect(payments).toEqual([{ amount_cents: 500_000 }])
  })

  it('imports OFX keyed by FITID, so the same transactions exported again are not new', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    const ofx = readFileSync(new URL('./fixtures/sgml-statement.ofx', import.meta.url), 'utf8')
      .replaceAll('7KQ2M9XA', reference!)
      .replaceAll('7kq2m9xa', reference!.toLowerCase())
    const first = await importBankStatement(context, { fileName: 'feb.ofx', content: new TextEncoder().encode(ofx) }, STAFF)
    expect(first).toMatchObject({ format: 'ofx', mappingName: null, lineCount: 2, newLineCount: 2, debitsSkipped: 1 })
    // The bank's later export of an overlapping period: the same FITIDs, the amounts written differently.
    const overlapping = ofx.replace('<TRNAMT>5000,00', '<TRNAMT>5000.00')
    const second = await importBankStatement(context, { fileName: 'feb-again.ofx', content: new TextEncoder().encode(overlapping) }, STAFF)
    expect(second).toMatchObject({ lineCount: 2, newLineCount: 0 })
    const lines = await statementLines(context, { importId: second.id })
    expect(lines.map((line) => line.state.kind)).toEqual(['pays-in-full', 'surplus'])
    expect(await getStatementImport(context, second.id)).toEqual(second)
  })

  it('reads a Windows-1252 file and keeps its accents', async () => {
    await register(testDb.db, {})
    const context = testContext(testDb.db)
    const bytes = Uint8Array.from([
      ...new TextEncoder().encode('Date,Amount,Balance,Description,Reference\n2025/02/20,10.00,0,"CAF'),
      0xc9,
      ...new TextEncoder().encode(' PAYMENT",""\n'),
    ])
    const imported = await importBankStatement(context, { fileName: 'cafe.csv', content: bytes, mapping: { create: FNB_MAPPING } }, STAFF)
    expect((await statementLines(context, { importId: imported.id }))[0]!.description).toBe('CAFÉ PAYMENT')
  })

  it('refuses a file that does not fit, a CSV without a mapping and a duplicate mapping name, storing nothing', async () => {
    const context = testContext(testDb.db)
    const semicolons = readFileSync(new URL('./fixtures/semicolon-decimal-comma.csv', import.meta.url))
    await expect(importBankStatement(context, { fileName: 'x.csv', content: semicolons, mapping: { create: FNB_MAPPING } }, STAFF)).rejects.toThrow(
      expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'csv-heading-missing' }) }),
    )
    await expect(importBankStatement(context, { fileName: 'x.csv', content: semicolons }, STAFF)).rejects.toThrow(
      expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'mapping-missing' }) }),
    )
    await expect(importBankStatement(context, { fileName: 'x.csv', content: new Uint8Array() }, STAFF)).rejects.toThrow(
      expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'statement-file-missing' }) }),
    )
    await expect(
      importBankStatement(context, { fileName: 'x.csv', content: csv('2025/02/25,-350.00,0,"FEE",""'), mapping: { create: FNB_MAPPING } }, STAFF),
    ).rejects.toThrow(
      expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'statement-no-money-in', paymentsOut: 1 }) }),
    )
    await expect(
      importBankStatement(
        context,
        { fileName: 'x.csv', content: csv('2025/02/25,350.00,0,"IN",""'), mapping: { create: { ...FNB_MAPPING, dateFormat: 'yyyy' } } },
        STAFF,
      ),
    ).rejects.toThrow(expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'mapping-date-format' }) }))
    await expect(
      importBankStatement(
        context,
        { fileName: 'x.csv', content: csv('2025/02/25,350.00,0,"IN",""'), mapping: { create: { ...FNB_MAPPING, amountColumn: ' ' } } },
        STAFF,
      ),
    ).rejects.toThrow(expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'mapping-amount-missing' }) }))
    expect(await listStatementMappings(context)).toEqual([])
    expect(await listStatementImports(context)).toEqual([])

    await importBankStatement(context, { fileName: 'ok.csv', content: csv('2025/02/25,350.00,0,"IN",""'), mapping: { create: FNB_MAPPING } }, STAFF)
    await expect(
      importBankStatement(context, { fileName: 'ok2.csv', content: csv('2025/02/26,350.00,0,"IN",""'), mapping: { create: FNB_MAPPING } }, STAFF),
    ).rejects.toThrow(
      expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'mapping-name-taken', name: 'FNB cheque account' }) }),
    )
    expect(await listStatementImports(context)).toHaveLength(1)
    expect(await testDb.db.kysely.selectFrom('bank_statement_lines').select('id').execute()).toHaveLength(1)
  })

  it('proposes a line for a registration paid meanwhile by hand as all surplus, and refuses one paid by card', async () => {
    const [reference, byCard] = await register(testDb.db, {}, { companyName: 'Card Payer' })
    const context = testContext(testDb.db)
    const imported = await importBankStatement(
      context,
      { fileName: 'paid.csv', content: fnbStatement(reference!, byCard!), mapping: { create: FNB_MAPPING } },
      STAFF,
    )
    await recordBankTransfer(
      context,
      { reference: reference!, amount: formatAmount(TOTAL_CENTS), receivedOn: '2025-02-21', bankReference: 'TYPED BY HAND' },
      STAFF,
    )
    const { id: cardId } = await testDb.db.kysely.selectFrom('registrations').select('id').where('reference', '=', byCard!).executeTakeFirstOrThrow()
    await testDb.db.writeTransaction((transaction) => markRegistrationPaid(transaction, cardId, new Date('2025-02-21T10:00:00Z')))
    const [line, cardLine] = await statementLines(context, { importId: imported.id })
    expect(line!.state).toEqual({
      kind: 'surplus',
      registrationReference: reference,
      companyName: 'Acme Legal Services',
      outstandingCents: 0,
      surplusCents: TOTAL_CENTS,
    })
    expect(cardLine!.state).toEqual({ kind: 'already-paid', registrationReference: byCard, companyName: 'Card Payer' })
    expect(await confirmStatementLines(context, [cardLine!.id], STAFF)).toMatchObject([
      {
        lineId: cardLine!.id,
        outcome: 'refused',
        error: { code: 'statement-line-unmatched', details: { postedOn: '2025-02-22', state: 'already-paid', registrationReference: byCard } },
      },
    ])
  })
})

describe.each(TEST_BACKENDS)('bank statements on %s, continued', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  /** An FNB export of the lines, each with the running balance the bank would show after it. */
  const fnbLines = (...lines: Array<[string, string, string]>) => {
    let balanceCents = 0
    const rows = lines.map(([date, amount, description]) => {
      balanceCents += Math.round(Number(amount.replaceAll(',', '')) * 100)
      return `${date},"${amount}",${(balanceCents / 100).toFixed(2)},"${description}"`
    })
    return new TextEncoder().encode(['Date,Amount,Balance,Description', ...rows].join('\r\n'))
  }

  const sample = (name: string, reference: string) =>
    new TextEncoder().encode(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8').replaceAll('7KQ2M9XA', reference))

  it.each(['fnb', 'standard-bank', 'standard-bank-hist', 'absa', 'nedbank', 'capitec'])(
    'imports the %s sample with its preset: the registration paid in full proposed, the unknown payer to assign',
    async (bank) => {
      const [reference] = await register(testDb.db, {})
      const context = testContext(testDb.db)
      const imported = await importBankStatement(
        context,
        { fileName: `${bank}.csv`, content: sample(`banks/${bank}.csv`, reference!), mapping: { preset: bank } },
        STAFF,
      )
      expect(imported).toMatchObject({ format: 'csv', lineCount: 2, newLineCount: 2 })
      expect(imported.mappingName).toBe(
        {
          fnb: 'FNB',
          'standard-bank': 'Standard Bank',
          'standard-bank-hist': 'Standard Bank (legacy HIST export)',
          absa: 'Absa',
          nedbank: 'Nedbank',
          capitec: 'Capitec',
        }[bank],
      )
      expect((await statementLines(context, { importId: imported.id })).map((line) => [line.postedOn, line.amountCents, line.state.kind])).toEqual([
        ['2025-02-05', TOTAL_CENTS, 'pays-in-full'],
        ['2025-02-07', 123_450, 'unmatched'],
      ])
      expect(await listStatementMappings(context)).toEqual([])
      expect(await getStatementImport(context, imported.id)).toEqual(imported)
    },
  )

  const bankFile = (name: string, edit: (text: string) => string) =>
    new TextEncoder().encode(edit(readFileSync(new URL(`./fixtures/banks/${name}`, import.meta.url), 'utf8')))

  // A bank's export set to another date layout than the preset's: chosen for the file, it reads; left as the
  // preset's, the first date is refused with its row.
  it.each([
    ['capitec', 'capitec.csv', (text: string) => text.replaceAll(/(\d{4})-02-0(\d)/g, '0$2 Feb $1'), 'd MMM yyyy', '05 Feb 2025'],
    ['fnb', 'fnb.csv', (text: string) => text.replaceAll(/2025\/02\/0(\d)/g, '2025020$1'), 'yyyyMMdd', '20250205'],
    ['standard-bank-hist', 'standard-bank-hist.csv', (text: string) => text.replaceAll(/HIST,202502(\d\d)/g, 'HIST,$1/02/2025'), 'dd/MM/yyyy', '05/02/2025'],
  ] as const)('reads the %s preset with the date layout chosen for the file', async (bank, file, edit, dateFormat, firstDate) => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    const content = bankFile(file, (text) => edit(text).replaceAll('7KQ2M9XA', reference!))
    await expect(importBankStatement(context, { fileName: file, content, mapping: { preset: bank } }, STAFF)).rejects.toMatchObject({
      details: { problem: 'csv-date', date: firstDate },
    })
    await expect(importBankStatement(context, { fileName: file, content, mapping: { preset: bank, dateFormat: 'dd.MM.yy' } }, STAFF)).rejects.toMatchObject({
      details: { problem: 'mapping-date-format' },
    })
    const imported = await importBankStatement(context, { fileName: file, content, mapping: { preset: bank, dateFormat } }, STAFF)
    expect((await statementLines(context, { importId: imported.id })).map((line) => [line.postedOn, line.state.kind])).toEqual([
      ['2025-02-05', 'pays-in-full'],
      ['2025-02-07', 'unmatched'],
    ])
  })

  // FNB's download also comes with the description second and an Accrued Bank Charges column: charges the bank levies
  // at month end, not taken from that line's balance, so they are neither money out nor part of the balance check.
  it('reads FNB’s layout with the accrued bank charges column and dates as 05 Feb 2025', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    const content = sample('banks/fnb-accrued-charges.csv', reference!)
    const imported = await importBankStatement(context, { fileName: 'fnb.csv', content, mapping: { preset: 'fnb', dateFormat: 'd MMM yyyy' } }, STAFF)
    expect((await statementLines(context, { importId: imported.id })).map((line) => [line.postedOn, line.amountCents, line.state.kind])).toEqual([
      ['2025-02-05', TOTAL_CENTS, 'pays-in-full'],
      ['2025-02-07', 123_450, 'unmatched'],
    ])
    const misread = new TextEncoder().encode(
      new TextDecoder().decode(sample('banks/fnb-accrued-charges.csv', 'ZZZZZZZZ')).replace('"21,327.00"', '"21,321.50"'),
    )
    await expect(
      importBankStatement(context, { fileName: 'fnb.csv', content: misread, mapping: { preset: 'fnb', dateFormat: 'd MMM yyyy' } }, STAFF),
    ).rejects.toMatchObject({ code: 'statement-balance-broken' })
  })

  it('previews a statement as the import would read it, storing nothing', async () => {
    const context = testContext(testDb.db)
    const preview = await previewBankStatement(context, {
      fileName: 'nedbank.csv',
      content: sample('banks/nedbank.csv', 'ZZZZZZZZ'),
      mapping: { preset: 'nedbank' },
    })
    expect(preview).toEqual({
      fileName: 'nedbank.csv',
      format: 'csv',
      mappingName: 'Nedbank',
      lineCount: 2,
      moneyInCents: 2_067_700 + 123_450,
      debitsSkipped: 1,
      moneyOutCents: 35_000,
      firstDate: '2025-02-05',
      lastDate: '2025-02-07',
      balanceChecked: true,
    })
    expect(await listStatementImports(context)).toEqual([])
    expect(await testDb.db.kysely.selectFrom('bank_statement_lines').select('id').execute()).toEqual([])
    await expect(
      previewBankStatement(context, {
        fileName: 'nedbank.csv',
        content: new TextEncoder().encode(new TextDecoder().decode(sample('banks/nedbank.csv', 'ZZZZZZZZ')).replace('21327.00', '21372.00')),
        mapping: { preset: 'nedbank' },
      }),
    ).rejects.toMatchObject({ code: 'statement-balance-broken', details: expect.objectContaining({ row: 7 }) })
  })

  it('saves a described mapping with money in and money out, charges, a running balance and dates as 20250307, and reads the next file with it', async () => {
    const context = testContext(testDb.db)
    const file = (...rows: string[]) => new TextEncoder().encode(['Datum;Omskrywing;In;Uit;Fooi;Saldo', ...rows].join('\n'))
    const mapping: StatementMappingInput = {
      name: 'Capitec described',
      delimiter: ';',
      dateColumn: 'Datum',
      dateFormat: 'yyyyMMdd',
      descriptionColumn: 'Omskrywing',
      amountColumn: '',
      moneyInColumn: 'In',
      moneyOutColumn: 'Uit',
      feeColumn: 'Fooi',
      balanceColumn: 'Saldo',
      referenceColumn: '',
      decimalSeparator: ',',
    }
    const first = await importBankStatement(
      context,
      { fileName: 'a.csv', content: file('20250307;ACME 7KQ2M9XA;20 677,00;;;20 677,00', '20250307;FEE;;;-5,50;20 671,50'), mapping: { create: mapping } },
      STAFF,
    )
    expect(first).toMatchObject({ lineCount: 1, debitsSkipped: 1 })
    const [saved] = await listStatementMappings(context)
    expect(saved).toMatchObject({ moneyInColumn: 'In', moneyOutColumn: 'Uit', feeColumn: 'Fooi', balanceColumn: 'Saldo', dateFormat: 'yyyyMMdd' })
    // The saved mapping checks the balance of the next file too.
    await expect(
      importBankStatement(context, { fileName: 'b.csv', content: file('20250308;PAYER;100,00;;;200,00'), mapping: { id: saved!.id } }, STAFF),
    ).resolves.toMatchObject({ lineCount: 1 })
    await expect(
      importBankStatement(
        context,
        { fileName: 'c.csv', content: file('20250309;PAYER;100,00;;;200,00', '20250309;PAYER;50,00;;;260,00'), mapping: { id: saved!.id } },
        STAFF,
      ),
    ).rejects.toMatchObject({ code: 'statement-balance-broken', details: expect.objectContaining({ row: 3, expectedCents: 25_000 }) })
    await expect(
      importBankStatement(
        context,
        { fileName: 'd.csv', content: file('20250309;PAYER;100,00;;;200,00'), mapping: { create: { ...mapping, name: 'Both', amountColumn: 'In' } } },
        STAFF,
      ),
    ).rejects.toThrow(expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'mapping-amount-twice' }) }))
  })

  // Each file breaks in one way; each is refused naming its row, and nothing of it is stored.
  it.each([
    {
      case: 'an unquoted comma in a description (a cell more than the heading)',
      mapping: { preset: 'absa' },
      content: bankFile('absa.csv', (text) => text.replace('ACB CREDIT ACME LEGAL', 'ACB CREDIT ACME, LEGAL')),
      code: 'statement-row-cells',
      details: { row: 6, cells: 7, headingCells: 6, content: '05/02/2025,ACB CREDIT ACME,LEGAL 7KQ2M9XA,,,20677.00,21677.00' },
    },
    {
      case: 'a transaction row a cell short',
      mapping: { preset: 'fnb' },
      content: bankFile('fnb.csv', (text) => text.replace('2025/02/06,-350.00,"21,327.00","#MONTHLY ACCOUNT FEE"', '2025/02/06,-350.00,"21,327.00"')),
      code: 'statement-row-cells',
      details: { row: 8, cells: 3, headingCells: 4 },
    },
    {
      case: 'a point-decimal amount read with a decimal-comma mapping',
      mapping: { create: { ...FNB_MAPPING, referenceColumn: '', decimalSeparator: ',' as const } },
      content: bankFile('fnb.csv', (text) => text.replace('"20,677.00","21,677.00"', '20677.00,21677.00')),
      code: 'statement-amount-unreadable',
      details: { row: 7, amount: '20677.00', decimalSeparator: ',' },
    },
    {
      case: 'a line missing (the running balance jumps)',
      mapping: { preset: 'fnb' },
      content: bankFile('fnb.csv', (text) => text.replace(/2025\/02\/06,.*\r?\n/, '')),
      code: 'statement-balance-broken',
      details: { row: 8, balanceCents: 2_256_150, expectedCents: 2_291_150 },
    },
    {
      case: 'a closing balance that does not agree with the lines',
      mapping: { preset: 'nedbank' },
      content: bankFile('nedbank.csv', (text) => text.replace('Closing Balance,,,,22561.50', 'Closing Balance,,,,22651.50')),
      code: 'statement-balance-broken',
      details: { row: 9, balanceCents: 2_265_150, expectedCents: 2_256_150 },
    },
    {
      case: 'an opening balance that does not lead to the first line',
      mapping: { preset: 'standard-bank' },
      content: bankFile('standard-bank.csv', (text) => text.replace('BALANCE BROUGHT FORWARD,,,,1000.00', 'BALANCE BROUGHT FORWARD,,,,100.00')),
      code: 'statement-balance-broken',
      details: { row: 6, balanceCents: 2_167_700, expectedCents: 2_077_700 },
    },
  ])('refuses $case, naming the row and storing nothing', async ({ mapping, content, code, details }) => {
    const context = testContext(testDb.db)
    const refusal = importBankStatement(context, { fileName: 'broken.csv', content, mapping }, STAFF)
    await expect(refusal).rejects.toMatchObject({ code, details: expect.objectContaining(details) })
    expect(await listStatementImports(context)).toEqual([])
    expect(await listStatementMappings(context)).toEqual([])
    expect(await testDb.db.kysely.selectFrom('bank_statement_lines').select('id').execute()).toEqual([])
  })

  it('refuses an unknown bank, and a binary file as not a bank statement without printing its bytes', async () => {
    const context = testContext(testDb.db)
    await expect(
      importBankStatement(context, { fileName: 'x.csv', content: sample('banks/fnb.csv', 'ZZZZZZZZ'), mapping: { preset: 'bank-of-nowhere' } }, STAFF),
    ).rejects.toThrow(expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'bank-preset' }) }))
    const pdfLike = Uint8Array.from([...new TextEncoder().encode('%PDF-1.7\n'), 0x00, 0x9c, 0x01, 0x02, 0xff, 0x1f, ...new TextEncoder().encode('<OFX>')])
    const refusal = importBankStatement(context, { fileName: 'statement.pdf', content: pdfLike, mapping: { preset: 'fnb' } }, STAFF)
    await expect(refusal).rejects.toThrow(
      expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'not-a-statement', fileName: 'statement.pdf' }) }),
    )
    expect(await listStatementImports(context)).toEqual([])
  })

  it('refuses an OFX statement in dollars, storing nothing', async () => {
    const context = testContext(testDb.db)
    await expect(importBankStatement(context, { fileName: 'usd.ofx', content: sample('usd-statement.ofx', 'ZZZZZZZZ') }, STAFF)).rejects.toThrow(
      expect.objectContaining({ code: 'invalid-input', details: expect.objectContaining({ problem: 'ofx-currency', currency: 'USD' }) }),
    )
    expect(await listStatementImports(context)).toEqual([])
  })

  it('recognises the same money in an OFX and a CSV of the account: the second file proposes nothing twice', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    const ofx = await importBankStatement(context, { fileName: 'march.ofx', content: sample('xml-cdata-statement.ofx', reference!) }, STAFF)
    const ofxLines = await statementLines(context, { importId: ofx.id })
    expect(ofxLines.map((line) => line.state.kind)).toEqual(['pays-in-full', 'unmatched'])
    expect(await confirmStatementLines(context, [ofxLines[0]!.id], STAFF)).toMatchObject([{ outcome: 'recorded' }])

    const csvImport = await importBankStatement(
      context,
      { fileName: 'march.csv', content: sample('banks/fnb.csv', reference!), mapping: { preset: 'fnb' } },
      STAFF,
    )
    expect(csvImport).toMatchObject({ lineCount: 2, newLineCount: 2 })
    const csvLines = await statementLines(context, { importId: csvImport.id })
    expect(csvLines.map((line) => line.state)).toEqual([
      { kind: 'same-as', postedOn: '2025-02-05', fileName: 'march.ofx', registrationReference: reference },
      { kind: 'same-as', postedOn: '2025-02-07', fileName: 'march.ofx', registrationReference: null },
    ])
    expect(await confirmStatementLines(context, [csvLines[0]!.id], STAFF)).toMatchObject([
      {
        lineId: csvLines[0]!.id,
        outcome: 'refused',
        error: {
          code: 'statement-line-settled',
          details: { postedOn: '2025-02-05', state: 'same-as', earlierPostedOn: '2025-02-05', fileName: 'march.ofx', registrationReference: reference },
        },
      },
    ])
    await expect(assignStatementLine(context, csvLines[1]!.id, reference!, STAFF)).rejects.toThrow(
      expect.objectContaining({
        code: 'statement-line-settled',
        details: expect.objectContaining({ state: 'same-as', earlierPostedOn: '2025-02-07', fileName: 'march.ofx' }),
      }),
    )
    // Only the OFX's unmatched line waits; the CSV's copies of it are not listed again.
    expect((await statementLines(context)).map((line) => [line.id, line.amountCents])).toEqual([[ofxLines[1]!.id, 123_450]])
    expect(await testDb.db.kysely.selectFrom('bank_payments').select('amount_cents').execute()).toEqual([{ amount_cents: TOTAL_CENTS }])
  })

  it('pairs the same money one to one: a second equal transfer on the day, or one naming another registration, is a payment of its own', async () => {
    const context = testContext(testDb.db)
    await importBankStatement(context, { fileName: 'feb.ofx', content: sample('xml-cdata-statement.ofx', 'ZZZZZZZZ') }, STAFF)
    const twice = fnbLines(
      ['2025/02/05', '20,677.00', 'EFT 8LR3N4YB'],
      ['2025/02/07', '1,234.50', 'MAGTAPE CREDIT UNKNOWN PAYER'],
      ['2025/02/07', '1,234.50', 'MAGTAPE CREDIT UNKNOWN PAYER'],
    )
    const imported = await importBankStatement(context, { fileName: 'feb.csv', content: twice, mapping: { preset: 'fnb' } }, STAFF)
    // The R 20 677.00 of 5 February names another reference than the OFX's line of that day: other money.
    expect((await statementLines(context, { importId: imported.id })).map((line) => line.state)).toEqual([
      { kind: 'unmatched', suggestions: [] },
      { kind: 'same-as', postedOn: '2025-02-07', fileName: 'feb.ofx', registrationReference: null },
      { kind: 'unmatched', suggestions: [] },
    ])
  })

  /** The tests' context with an audit writer that reads, inside the command's transaction, what the command wrote. */
  function auditedContext(entries: unknown[]): StaffCommandContext {
    return {
      ...testContext(testDb.db),
      audit: async (transaction, { action, subjectType, subjectId, before, after }) => {
        const lines = await transaction
          .selectFrom('bank_statement_lines')
          .select(['id', 'dismissed_reason'])
          .where('dismissed_reason', 'is not', null)
          .execute()
        const payments = await transaction.selectFrom('bank_payments').select('bank_reference').execute()
        entries.push({ action, subjectType, subjectId, before, after, seen: { dismissed: lines.length, payments: payments.length } })
      },
    }
  }

  it('dismisses a line that is no registration’s payment with its reason and audit row; it stays dismissed on re-import', async () => {
    const [reference] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    const file = sample('banks/standard-bank.csv', reference!)
    const imported = await importBankStatement(context, { fileName: 'march.csv', content: file, mapping: { preset: 'standard-bank' } }, STAFF)
    const [, unknown] = await statementLines(context, { importId: imported.id })

    await expect(dismissStatementLine(context, { lineId: unknown!.id, reason: '   ' }, STAFF)).rejects.toMatchObject({
      issues: [{ path: 'reason', code: 'required' }],
    })
    const failing: StaffCommandContext = { ...context, audit: async () => Promise.reject(new Error('audit log unavailable')) }
    await expect(dismissStatementLine(failing, { lineId: unknown!.id, reason: 'Interest' }, STAFF)).rejects.toThrow('audit log unavailable')
    expect((await statementLines(context, { importId: imported.id }))[1]!.state.kind).toBe('unmatched')

    const entries: unknown[] = []
    const dismissed = await dismissStatementLine(auditedContext(entries), { lineId: unknown!.id, reason: ' Rental income of the building  ' }, STAFF)
    expect(dismissed.state).toMatchObject({ kind: 'dismissed', reason: 'Rental income of the building', dismissedBy: STAFF.name })
    expect(entries).toEqual([
      {
        action: 'statement-line-dismissed',
        subjectType: 'bank-statement-line',
        subjectId: unknown!.id,
        before: { postedOn: '2025-02-07', amountCents: 123_450, description: 'CREDIT TRANSFER', reference: 'UNKNOWN PAYER' },
        after: { reason: 'Rental income of the building' },
        seen: { dismissed: 1, payments: 0 },
      },
    ])
    await expect(dismissStatementLine(context, { lineId: unknown!.id, reason: 'Again' }, STAFF)).rejects.toMatchObject({
      code: 'statement-line-settled',
      details: { state: 'dismissed', dismissedBy: 'Nomsa Dlamini', reason: 'Rental income of the building' },
    })
    await expect(assignStatementLine(context, unknown!.id, reference!, STAFF)).rejects.toThrow(
      expect.objectContaining({ code: 'statement-line-settled', details: expect.objectContaining({ state: 'dismissed' }) }),
    )

    const again = await importBankStatement(context, { fileName: 'march again.csv', content: file, mapping: { preset: 'standard-bank' } }, STAFF)
    expect((await statementLines(context, { importId: again.id })).map((line) => line.state.kind)).toEqual(['pays-in-full', 'dismissed'])
    expect((await statementLines(context)).map((line) => line.amountCents)).toEqual([TOTAL_CENTS])
  })

  it('splits one transfer across three registrations: each part recorded against its registration, the line recorded once', async () => {
    const references = await register(testDb.db, {}, { companyName: 'Second' }, { companyName: 'Third' })
    const context = testContext(testDb.db)
    const company = csv(`2025/02/20,"50,000.00",0,"ACME GROUP PAYS ${references.join(' ')}",""`)
    const imported = await importBankStatement(context, { fileName: 'group.csv', content: company, mapping: { create: FNB_MAPPING } }, STAFF)
    const [line] = await statementLines(context, { importId: imported.id })
    expect(line!.state).toEqual({ kind: 'several-references', registrationReferences: references })

    // The form sends each part's amount in rand, as staff type it.
    const parts = (amounts: number[]) => references.map((reference, index) => ({ reference: reference.toLowerCase(), amount: formatAmount(amounts[index]!) }))
    await expect(splitStatementLine(context, { lineId: line!.id, parts: parts([TOTAL_CENTS, TOTAL_CENTS, 1]) }, STAFF)).rejects.toMatchObject({
      code: 'split-does-not-add-up',
      field: 'parts',
      details: { totalCents: 4_135_401, lineCents: 5_000_000 },
    })
    await expect(splitStatementLine(context, { lineId: line!.id, parts: [{ reference: references[0]!, amount: '50 000.00' }] }, STAFF)).rejects.toMatchObject({
      issues: [{ path: 'parts', code: 'too-few-parts' }],
    })
    await expect(
      splitStatementLine(
        context,
        {
          lineId: line!.id,
          parts: [
            { reference: references[0]!, amount: '25 000' },
            { reference: references[0]!.toLowerCase(), amount: '25 000' },
          ],
        },
        STAFF,
      ),
    ).rejects.toMatchObject({ issues: [{ path: 'parts', code: 'repeated-registration' }] })
    await expect(
      splitStatementLine(
        context,
        {
          lineId: line!.id,
          parts: [
            { reference: references[0]!, amount: 'lots' },
            { reference: references[1]!, amount: '25 000' },
          ],
        },
        STAFF,
      ),
    ).rejects.toMatchObject({
      issues: [{ path: 'parts.0.amount', code: 'invalid-amount' }],
    })
    await expect(
      splitStatementLine(
        context,
        {
          lineId: line!.id,
          parts: [
            { reference: 'ZZZZZZZZ', amount: '25 000' },
            { reference: references[0]!, amount: '25 000' },
          ],
        },
        STAFF,
      ),
    ).rejects.toMatchObject({
      code: 'not-found',
    })
    expect(await testDb.db.kysely.selectFrom('bank_payments').select('id').execute()).toEqual([])

    const entries: unknown[] = []
    const recorded = await splitStatementLine(
      auditedContext(entries),
      { lineId: line!.id, parts: parts([TOTAL_CENTS, TOTAL_CENTS, 5_000_000 - 2 * TOTAL_CENTS]) },
      STAFF,
    )
    expect(recorded.map((transfer) => [transfer.reference, transfer.payment.amountCents, transfer.after.status, transfer.surplusCents])).toEqual([
      [references[0], TOTAL_CENTS, 'paid', 0],
      [references[1], TOTAL_CENTS, 'paid', 0],
      [references[2], 5_000_000 - 2 * TOTAL_CENTS, 'part-paid', 0],
    ])
    expect(recorded.map((transfer) => transfer.payment.bankReference)).toEqual([
      line!.paymentReference,
      `${line!.paymentReference}/2`,
      `${line!.paymentReference}/3`,
    ])
    expect(entries.map((entry) => (entry as { subjectId: string }).subjectId)).toEqual(references)
    expect((entries[2] as { seen: { payments: number } }).seen.payments).toBe(3)

    const [after] = await statementLines(context, { importId: imported.id })
    expect(after!.state).toEqual({
      kind: 'recorded',
      registrationReference: references[0],
      recordedBy: STAFF.name,
      recordedAt: expect.any(String),
      splitWith: [references[1], references[2]],
    })
    await expect(
      splitStatementLine(context, { lineId: line!.id, parts: parts([TOTAL_CENTS, TOTAL_CENTS, 5_000_000 - 2 * TOTAL_CENTS]) }, STAFF),
    ).rejects.toMatchObject({
      code: 'statement-line-settled',
      details: { state: 'recorded', registrationReference: references[0] },
    })
    expect(await confirmStatementLines(context, [line!.id], STAFF)).toMatchObject([{ outcome: 'refused' }])
    expect(await testDb.db.kysely.selectFrom('bank_payments').select('id').execute()).toHaveLength(3)
  })
})
