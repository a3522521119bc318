import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANAGER, STAFF } from '../backoffice/fixtures.ts'
import { cancelRegistration } from '../cancellation/cancel.ts'
import { isValidationError } from '../errors.ts'
import { receivablesOn } from '../invoice/payment-reminders.ts'
import { storedTaxInvoiceData } from '../invoice/issue-invoice.ts'
import { renderTaxInvoicePdf } from '../invoice/tax-invoice-pdf.ts'
import { createRegistration } from '../registration/commands.ts'
import { requestQuote } from '../quotes/quotes.ts'
import {
  fixedCatalog,
  LEGAL_OPINION,
  registrationInput,
  RESILIENCE,
  SETTINGS,
  TEST_BACKENDS,
  testAuditRows,
  testAuditWriter,
  testSiteLinks,
  openTestDatabase,
  pdftotext,
  type TestDatabase,
} from '../test-support.ts'
import type { CoreDatabase } from '../db/database.ts'
import { createDiscountCode, extendDiscountCode, listDiscountCodes, voidDiscountCode } from './staff-codes.ts'

// The business date registrations are made on: before Resilience's early-bird deadline (13 June 2025).
const REGISTERING_AT = new Date('2025-05-10T09:00:00+02:00')
const delegate = (n: number) => ({ name: `Delegate ${n}`, position: 'Analyst', email: `delegate${n}@acme.example.com` })

describe.each(TEST_BACKENDS)('discount codes on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  const staffContext = (db: CoreDatabase = testDb.db) => ({
    db,
    catalog: fixedCatalog([LEGAL_OPINION, RESILIENCE]),
    links: testSiteLinks(),
    now: () => REGISTERING_AT,
    siteNow: () => REGISTERING_AT,
    audit: testAuditWriter,
  })
  const createCode = (input: Record<string, unknown>) =>
    createDiscountCode(staffContext(), { kind: 'percent', percent: '50', event: 'Resilience', sourceLabel: 'Platinum sponsor discount', ...input }, STAFF)
  const register = async (overrides: Record<string, unknown>, db: CoreDatabase = testDb.db, siteNow = REGISTERING_AT) => {
    const context = { db, catalog: fixedCatalog([LEGAL_OPINION, RESILIENCE]), links: testSiteLinks(), siteNow: () => siteNow }
    const input = registrationInput({ event: 'Resilience', code: 'ERC2025', delegates: [delegate(1)], ...overrides })
    return (await createRegistration(context, input)).receipt
  }
  const refusal = async (overrides: Record<string, unknown>, siteNow?: Date) => {
    const error = await register(overrides, testDb.db, siteNow).then(
      () => undefined,
      (caught: unknown) => caught,
    )
    if (!isValidationError(error)) throw new Error(`Expected a refusal, got ${String(error)}`)
    return { code: error.code, issues: error.issues }
  }
  const counts = async () => {
    const count = async (table: 'registrations' | 'invoices' | 'registration_discounts' | 'outbox_messages') =>
      Number(
        (
          await testDb.db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    return {
      registrations: await count('registrations'),
      invoices: await count('invoices'),
      discounts: await count('registration_discounts'),
      mail: await count('outbox_messages'),
    }
  }
  const invoiceOf = async (reference: string) => {
    const row = await testDb.db.kysely
      .selectFrom('invoices')
      .innerJoin('registrations', 'registrations.id', 'invoices.registration_id')
      .select(['invoices.number', 'invoices.data_json'])
      .where('registrations.reference', '=', reference)
      .executeTakeFirstOrThrow()
    return storedTaxInvoiceData({ number: row.number, data_json: row.data_json! })
  }

  it('takes the code’s discount off the early-bird price in force, shows it as its own invoice line and charges VAT on the rest', async () => {
    const { code } = await createCode({ code: 'plat 2025' })
    expect(code).toBe('PLAT2025')
    const receipt = await register({ attendanceOption: 'early-bird', delegates: [delegate(1), delegate(2), delegate(3)], discountCode: ' plat2025 ' })
    // R7 490 less 50% is R3 745 a delegate; three: R11 235.00 + VAT R1 685.25.
    expect(receipt).toMatchObject({ total: '12920.25', status: 'awaiting-payment' })
    const invoice = await invoiceOf(receipt.reference)
    expect(invoice.lines.map(({ description, quantity, unitAmountCents, amountCents }) => ({ description, quantity, unitAmountCents, amountCents }))).toEqual([
      { description: expect.stringContaining('Early-bird'), quantity: 3, unitAmountCents: 749_000, amountCents: 2_247_000 },
      { description: 'Platinum sponsor discount 50% (code PLAT2025)', quantity: 3, unitAmountCents: -374_500, amountCents: -1_123_500 },
    ])
    expect(invoice).toMatchObject({ subtotalCents: 1_123_500, vatCents: 168_525, totalCents: 1_292_025 })
    const text = pdftotext(await renderTaxInvoicePdf(invoice))
    for (const shown of ['R 22 470.00', 'Platinum sponsor discount 50% (code', 'PLAT2025)', '-R 11 235.00', 'R 1 685.25', 'R 12 920.25'])
      expect(text).toContain(shown)
    const row = await testDb.db.kysely.selectFrom('registrations').selectAll().where('reference', '=', receipt.reference).executeTakeFirstOrThrow()
    // A delegate cancelled later is credited at the discounted price each paid.
    expect(row.unit_amount_cents).toBe(374_500)
  })

  it('limits a code to the options ticked, a table among them, and to per-delegate prices when none is', async () => {
    await createCode({ code: 'TABLE-TEN', optionKeys: ['table-10'] })
    await createCode({ code: 'ANY-PRICE' })
    const table = await register({ attendanceOption: 'table-10', delegates: [delegate(1), delegate(2)], discountCode: 'TABLE-TEN' })
    expect((await invoiceOf(table.reference)).lines.map((line) => line.description)).toContain('Platinum sponsor discount 50% (code TABLE-TEN)')
    expect(await refusal({ discountCode: 'TABLE-TEN', attendanceOption: 'venue' })).toMatchObject({ code: 'discount-code-option-excluded' })
    expect(await refusal({ discountCode: 'ANY-PRICE', attendanceOption: 'table-10' })).toMatchObject({ code: 'discount-code-option-excluded' })
    expect((await register({ attendanceOption: 'online', discountCode: 'ANY-PRICE' })).status).toBe('awaiting-payment')
  })

  it('takes a code limited to online off the online delegates of a mixed booking only, per delegate on their own price', async () => {
    await createCode({ code: 'ONLINE-HALF', optionKeys: ['online'] })
    // Early-bird in force (R7 490) for two at the venue, none off; one online at R5 490, half off: R2 745.
    const mixed = await register({
      attendanceOption: 'early-bird',
      delegates: [delegate(1), delegate(2), { ...delegate(3), attendance: 'online' }],
      discountCode: 'ONLINE-HALF',
    })
    expect(mixed.total).toBe('20383.75')
    const lines = (await invoiceOf(mixed.reference)).lines.map((line) => [line.description, line.amountCents])
    expect(lines).toEqual([
      ['Economic Resilience Conference 2025: Early-bird: register and pay by 13 June 2025', 1_498_000],
      ['Economic Resilience Conference 2025: Online', 549_000],
      ['Platinum sponsor discount 50% (code ONLINE-HALF)', -274_500],
    ])
    // A booking with nobody online gets nothing from it, and is refused rather than charged in full.
    expect(await refusal({ attendanceOption: 'early-bird', delegates: [delegate(4)], discountCode: 'ONLINE-HALF' })).toMatchObject({
      code: 'discount-code-option-excluded',
    })
  })

  it('makes a complimentary seat cost R 0, paid from the start, with a pass and never a payment reminder', async () => {
    await createCode({ code: 'PLAT-SEATS', kind: 'complimentary', percent: '', maxUses: '3', sourceLabel: 'Platinum sponsor complimentary seat' })
    const receipt = await register({ paymentMethod: 'card', discountCode: 'PLAT-SEATS' })
    expect(receipt).toMatchObject({ total: '0.00', totalCents: 0, status: 'paid' })
    const invoice = await invoiceOf(receipt.reference)
    expect(invoice.lines[1]).toMatchObject({ description: 'Platinum sponsor complimentary seat (code PLAT-SEATS)', amountCents: -849_000 })
    expect(invoice).toMatchObject({ subtotalCents: 0, vatCents: 0, totalCents: 0 })
    const passes = await testDb.db.kysely.selectFrom('delegate_passes').select('token').execute()
    expect(passes).toHaveLength(1)
    expect(await receivablesOn(testDb.db.kysely, SETTINGS, '2025-07-01', REGISTERING_AT)).toEqual([])
    // Its seat is one delegate: a complimentary code is not a discount on a group.
    expect(await refusal({ discountCode: 'PLAT-SEATS', delegates: [delegate(1), delegate(2)] })).toEqual({
      code: 'discount-code-one-delegate',
      issues: [{ path: 'discountCode', code: 'discount-code-one-delegate' }],
    })
  })

  it('refuses wrong, voided, other-event, expired, not-yet-valid and excluded-option codes, changing nothing', async () => {
    await createCode({ code: 'RES-MAY', validFrom: '2025-05-01', validUntil: '2025-05-31' })
    await createCode({ code: 'LEGAL-ONLY', event: 'legalOpinion' })
    await createCode({ code: 'ONLINE-ONLY', optionKeys: ['online'] })
    const voided = await createCode({ code: 'GONE' })
    await voidDiscountCode(staffContext(), { codeId: voided.id }, STAFF)
    const before = await counts()
    const cases: Array<[Record<string, unknown>, Date | undefined, string]> = [
      [{ discountCode: 'NOSUCHCODE' }, undefined, 'discount-code-unknown'],
      [{ discountCode: 'x'.repeat(500) }, undefined, 'discount-code-unknown'],
      [{ discountCode: 'GONE' }, undefined, 'discount-code-unknown'],
      [{ discountCode: 'LEGAL-ONLY' }, undefined, 'discount-code-other-event'],
      [{ discountCode: 'RES-MAY' }, new Date('2025-06-01T00:00:00+02:00'), 'discount-code-expired'],
      [{ discountCode: 'RES-MAY' }, new Date('2025-04-30T23:59:00+02:00'), 'discount-code-not-yet-valid'],
      [{ discountCode: 'ONLINE-ONLY', attendanceOption: 'venue' }, undefined, 'discount-code-option-excluded'],
      [{ discountCode: 'RES-MAY', attendanceOption: 'table-5' }, undefined, 'discount-code-option-excluded'],
    ]
    for (const [overrides, at, code] of cases) {
      expect(await refusal(overrides, at), `${JSON.stringify(overrides).slice(0, 60)} at ${at?.toISOString() ?? 'May'}`).toEqual({
        code,
        issues: [{ path: 'discountCode', code }],
      })
    }
    expect(await counts()).toEqual(before)
    // The last day counts whole in Johannesburg; an empty code is no code.
    expect((await register({ discountCode: 'RES-MAY' }, testDb.db, new Date('2025-05-31T23:59:00+02:00'))).total).toBe('4881.75')
    expect((await register({ discountCode: '' })).total).toBe('9763.50')
  })

  it('gives 50 buyers racing for a code with 3 uses exactly 3 registrations, and a cancelled registration its use back', async () => {
    const { id } = await createCode({ code: 'THREE', maxUses: '3' })
    // On PostgreSQL every buyer comes through its own server instance's connections.
    const handles = await Promise.all(Array.from({ length: 5 }, () => testDb.openAnother()))
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) =>
        register({ discountCode: 'three', companyName: `Buyer ${index}`, delegates: [delegate(index)] }, handles[index % handles.length]),
      ),
    )
    const made = outcomes.filter((outcome) => outcome.status === 'fulfilled')
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []))
    expect(made).toHaveLength(3)
    expect(refused.map((error) => (isValidationError(error) ? error.code : String(error)))).toEqual(Array.from({ length: 47 }, () => 'discount-code-spent'))
    expect(await counts()).toMatchObject({ registrations: 3, invoices: 3, discounts: 3 })

    const [summary] = await listDiscountCodes(staffContext())
    expect(summary).toMatchObject({ uses: 3, row: { id, max_uses: 3 } })
    expect(summary!.registrations.map((use) => use.cancelled)).toEqual([false, false, false])

    const first = summary!.registrations[0]!.reference
    await cancelRegistration(staffContext(), { reference: first, delegateIds: 'all' }, MANAGER)
    expect((await listDiscountCodes(staffContext()))[0]).toMatchObject({ uses: 2 })
    expect((await register({ discountCode: 'THREE' })).total).toBe('4881.75')
    expect(await refusal({ discountCode: 'THREE' })).toMatchObject({ code: 'discount-code-spent' })
  })

  it('prices a quotation with a code as the registration would be, taking no use, and refuses a wrong code', async () => {
    await createCode({ code: 'GOLD30', percent: '30', maxUses: '1', sourceLabel: 'Gold sponsor discount' })
    const quotation = await requestQuote(staffContext(), { event: 'Resilience', attendanceOption: 'online', delegates: '2', discountCode: 'gold30' })
    // R5 490 less 30% is R3 843 a delegate; two: R7 686.00 + VAT R1 152.90.
    expect(quotation.totalCents).toBe(883_890)
    const text = pdftotext(quotation.pdf)
    expect(text).toContain('Gold sponsor discount 30% (code GOLD30)')
    expect(text).toContain('-R 3 294.00')
    expect((await listDiscountCodes(staffContext()))[0]).toMatchObject({ uses: 0 })
    const refused = await requestQuote(staffContext(), { event: 'Resilience', attendanceOption: 'online', delegates: '2', discountCode: 'NOPE' }).catch(
      (error: unknown) => error,
    )
    expect(isValidationError(refused) && refused.issues).toEqual([{ path: 'discountCode', code: 'discount-code-unknown' }])
  })

  it('lets staff extend a code, and audits creating, voiding and extending it', async () => {
    const { id } = await createCode({ code: 'SHORT', validUntil: '2025-05-01' })
    expect(await refusal({ discountCode: 'SHORT' })).toMatchObject({ code: 'discount-code-expired' })
    await extendDiscountCode(staffContext(), { codeId: id, validUntil: '2025-06-30' }, STAFF)
    expect((await register({ discountCode: 'SHORT' })).total).toBe('4881.75')
    await voidDiscountCode(staffContext(), { codeId: id }, STAFF)
    expect((await testAuditRows(testDb.db)).map((row) => row.action)).toEqual(['discount-code-created', 'discount-code-extended', 'discount-code-voided'])
  })

  it('refuses a code staff mistype, a taken code and reversed dates, storing nothing', async () => {
    await createCode({ code: 'TAKEN' })
    const refused = async (input: Record<string, unknown>) =>
      createCode(input).then(
        () => undefined,
        (error: unknown) => (isValidationError(error) ? error.issues.map((issue) => `${issue.path}:${issue.code}`) : error),
      )
    expect(await refused({ code: 'TAKEN' })).toEqual(['code:discount-code-taken'])
    expect(await refused({ code: 'no spaces? no!' })).toEqual(['code:invalid-discount-code'])
    expect(await refused({ percent: '150' })).toEqual(['percent:invalid-discount-percent'])
    expect(await refused({ percent: '' })).toEqual(['percent:invalid-discount-percent'])
    expect(await refused({ kind: 'amount', amount: 'lots' })).toEqual(['amount:invalid-amount'])
    expect(await refused({ maxUses: '0' })).toEqual(['maxUses:invalid-discount-uses'])
    expect(await refused({ validFrom: '2025-06-01', validUntil: '2025-05-01' })).toEqual(['validUntil:discount-dates-reversed'])
    expect(await refused({ event: 'no-such-event' })).toEqual(['event:unknown-event'])
    expect(await testDb.db.kysely.selectFrom('discount_codes').select('code').execute()).toEqual([{ code: 'TAKEN' }])
  })
})
