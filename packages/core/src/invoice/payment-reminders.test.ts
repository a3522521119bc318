import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANAGER, register, STAFF } from '../backoffice/fixtures.ts'
import { deliverDueMessages } from '../outbox/worker.ts'
import {
  fixedCatalog,
  openTestDatabase,
  startMailSink,
  TEST_BACKENDS,
  testAuditRows,
  testAuditWriter,
  testSiteLinks,
  type TestDatabase,
} from '../test-support.ts'
import type { StaffCommandContext } from '../backoffice/command.ts'
import { overdueRegistrations, paymentRemindersOf, remindNow, sendDuePaymentReminders } from './payment-reminders.ts'

/** The back office on a business day (SITE_DATE) in Johannesburg; its wall clock is the real one, well after it. */
function onBusinessDay(db: TestDatabase['db'], isoDay: string): StaffCommandContext {
  return {
    db,
    catalog: fixedCatalog(),
    links: testSiteLinks(),
    siteNow: () => new Date(`${isoDay}T09:00:00+02:00`),
    audit: testAuditWriter,
  }
}

describe.each(TEST_BACKENDS)('payment reminders on %s', (backend) => {
  let testDb: TestDatabase
  let unpaid: string
  let earlyBird: string
  let paid: string

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    // Registered on 3 February 2025: the tax invoices are due on 8 February (5 days' terms).
    ;[unpaid, earlyBird, paid] = (await register(
      testDb.db,
      { purchaseOrderNumber: 'PO-991' },
      { companyName: 'Early Bird Ltd', attendanceOption: 'early-bird' },
      { companyName: 'Prompt Payers Ltd' },
    )) as [string, string, string]
    await testDb.db.kysely.updateTable('registrations').set({ status: 'paid', paid_at: '2025-02-04T08:00:00Z' }).where('reference', '=', paid).execute()
    await testDb.db.kysely.updateTable('outbox_messages').set({ status: 'sent' }).execute()
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  const reminderMails = () => testDb.db.kysely.selectFrom('outbox_messages').select(['source_id', 'mail']).where('topic', '=', 'payment.reminder').execute()

  it('reminds each unpaid registration once past its due date and once more a week before the event, by the business clock', async () => {
    expect(await sendDuePaymentReminders(onBusinessDay(testDb.db, '2025-02-08'))).toEqual([])

    const dayAfterDue = onBusinessDay(testDb.db, '2025-02-09')
    expect(await sendDuePaymentReminders(dayAfterDue)).toEqual([
      { reference: unpaid, kind: 'overdue' },
      { reference: earlyBird, kind: 'overdue' },
    ])
    // However often it runs, on however many instances at once, the same reminder is not sent again.
    const again = await Promise.all([sendDuePaymentReminders(dayAfterDue), sendDuePaymentReminders(onBusinessDay(testDb.db, '2025-03-20'))])
    expect(again).toEqual([[], []])
    expect(await reminderMails()).toHaveLength(2)

    // Legal Opinion starts on 3 July 2025: the second reminder goes from 26 June.
    expect(await sendDuePaymentReminders(onBusinessDay(testDb.db, '2025-06-25'))).toEqual([])
    const weekBefore = onBusinessDay(testDb.db, '2025-06-26')
    expect((await sendDuePaymentReminders(weekBefore)).map((sent) => sent.kind)).toEqual(['before-event', 'before-event'])
    expect(await sendDuePaymentReminders(onBusinessDay(testDb.db, '2025-06-30'))).toEqual([])
    expect(await reminderMails()).toHaveLength(4)

    expect(await paymentRemindersOf(weekBefore, unpaid)).toEqual([
      { kind: 'overdue', businessDay: '2025-02-09', outstandingCents: 2_067_700, sentByName: null },
      { kind: 'before-event', businessDay: '2025-06-26', outstandingCents: 2_067_700, sentByName: null },
    ])

    const { sink, transport, stop } = await startMailSink()
    try {
      await deliverDueMessages({ db: testDb.db, transport, log: () => undefined })
      const first = sink.received.find(
        (mail) =>
          mail.recipients.includes('bookings@acme.example.com') && mail.parsed.text?.includes('PO-991') && mail.parsed.text.includes('was due for payment'),
      )
      expect(first).toBeDefined()
      const text = first!.parsed.text!
      expect(first!.parsed.subject).toBe(`Payment reminder: R 20 677.00 owed for registration ${unpaid}`)
      for (const expected of [
        'Our tax invoice INV-000001 was due for payment on 8 February 2025',
        'Your reference: PO-991',
        'Amount owed: R 20 677.00',
        `Payment reference: ${unpaid}`,
      ]) {
        expect(text).toContain(expected)
      }
      expect(first!.parsed.attachments.map((attachment) => attachment.filename)).toEqual(['tax-invoice-INV-000001.pdf'])
      expect(sink.received.filter((mail) => mail.parsed.text?.includes('starts in a week'))).toHaveLength(2)
    } finally {
      await stop()
    }
  })

  it('lists what is overdue with the days, the amount and the contact, flags early-bird registrations unpaid after the early-bird date, and reminds on request', async () => {
    const context = onBusinessDay(testDb.db, '2025-03-26')
    const overdue = await overdueRegistrations(context)
    expect(overdue.map((row) => [row.reference, row.daysOverdue, row.outstandingCents, row.earlyBirdUnpaid])).toEqual(
      [
        [earlyBird, 46, 1_837_700, true],
        [unpaid, 46, 2_067_700, false],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    )
    expect(overdue.find((row) => row.reference === unpaid)).toMatchObject({
      companyName: 'Acme Legal Services',
      contact: { email: 'bookings@acme.example.com', tel: '+27 11 555 0100' },
      invoiceNumber: 'INV-000001',
      dueOn: '2025-02-08',
      // Invoiced 51 days before: in the 30-day band.
      ageBand: '30-days',
      reminders: [],
    })
    // Before the due date nothing is overdue.
    expect(await overdueRegistrations(onBusinessDay(testDb.db, '2025-02-08'))).toEqual([])

    expect(await remindNow(context, { reference: unpaid }, STAFF)).toEqual({ reference: unpaid, outstandingCents: 2_067_700, payer: 'registration' })
    expect(await remindNow(context, { reference: unpaid.toLowerCase() }, MANAGER)).toMatchObject({ reference: unpaid })
    expect(await reminderMails()).toHaveLength(2)
    await expect(remindNow(context, { reference: paid }, STAFF)).rejects.toMatchObject({ code: 'nothing-owed' })
    expect((await overdueRegistrations(context)).find((row) => row.reference === unpaid)?.reminders).toEqual([
      { kind: 'staff', businessDay: '2025-03-26' },
      { kind: 'staff', businessDay: '2025-03-26' },
    ])
    expect(await testAuditRows(testDb.db)).toEqual([
      expect.objectContaining({ action: 'registration-payment-reminder-sent', subjectId: unpaid, after: { outstandingCents: 2_067_700 } }),
      expect.objectContaining({ action: 'registration-payment-reminder-sent', subjectId: unpaid }),
    ])
    // Staff reminders do not stand in for the automatic one, which still goes once.
    expect(await sendDuePaymentReminders(context)).toHaveLength(2)
  })
})
