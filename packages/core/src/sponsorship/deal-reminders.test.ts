import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANAGER, register, STAFF } from '../backoffice/fixtures.ts'
import type { StaffCommandContext } from '../backoffice/command.ts'
import { isBackOfficeError } from '../backoffice/errors.ts'
import { recordBankTransfer } from '../backoffice/bank-transfers.ts'
import { erasePersonalData } from '../backoffice/personal-data.ts'
import type { SponsorPackageTerms } from '../catalog.ts'
import { overdueRegistrations, remindNow, sendDuePaymentReminders } from '../invoice/payment-reminders.ts'
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
  testAuditWriter,
  testSiteLinks,
  type TestDatabase,
} from '../test-support.ts'
import { cancelSponsorshipDeal, listSponsorshipDeals, recordSponsorshipDeal } from './deals.ts'

const GOLD: SponsorPackageTerms = {
  id: 'sponsor-gold',
  title: 'Gold',
  complimentarySeats: 2,
  participantDiscountPercent: 30,
  promotionalTextWords: 70,
  literaturePages: 10,
  speakingSlot: '40-minute case study',
  priceExclVat: 100_000,
}

/** The back office on a business day (SITE_DATE) in Johannesburg. */
function onBusinessDay(db: TestDatabase['db'], isoDay: string): StaffCommandContext {
  const at = new Date(`${isoDay}T09:00:00+02:00`)
  return {
    db,
    catalog: { ...fixedCatalog([LEGAL_OPINION, RESILIENCE]), getSponsorPackage: async (id: string) => (id === GOLD.id ? GOLD : undefined) },
    links: testSiteLinks(),
    now: () => at,
    siteNow: () => at,
    audit: testAuditWriter,
  }
}

const dealInput = (overrides: Record<string, unknown> = {}) => ({
  event: 'Resilience',
  packageId: GOLD.id,
  companyName: 'Gold Sponsor (Pty) Ltd',
  address: '1 Main Road\nRosebank',
  purchaseOrderNumber: 'PO-GOLD-1',
  contactName: 'Thandi Nkosi',
  contactEmail: 'thandi@gold.example.com',
  contactTel: '011 555 0101',
  agreedPrice: '100 000',
  ...overrides,
})

describe.each(TEST_BACKENDS)('sponsorship payment reminders on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  const reminderMails = () =>
    testDb.db.kysely
      .selectFrom('outbox_messages')
      .select(['source_id', 'mail'])
      .where('topic', '=', 'sponsorship-payment-reminder')
      .orderBy('created_at')
      .execute()

  it('reminds the contact of an unpaid deal in the registrations’ round: once past the due date, once a week before the event', async () => {
    // Invoiced on 10 May 2025, due on 15 May (5 days' terms); the codes wait for the payment.
    const deal = await recordSponsorshipDeal(onBusinessDay(testDb.db, '2025-05-10'), dealInput({ sendCodesWhen: 'paid' }), STAFF)
    // A registration in the same round keeps its own reminders: invoiced 3 February 2025.
    const [unpaid] = await register(testDb.db, {})

    expect(await sendDuePaymentReminders(onBusinessDay(testDb.db, '2025-05-15'))).toEqual([{ reference: unpaid, kind: 'overdue' }])
    const dayAfterDue = onBusinessDay(testDb.db, '2025-05-16')
    expect(await sendDuePaymentReminders(dayAfterDue)).toEqual([{ reference: deal.reference, kind: 'overdue' }])
    // However often it runs, on however many instances at once, the same reminder is not sent again.
    expect(await Promise.all([sendDuePaymentReminders(dayAfterDue), sendDuePaymentReminders(onBusinessDay(testDb.db, '2025-06-01'))])).toEqual([[], []])
    expect(await reminderMails()).toHaveLength(1)

    // Resilience starts on 23 July 2025: the second reminder goes from 16 July.
    expect(await sendDuePaymentReminders(onBusinessDay(testDb.db, '2025-07-15'))).toEqual([])
    expect(await sendDuePaymentReminders(onBusinessDay(testDb.db, '2025-07-16'))).toEqual([
      // Legal Opinion (the registration's) started on 3 July: over, nothing left to remind.
      { reference: deal.reference, kind: 'before-event' },
    ])
    expect(await sendDuePaymentReminders(onBusinessDay(testDb.db, '2025-07-18'))).toEqual([])

    const [first, second] = await reminderMails()
    expect(first!.source_id).toBe(deal.id)
    const message = JSON.parse(first!.mail) as { to: string[]; subject: string; text: string; attachments: Array<{ filename: string; content: string }> }
    expect(message.to).toEqual(['thandi@gold.example.com'])
    expect(message.subject).toBe(`Payment reminder: R 115 000.00 owed for sponsorship ${deal.reference}`)
    for (const shown of [
      'Dear Thandi Nkosi, our tax invoice INV-000001 for your Gold sponsorship of Economic Resilience Conference 2025 was due for payment on 15 May 2025',
      'PO-GOLD-1',
      `with ${deal.reference} as the payment reference`,
      'Amount owed',
      'R 115 000.00',
      'Your codes for complimentary seats and your participants’ discount follow by e-mail once the invoice is paid.',
    ]) {
      expect(message.text).toContain(shown)
    }
    expect(message.attachments.map((attachment) => attachment.filename)).toEqual(['tax-invoice-INV-000001.pdf'])
    expect(pdftotext(Buffer.from(message.attachments[0]!.content, 'base64'))).toContain('Economic Resilience Conference 2025: Gold')
    expect((JSON.parse(second!.mail) as { text: string }).text).toContain('Economic Resilience Conference 2025 starts in a week')

    const [summary] = await listSponsorshipDeals(dayAfterDue)
    expect(summary!.reminders).toEqual([
      { kind: 'overdue', businessDay: '2025-05-16', outstandingCents: 11_500_000, sentByName: null },
      { kind: 'before-event', businessDay: '2025-07-16', outstandingCents: 11_500_000, sentByName: null },
    ])

    const { sink, transport, stop } = await startMailSink()
    try {
      await deliverDueMessages({ db: testDb.db, transport, log: () => undefined })
      const delivered = sink.received.filter((sent) => sent.parsed.subject?.startsWith('Payment reminder: R 115 000.00'))
      expect(delivered.map((sent) => sent.recipients)).toEqual([['thandi@gold.example.com'], ['thandi@gold.example.com']])
      expect(delivered[0]!.parsed.attachments.map((attachment) => attachment.filename)).toEqual(['tax-invoice-INV-000001.pdf'])
    } finally {
      await stop()
    }
  })

  it('lists an unpaid deal on the Overdue list with its age band, reminds it on request, and stops once it is paid', async () => {
    const deal = await recordSponsorshipDeal(onBusinessDay(testDb.db, '2025-05-10'), dealInput(), STAFF)
    expect(await overdueRegistrations(onBusinessDay(testDb.db, '2025-05-15'))).toEqual([])

    const later = onBusinessDay(testDb.db, '2025-06-20')
    expect(await overdueRegistrations(later)).toEqual([
      {
        payer: 'sponsorship-deal',
        dealId: deal.id,
        reference: deal.reference,
        companyName: 'Gold Sponsor (Pty) Ltd',
        contact: { email: 'thandi@gold.example.com', tel: '011 555 0101' },
        eventTitle: 'Economic Resilience Conference 2025 (Gold sponsorship)',
        invoiceNumber: 'INV-000001',
        dueOn: '2025-05-15',
        daysOverdue: 36,
        outstandingCents: 11_500_000,
        // Invoiced 41 days before.
        ageBand: '30-days',
        earlyBirdUnpaid: false,
        earlyBirdUntil: null,
        reminders: [],
      },
    ])

    // "Remind now" takes the deal's reference as typed, whatever was sent before.
    expect(await remindNow(later, { reference: deal.reference.toLowerCase() }, STAFF)).toEqual({
      reference: deal.reference,
      outstandingCents: 11_500_000,
      payer: 'sponsorship-deal',
    })
    await remindNow(later, { reference: deal.reference }, STAFF)
    expect(await reminderMails()).toHaveLength(2)
    const [row] = await overdueRegistrations(later)
    expect(row!.reminders).toEqual([
      { kind: 'staff', businessDay: '2025-06-20' },
      { kind: 'staff', businessDay: '2025-06-20' },
    ])
    const audit = (await testAuditRows(testDb.db)).filter((entry) => entry.action === 'sponsorship-payment-reminder-sent')
    expect(audit.map((entry) => [entry.subjectType, entry.subjectId])).toEqual([
      ['sponsorship-deal', deal.reference],
      ['sponsorship-deal', deal.reference],
    ])

    // A part payment leaves what remains owed; the payment in full ends the reminders.
    await recordBankTransfer(later, { reference: deal.reference, amount: '15 000', receivedOn: '2025-06-20', bankReference: 'GOLD 1' }, STAFF)
    expect((await overdueRegistrations(later))[0]).toMatchObject({ outstandingCents: 10_000_000 })
    await recordBankTransfer(later, { reference: deal.reference, amount: '100 000', receivedOn: '2025-06-20', bankReference: 'GOLD 2' }, STAFF)
    expect(await overdueRegistrations(later)).toEqual([])
    expect(await sendDuePaymentReminders(onBusinessDay(testDb.db, '2025-07-16'))).toEqual([])
    const paid = await remindNow(later, { reference: deal.reference }, STAFF).catch((error: unknown) => error)
    expect(isBackOfficeError(paid) && [paid.code, paid.details]).toEqual(['nothing-owed', { what: 'deal' }])
    expect(await reminderMails()).toHaveLength(2)
  })

  it('never reminds a cancelled deal, one awaiting approval, or one whose contact was erased', async () => {
    const at = onBusinessDay(testDb.db, '2025-05-10')
    const cancelled = await recordSponsorshipDeal(at, dealInput(), STAFF)
    await cancelSponsorshipDeal(at, { dealId: cancelled.id }, MANAGER)
    const waiting = await recordSponsorshipDeal(at, dealInput({ agreedPrice: '90 000', contactEmail: 'waiting@gold.example.com' }), STAFF)
    const erased = await recordSponsorshipDeal(at, dealInput({ contactEmail: 'gone@gold.example.com' }), STAFF)
    await erasePersonalData(at, { email: 'gone@gold.example.com', confirm: true }, MANAGER)

    const later = onBusinessDay(testDb.db, '2025-06-20')
    expect(await sendDuePaymentReminders(later)).toEqual([])
    // The erased contact's deal is still owed: it stays on the list for staff to chase by telephone or post.
    expect((await overdueRegistrations(later)).map((row) => row.reference)).toEqual([erased.reference])
    for (const [reference, code] of [
      [cancelled.reference, 'nothing-owed'],
      [waiting.reference, 'nothing-owed'],
      [erased.reference, 'personal-data-erased'],
    ] as const) {
      const refused = await remindNow(later, { reference }, STAFF).catch((error: unknown) => error)
      expect(isBackOfficeError(refused) && refused.code).toBe(code)
    }
    expect(await reminderMails()).toEqual([])
  })
})
