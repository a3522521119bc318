import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANAGER, STAFF } from '../backoffice/fixtures.ts'
import { isBackOfficeError } from '../backoffice/errors.ts'
import type { SponsorPackageTerms } from '../catalog.ts'
import { isValidationError } from '../errors.ts'
import { createRegistration } from '../registration/commands.ts'
import { listDiscountCodes } from '../discounts/staff-codes.ts'
import { eventFinanceReport, vatRegister } from '../backoffice/finance-reports.ts'
import {
  fixedCatalog,
  LEGAL_OPINION,
  openTestDatabase,
  pdftotext,
  registrationInput,
  RESILIENCE,
  TEST_BACKENDS,
  testAuditRows,
  testAuditWriter,
  testSiteLinks,
  type TestDatabase,
} from '../test-support.ts'
import { recordBankTransfer } from '../backoffice/bank-transfers.ts'
import { erasePersonalData, findPersonalData } from '../backoffice/personal-data.ts'
import { confirmStatementLines, importBankStatement, statementLines } from '../backoffice/bank-statements/bank-statements.ts'
import {
  approveSponsorshipDeal,
  cancelSponsorshipDeal,
  dealInvoicePdf,
  listSponsorshipDeals,
  newDealDefaults,
  recordDealBenefits,
  recordSponsorshipDeal,
  resendDealCodes,
} from './deals.ts'

const REGISTERING_AT = new Date('2025-05-10T09:00:00+02:00')
const PLATINUM: SponsorPackageTerms = {
  id: 'sponsor-platinum',
  title: 'Platinum',
  complimentarySeats: 3,
  participantDiscountPercent: 50,
  promotionalTextWords: 100,
  literaturePages: 10,
  speakingSlot: '45-minute case study',
  priceExclVat: 150_000,
}

describe.each(TEST_BACKENDS)('sponsorship deals on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  const context = () => ({
    db: testDb.db,
    catalog: { ...fixedCatalog([LEGAL_OPINION, RESILIENCE]), getSponsorPackage: async (id: string) => (id === PLATINUM.id ? PLATINUM : undefined) },
    links: testSiteLinks(),
    now: () => REGISTERING_AT,
    siteNow: () => REGISTERING_AT,
    audit: testAuditWriter,
  })
  const dealInput = (overrides: Record<string, unknown> = {}) => ({
    event: 'Resilience',
    packageId: 'sponsor-platinum',
    companyName: 'Sponsor Holdings (Pty) Ltd',
    address: '5 Rivonia Road\nSandton',
    vatNumber: '4987654321',
    purchaseOrderNumber: 'PO-2025-77',
    contactName: 'Lerato Dube',
    contactEmail: 'lerato@sponsor.example.com',
    contactTel: '+27 11 555 0199',
    agreedPrice: '150 000',
    ...overrides,
  })
  const outbox = () => testDb.db.kysely.selectFrom('outbox_messages').select(['topic', 'mail']).where('topic', '=', 'sponsorship-codes').execute()

  it('approves a deal at the package’s price at once: invoiced in the registrations’ series, its two codes e-mailed to the contact', async () => {
    // A registration first takes INV-000001; the deal's invoice is the next number of the same series.
    await createRegistration({ db: testDb.db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => REGISTERING_AT }, registrationInput())
    const recorded = await recordSponsorshipDeal(context(), dealInput(), STAFF)
    expect(recorded).toMatchObject({ status: 'approved', invoiceNumber: 'INV-000002' })

    const invoice = await dealInvoicePdf(context(), recorded.id)
    const text = pdftotext(invoice!.pdf)
    for (const shown of [
      'INV-000002',
      'Sponsor Holdings (Pty) Ltd',
      '4987654321',
      'PO-2025-77',
      'Platinum sponsorship',
      'R 150 000.00',
      'R 22 500.00',
      'R 172 500.00',
      recorded.reference,
    ]) {
      expect(text).toContain(shown)
    }

    const [mail] = await outbox()
    const message = JSON.parse(mail!.mail) as { to: string[]; text: string; attachments: Array<{ filename: string }> }
    expect(message.to).toEqual(['lerato@sponsor.example.com'])
    expect(message.text).toContain(recorded.codes!.complimentary)
    expect(message.text).toContain(recorded.codes!.discount)
    expect(message.text).toContain(`/conference/Resilience?tab=register&code=${recorded.codes!.discount}`)
    expect(message.attachments.map((attachment) => attachment.filename)).toEqual(['tax-invoice-INV-000002.pdf'])

    // The codes are the package's benefits: three complimentary seats, 50% for the participants, until registration closes.
    const codes = await listDiscountCodes(context(), { dealId: recorded.id })
    expect(codes.map(({ row }) => [row.kind, row.max_uses, row.percent, row.valid_until, row.source_label])).toEqual(
      expect.arrayContaining([
        ['complimentary', 3, null, '2025-07-23', 'Platinum sponsor complimentary seat'],
        ['percent', null, 50, '2025-07-23', 'Platinum sponsor discount'],
      ]),
    )
    const registered = await createRegistration(
      { db: testDb.db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => REGISTERING_AT },
      registrationInput({ event: 'Resilience', code: 'ERC2025', discountCode: recorded.codes!.discount }),
    )
    // Two delegates at the venue, R8 490 less 50% each: R8 490.00 + VAT R1 273.50.
    expect(registered.receipt.total).toBe('9763.50')
  })

  it('holds a deal below the package’s price for a manager, refusing staff, then invoices it and sends its codes', async () => {
    const recorded = await recordSponsorshipDeal(context(), dealInput({ agreedPrice: '120 000' }), STAFF)
    expect(recorded).toEqual({ id: expect.any(String), reference: expect.any(String), status: 'awaiting-approval' })
    expect(await outbox()).toEqual([])
    expect(await dealInvoicePdf(context(), recorded.id)).toBeUndefined()
    expect(await listDiscountCodes(context(), { dealId: recorded.id })).toEqual([])

    const refused = await approveSponsorshipDeal(context(), { dealId: recorded.id }, STAFF).catch((error: unknown) => error)
    expect(isBackOfficeError(refused) && refused.code).toBe('role-required')

    const approved = await approveSponsorshipDeal(context(), { dealId: recorded.id }, MANAGER)
    expect(approved.invoiceNumber).toBe('INV-000001')
    expect(await outbox()).toHaveLength(1)
    const again = await approveSponsorshipDeal(context(), { dealId: recorded.id }, MANAGER).catch((error: unknown) => error)
    expect(isBackOfficeError(again) && again.code).toBe('deal-already-approved')
    const [summary] = await listSponsorshipDeals(context())
    expect(summary).toMatchObject({ belowListPrice: true, invoice: { number: 'INV-000001', totalCents: 13_800_000 }, deal: { approved_by: MANAGER.name } })

    await resendDealCodes(context(), { dealId: recorded.id }, STAFF)
    expect(await outbox()).toHaveLength(2)

    // Sponsorship income in the per-event report, and the deal's invoice in the VAT register under its reference.
    const report = await eventFinanceReport(context())
    expect(report.totals).toMatchObject({ sponsorshipExclVatCents: 12_000_000, sponsorshipCents: 13_800_000 })
    const register = await vatRegister(context(), { from: '2025-05-01', to: '2025-05-31' })
    expect(register.entries).toEqual([
      {
        kind: 'tax-invoice',
        number: 'INV-000001',
        issuedOn: '2025-05-10',
        registrationReference: recorded.reference,
        customer: 'Sponsor Holdings (Pty) Ltd',
        customerVatNumber: '4987654321',
        exclVatCents: 12_000_000,
        vatCents: 1_800_000,
        inclVatCents: 13_800_000,
      },
    ])
  })

  const topics = async () =>
    (await testDb.db.kysely.selectFrom('outbox_messages').select('topic').orderBy('created_at').orderBy('id').execute()).map((row) => row.topic)

  it('keeps the codes of a deal set to send them once paid until a bank statement line with its reference pays its invoice in full', async () => {
    const recorded = await recordSponsorshipDeal(context(), dealInput({ sendCodesWhen: 'paid' }), STAFF)
    expect(recorded.status).toBe('approved')
    // Approval sends the invoice alone, asking for payment with the deal's reference; the codes exist but wait.
    expect(await topics()).toEqual(['sponsorship-invoice'])
    const [invoiceMail] = await testDb.db.kysely.selectFrom('outbox_messages').select('mail').where('topic', '=', 'sponsorship-invoice').execute()
    const invoiceMessage = JSON.parse(invoiceMail!.mail) as { text: string; attachments: Array<{ filename: string }> }
    expect(invoiceMessage.text).toContain(recorded.reference)
    expect(invoiceMessage.text).not.toContain(recorded.codes!.discount)
    expect(invoiceMessage.attachments.map((attachment) => attachment.filename)).toEqual(['tax-invoice-INV-000001.pdf'])

    // A part payment typed in by hand leaves the codes waiting.
    const part = await recordBankTransfer(
      context(),
      { reference: recorded.reference.toLowerCase(), amount: '72 500', receivedOn: '2025-05-10', bankReference: 'fnb 0001' },
      STAFF,
    )
    expect(part).toMatchObject({ payer: 'sponsorship-deal', reference: recorded.reference, after: { status: 'part-paid', outstandingCents: 10_000_000 } })
    expect(await topics()).toEqual(['sponsorship-invoice'])

    // The rest arrives on a statement that names the deal's reference: matched to the deal like a registration's line.
    const statement = [
      'Date,Amount,Balance,Description,Reference',
      `2025/05/10,"100,000.00",0.00,"FNB OB PMT SPONSOR HOLDINGS","SPONSOR ${recorded.reference}"`,
    ].join('\n')
    const mapping = {
      name: 'FNB',
      delimiter: ',',
      dateColumn: 'Date',
      dateFormat: 'yyyy/MM/dd',
      descriptionColumn: 'Description',
      amountColumn: 'Amount',
      referenceColumn: 'Reference',
      decimalSeparator: '.',
    }
    const imported = await importBankStatement(
      context(),
      { fileName: 'may.csv', content: new TextEncoder().encode(statement), mapping: { create: mapping } },
      STAFF,
    )
    const [line] = await statementLines(context(), { importId: imported.id })
    expect(line!.state).toEqual({
      kind: 'pays-in-full',
      registrationReference: recorded.reference,
      companyName: 'Sponsor Holdings (Pty) Ltd',
      outstandingCents: 10_000_000,
    })
    const [confirmed] = await confirmStatementLines(context(), [line!.id], STAFF)
    expect(confirmed).toMatchObject({ outcome: 'recorded', transfer: { payer: 'sponsorship-deal', after: { status: 'paid', outstandingCents: 0 } } })
    expect((await statementLines(context(), { importId: imported.id }))[0]!.state).toMatchObject({
      kind: 'recorded',
      registrationReference: recorded.reference,
    })
    expect(await statementLines(context())).toEqual([])

    // Paid in full: the codes go out once, with the event links that carry them.
    expect(await topics()).toEqual(['sponsorship-invoice', 'sponsorship-codes'])
    const [codesMail] = await outbox()
    const codesMessage = JSON.parse(codesMail!.mail) as { to: string[]; text: string }
    expect(codesMessage.to).toEqual(['lerato@sponsor.example.com'])
    expect(codesMessage.text).toContain(recorded.codes!.complimentary)
    expect(codesMessage.text).toContain(`?tab=register&code=${recorded.codes!.discount}`)
    const [summary] = await listSponsorshipDeals(context())
    expect(summary).toMatchObject({ paidCents: 17_250_000, deal: { paid_at: expect.any(String), codes_sent_at: expect.any(String) } })

    // A later transfer is recorded as a surplus and sends nothing again; a bank reference is recorded once.
    const extra = await recordBankTransfer(
      context(),
      { reference: recorded.reference, amount: '10', receivedOn: '2025-05-10', bankReference: 'FNB 0002' },
      STAFF,
    )
    expect(extra).toMatchObject({ surplusCents: 1000, after: { status: 'paid' } })
    expect(await topics()).toEqual(['sponsorship-invoice', 'sponsorship-codes'])
    const twice = await recordBankTransfer(
      context(),
      { reference: recorded.reference, amount: '10', receivedOn: '2025-05-10', bankReference: 'FNB  0001' },
      STAFF,
    ).catch((error: unknown) => error)
    expect(isBackOfficeError(twice) && [twice.code, twice.details]).toEqual([
      'duplicate-bank-reference',
      { reference: recorded.reference, receivedOn: '2025-05-10' },
    ])
    const payments = (await testAuditRows(testDb.db)).filter((row) => row.action === 'sponsorship-payment-recorded')
    expect(payments.map((row) => [row.subjectType, row.subjectId])).toEqual(Array.from({ length: 3 }, () => ['sponsorship-deal', recorded.reference]))
  })

  it('refuses a transfer for a deal still awaiting approval, and sends a paid-on-approval deal’s codes only on approval', async () => {
    const waiting = await recordSponsorshipDeal(context(), dealInput({ agreedPrice: '120 000' }), STAFF)
    const refused = await recordBankTransfer(
      context(),
      { reference: waiting.reference, amount: '1', receivedOn: '2025-05-10', bankReference: 'X1' },
      STAFF,
    ).catch((error: unknown) => error)
    expect(isBackOfficeError(refused) && refused.code).toBe('deal-not-approved')
    expect(await testDb.db.kysely.selectFrom('sponsorship_payments').select('id').execute()).toEqual([])

    const atPrice = await recordSponsorshipDeal(context(), dealInput(), STAFF)
    await recordBankTransfer(context(), { reference: atPrice.reference, amount: '172 500', receivedOn: '2025-05-10', bankReference: 'X2' }, STAFF)
    expect(await topics()).toEqual(['sponsorship-codes'])
  })

  it('exports and erases a deal’s contact on request, keeping its invoice to the company as issued', async () => {
    const recorded = await recordSponsorshipDeal(context(), dealInput(), STAFF)
    const found = await findPersonalData(context(), 'Lerato@Sponsor.example.com')
    expect(found.sponsorshipDeals).toEqual([
      {
        reference: recorded.reference,
        event: 'Economic Resilience Conference 2025',
        package: 'Platinum',
        companyName: 'Sponsor Holdings (Pty) Ltd',
        contactName: 'Lerato Dube',
        contactEmail: 'lerato@sponsor.example.com',
        contactTel: '+27 11 555 0199',
        status: 'approved',
      },
    ])
    const erased = await erasePersonalData(context(), { email: 'lerato@sponsor.example.com', confirm: true }, MANAGER)
    expect(erased.sponsorshipDealsErased).toEqual([recorded.reference])
    const [summary] = await listSponsorshipDeals(context())
    expect(summary!.deal).toMatchObject({ contact_name: '[anonymised]', contact_email: '', contact_tel: '', company_name: 'Sponsor Holdings (Pty) Ltd' })
    expect(await outbox()).toEqual([])
    expect((await findPersonalData(context(), 'lerato@sponsor.example.com')).sponsorshipDeals).toEqual([])
    const text = pdftotext((await dealInvoicePdf(context(), recorded.id))!.pdf)
    expect(text).toContain('Sponsor Holdings (Pty) Ltd')
    expect(text).toContain('4987654321')
  })

  it('cancels a deal on a manager’s word: its codes stop working and a credit note credits its invoice in full', async () => {
    const recorded = await recordSponsorshipDeal(context(), dealInput(), STAFF)
    const registering = { db: testDb.db, catalog: fixedCatalog(), links: testSiteLinks(), siteNow: () => REGISTERING_AT }
    await createRegistration(registering, registrationInput({ event: 'Resilience', code: 'ERC2025', discountCode: recorded.codes!.discount }))

    const refused = await cancelSponsorshipDeal(context(), { dealId: recorded.id }, STAFF).catch((error: unknown) => error)
    expect(isBackOfficeError(refused) && refused.code).toBe('role-required')
    expect(await cancelSponsorshipDeal(context(), { dealId: recorded.id }, MANAGER)).toEqual({ creditNoteNumber: 'CN-000001' })
    const again = await cancelSponsorshipDeal(context(), { dealId: recorded.id }, MANAGER).catch((error: unknown) => error)
    expect(isBackOfficeError(again) && again.code).toBe('already-cancelled')

    const late = await createRegistration(
      registering,
      registrationInput({ event: 'Resilience', code: 'ERC2025', discountCode: recorded.codes!.discount }),
    ).catch((error: unknown) => error)
    expect(isValidationError(late) && late.code).toBe('discount-code-unknown')
    expect(await testDb.db.kysely.selectFrom('registrations').select('id').execute()).toHaveLength(1)

    const register = await vatRegister(context(), { from: '2025-05-01', to: '2025-05-31' })
    expect(
      register.entries
        .filter((entry) => entry.registrationReference === recorded.reference)
        .map(({ kind, number, inclVatCents }) => ({ kind, number, inclVatCents })),
    ).toEqual([
      { kind: 'tax-invoice', number: 'INV-000001', inclVatCents: 17_250_000 },
      { kind: 'credit-note', number: 'CN-000001', inclVatCents: -17_250_000 },
    ])
    expect((await eventFinanceReport(context())).totals.sponsorshipCents).toBe(0)
    const mails = await testDb.db.kysely.selectFrom('outbox_messages').select('mail').where('topic', '=', 'sponsorship-credit-note').execute()
    expect(mails).toHaveLength(1)
    expect(JSON.parse(mails[0]!.mail)).toMatchObject({ to: ['lerato@sponsor.example.com'], attachments: [{ filename: 'credit-note-CN-000001.pdf' }] })
  })

  it('refuses an unknown package or event, and promotional text over the package’s word limit, changing nothing', async () => {
    const fields = async (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: unknown) => (isValidationError(error) ? error.issues : error),
      )
    expect(await fields(recordSponsorshipDeal(context(), dealInput({ packageId: 'sponsor-diamond' }), STAFF))).toEqual([
      { path: 'packageId', code: 'unknown-sponsor-package' },
    ])
    expect(await fields(recordSponsorshipDeal(context(), dealInput({ event: 'nope' }), STAFF))).toEqual([{ path: 'event', code: 'unknown-event' }])
    expect(await fields(recordSponsorshipDeal(context(), dealInput({ agreedPrice: 'free' }), STAFF))).toEqual([{ path: 'agreedPrice', code: 'invalid-amount' }])
    expect(await testDb.db.kysely.selectFrom('sponsorship_deals').select('id').execute()).toEqual([])

    const { id } = await recordSponsorshipDeal(context(), dealInput(), STAFF)
    const tooLong = Array.from({ length: 101 }, (_, index) => `word${index}`).join(' ')
    expect(await fields(recordDealBenefits(context(), { dealId: id, promoText: tooLong }, STAFF))).toEqual([
      { path: 'promoText', code: 'too-many-words', maximum: 100, words: 101 },
    ])
    await recordDealBenefits(
      context(),
      { dealId: id, promoText: tooLong.split(' ').slice(0, 100).join(' '), literatureReceived: 'yes', slotScheduledFor: 'Day 1, 11:00' },
      STAFF,
    )
    const [summary] = await listSponsorshipDeals(context())
    expect(summary).toMatchObject({
      promoTextWords: 100,
      deal: { literature_received_at: expect.any(String), slot_scheduled_for: 'Day 1, 11:00', promo_text_received_at: expect.any(String) },
    })
  })
  it('starts a new deal’s form from the site settings: its codes sent on approval, or once paid', async () => {
    expect(await newDealDefaults(context())).toEqual({ sendCodesWhen: 'approved' })
    const settings = await context().catalog.getSettings()
    const oncePaid = { ...context(), catalog: { ...context().catalog, getSettings: async () => ({ ...settings, sponsorCodesOncePaid: true }) } }
    expect(await newDealDefaults(oncePaid)).toEqual({ sendCodesWhen: 'paid' })
    // The deal's own choice is what it records: the form sends it either way.
    expect((await recordSponsorshipDeal(oncePaid, dealInput(), STAFF)).codesEmailed).toBe(true)
    expect((await recordSponsorshipDeal(oncePaid, dealInput({ sendCodesWhen: 'paid' }), STAFF)).codesEmailed).toBe(false)
  })
})
