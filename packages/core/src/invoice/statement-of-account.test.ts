import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recordBankTransfer } from '../backoffice/bank-transfers.ts'
import { MANAGER, register, STAFF, testContext } from '../backoffice/fixtures.ts'
import type { StaffCommandContext } from '../backoffice/command.ts'
import type { SponsorPackageTerms } from '../catalog.ts'
import { cancelSponsorshipDeal, recordSponsorshipDeal } from '../sponsorship/deals.ts'
import { deliverDueMessages } from '../outbox/worker.ts'
import {
  fixedCatalog,
  LEGAL_OPINION,
  openTestDatabase,
  pdftotext,
  RESILIENCE,
  startMailSink,
  TEST_BACKENDS,
  testAuditRows,
  type TestDatabase,
} from '../test-support.ts'
import { renderStatementPdf, sendStatement, statementOfAccount } from './statement-of-account.ts'

const GOLD: SponsorPackageTerms = {
  id: 'sponsor-gold',
  title: 'Gold',
  complimentarySeats: 2,
  participantDiscountPercent: 30,
  promotionalTextWords: 70,
  literaturePages: 10,
  speakingSlot: '40-minute case study',
  priceExclVat: null,
}

/** The back office with a Gold package to sell, on the tests' business day (1 March 2025). */
function withSponsorPackages(context: StaffCommandContext): StaffCommandContext {
  return { ...context, catalog: { ...context.catalog, getSponsorPackage: async (id: string) => (id === GOLD.id ? GOLD : undefined) } }
}

/** A Gold deal for Resilience at R 80 000 excl. VAT, R 92 000.00 incl.: approved and invoiced at once. */
const dealInput = (overrides: Record<string, unknown> = {}) => ({
  event: 'Resilience',
  packageId: GOLD.id,
  companyName: 'Acme Legal Services',
  address: '1 Main Road\nSandton',
  contactName: 'Lerato Dube',
  contactEmail: 'lerato@acme.example.com',
  contactTel: '011 555 0101',
  agreedPrice: '80 000',
  ...overrides,
})

describe.each(TEST_BACKENDS)('statements of account on %s', (backend) => {
  let testDb: TestDatabase
  let first: string
  let second: string

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    // Two registrations of Acme (R 20 677.00 and, for one delegate, R 10 338.50) and one of another company.
    ;[first, second] = (await register(
      testDb.db,
      {},
      { companyName: 'ACME  Legal Services', delegates: [{ name: 'Naledi Khumalo', position: 'Associate', email: 'naledi@acme.example.com' }] },
      { companyName: 'Other Firm' },
    )) as [string, string, string]
    await testDb.db.kysely.updateTable('outbox_messages').set({ status: 'sent' }).execute()
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it('lists every registration of the company with its invoices and payments, the running balance and what is owed, and sends it on request', async () => {
    const context = testContext(testDb.db)
    await recordBankTransfer(context, { reference: first, amount: '20 677.00', receivedOn: '2025-02-20', bankReference: 'FNB 77', note: '' }, STAFF)
    await recordBankTransfer(context, { reference: second, amount: '5 000.00', receivedOn: '2025-02-25', bankReference: 'FNB 78', note: '' }, STAFF)

    const statement = await statementOfAccount(context, 'acme legal services')
    expect(
      statement?.entries.map((entry) => [entry.day, entry.registrationReference, entry.description, entry.debitCents, entry.creditCents, entry.balanceCents]),
    ).toEqual([
      ['2025-02-03', first, 'Tax invoice INV-000001', 2_067_700, 0, 2_067_700],
      ['2025-02-03', second, 'Tax invoice INV-000002', 1_033_850, 0, 3_101_550],
      ['2025-02-20', first, 'Bank transfer: FNB 77', 0, 2_067_700, 1_033_850],
      ['2025-02-25', second, 'Bank transfer: FNB 78', 0, 500_000, 533_850],
    ])
    expect(statement).toMatchObject({ invoicedCents: 3_101_550, creditedCents: 0, paidCents: 2_567_700, owedCents: 533_850 })
    // Invoiced on 3 February, aged on the business day (1 March): current; on 5 May, 91 days on, 90 days and more.
    expect(statement!.ageing).toEqual({ current: 533_850, '30-days': 0, '60-days': 0, '90-days-plus': 0 })
    const inMay = await statementOfAccount({ ...context, siteNow: () => new Date('2025-05-05T09:00:00+02:00') }, 'acme legal services')
    expect(inMay!.ageing).toEqual({ current: 0, '30-days': 0, '60-days': 0, '90-days-plus': 533_850 })
    expect(await statementOfAccount(context, 'Nobody Ltd')).toBeUndefined()

    const text = pdftotext(await renderStatementPdf(context, statement!))
    for (const expected of [
      'Statement of account',
      'Account of',
      'Amount owed: R 5 338.50',
      'Tax invoice INV-000002',
      'Bank transfer: FNB 78',
      'Amount owed R 5 338.50',
      'Age of what is owed',
      '90 days and more',
    ]) {
      expect(text).toContain(expected)
    }
    expect(text).not.toContain('Other Firm')

    expect(await sendStatement(context, { companyName: 'Acme Legal Services' }, STAFF)).toEqual({
      companyName: 'ACME Legal Services',
      email: 'bookings@acme.example.com',
      owedCents: 533_850,
    })
    expect(await testAuditRows(testDb.db)).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'company-statement-sent', subjectId: 'ACME Legal Services' })]),
    )
    const { sink, transport, stop } = await startMailSink()
    try {
      await deliverDueMessages({ db: testDb.db, transport, log: () => undefined })
      const mail = sink.received.find((received) => received.parsed.subject?.startsWith('Statement of account'))
      expect(mail?.recipients).toEqual(['bookings@acme.example.com'])
      expect(mail!.parsed.text).toContain('Amount owed: R 5 338.50')
      expect(pdftotext(mail!.parsed.attachments[0]!.content)).toContain('Bank transfer: FNB 77')
    } finally {
      await stop()
    }
  })
  it('lists the company’s sponsorship deals among its registrations: each invoice, payment and credit note, on the page and in the PDF', async () => {
    // Recorded by the wall clock after the registrations were made, on the business day 1 March 2025.
    const context = withSponsorPackages({ ...testContext(testDb.db, () => new Date()), catalog: fixedCatalog([LEGAL_OPINION, RESILIENCE]) })
    const paying = await recordSponsorshipDeal(context, dealInput(), STAFF)
    await recordBankTransfer(context, { reference: paying.reference, amount: '50 000.00', receivedOn: '2025-03-01', bankReference: 'FNB SPONSOR 1' }, STAFF)
    const cancelled = await recordSponsorshipDeal(context, dealInput({ companyName: 'acme legal  services', agreedPrice: '10 000' }), STAFF)
    await cancelSponsorshipDeal(context, { dealId: cancelled.id }, MANAGER)
    // Another company's deal stays out.
    await recordSponsorshipDeal(context, dealInput({ companyName: 'Other Firm' }), STAFF)

    const statement = await statementOfAccount(context, 'Acme Legal Services')
    expect(
      statement?.entries.map((entry) => [entry.day, entry.registrationReference, entry.dealId, entry.description, entry.debitCents, entry.creditCents]),
    ).toEqual([
      ['2025-02-03', first, undefined, 'Tax invoice INV-000001', 2_067_700, 0],
      ['2025-02-03', second, undefined, 'Tax invoice INV-000002', 1_033_850, 0],
      ['2025-03-01', paying.reference, paying.id, 'Tax invoice INV-000004: Gold sponsorship', 9_200_000, 0],
      ['2025-03-01', cancelled.reference, cancelled.id, 'Tax invoice INV-000005: Gold sponsorship', 1_150_000, 0],
      ['2025-03-01', cancelled.reference, cancelled.id, 'Credit note CN-000001: Gold sponsorship', 0, 1_150_000],
      ['2025-03-01', paying.reference, paying.id, 'Bank transfer: FNB SPONSOR 1', 0, 5_000_000],
    ])
    // What the registrations owe (R 31 015.50) and what the deal still owes (R 42 000.00).
    expect(statement).toMatchObject({ invoicedCents: 13_451_550, creditedCents: 1_150_000, paidCents: 5_000_000, owedCents: 7_301_550 })
    expect(statement!.ageing).toEqual({ current: 7_301_550, '30-days': 0, '60-days': 0, '90-days-plus': 0 })
    // The company as its latest document names it: the cancelled deal's contact.
    expect(statement).toMatchObject({ companyName: 'acme legal services', email: 'lerato@acme.example.com' })

    const text = pdftotext(await renderStatementPdf(context, statement!))
    for (const expected of [
      'Tax invoice INV-000004: Gold sponsorship',
      'Credit note CN-000001: Gold sponsorship',
      paying.reference,
      'Amount owed R 73 015.50',
    ]) {
      expect(text).toContain(expected)
    }
    expect(text).not.toContain('Other Firm')

    // A sponsor with no registration has a statement of its deal, sent to the deal's contact.
    await recordSponsorshipDeal(context, dealInput({ companyName: 'Sponsor Only Ltd', contactEmail: 'accounts@sponsoronly.example.com' }), STAFF)
    expect((await statementOfAccount(context, 'sponsor only ltd'))?.owedCents).toBe(9_200_000)
    expect(await sendStatement(context, { companyName: 'Sponsor Only Ltd' }, STAFF)).toEqual({
      companyName: 'Sponsor Only Ltd',
      email: 'accounts@sponsoronly.example.com',
      owedCents: 9_200_000,
    })
    // A deal awaiting approval has no invoice: no statement.
    const listed = { ...context, catalog: { ...context.catalog, getSponsorPackage: async () => ({ ...GOLD, priceExclVat: 100_000 }) } }
    expect((await recordSponsorshipDeal(listed, dealInput({ companyName: 'Waiting Sponsor' }), STAFF)).status).toBe('awaiting-approval')
    expect(await statementOfAccount(context, 'Waiting Sponsor')).toBeUndefined()
  })
})
