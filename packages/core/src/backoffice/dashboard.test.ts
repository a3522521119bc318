import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cancelRegistration, recordRefundPaidOut } from '../cancellation/cancel.ts'
import { markRegistrationPaid } from '../registration/payment-state.ts'
import { LEGAL_OPINION, RESILIENCE as RESILIENCE_EVENT, TEST_BACKENDS, fixedCatalog, openTestDatabase, type TestDatabase } from '../test-support.ts'
import { recordBankTransfer } from './bank-transfers.ts'
import { dashboard } from './dashboard.ts'
import { register, MANAGER, STAFF, testContext } from './fixtures.ts'

const RESILIENCE = { event: 'Resilience', code: 'ERC2025' }
const ONE_DELEGATE = { delegates: [{ name: 'Lerato Molefe', position: 'Director', email: 'lerato@example.com' }] }

describe.each(TEST_BACKENDS)('dashboard on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  it('sums registrations, delegates, paid and awaiting amounts per upcoming event, soonest first, with the outbox health', async () => {
    // Legal Opinion (3 July 2025): R 20 677.00 each for two delegates. Resilience (23 July 2025): R 9 763.50 for one.
    const [paidByCard, partPaid] = await register(testDb.db, {}, { companyName: 'Second Company' })
    const [resilience] = await register(testDb.db, { ...RESILIENCE, ...ONE_DELEGATE })
    const context = testContext(testDb.db)
    const { id } = await testDb.db.kysely.selectFrom('registrations').select('id').where('reference', '=', paidByCard!).executeTakeFirstOrThrow()
    await testDb.db.writeTransaction((transaction) => markRegistrationPaid(transaction, id, new Date('2025-03-01T10:00:00Z')))
    await recordBankTransfer(context, { reference: partPaid!, amount: '5000.00', receivedOn: '2025-03-01', bankReference: 'B1' }, STAFF)
    await recordBankTransfer(context, { reference: resilience!, amount: '9763.50', receivedOn: '2025-03-01', bankReference: 'B2' }, STAFF)

    // Legal Opinion's room now holds 40; Resilience sets no limit.
    const catalog = fixedCatalog([{ ...LEGAL_OPINION, venueCapacity: 40 }, RESILIENCE_EVENT])
    const figures = await dashboard({ ...context, catalog, now: () => new Date('2025-03-02T08:00:00Z') })

    expect(figures.events).toEqual([
      {
        eventId: 'event-legal-opinion',
        eventSlug: 'legalOpinion',
        eventTitle: 'Legal Opinion Writing 2025',
        eventStart: '2025-07-03T06:30:00Z',
        registrations: 2,
        delegates: 4,
        receivedCents: 2_067_700 + 500_000,
        refundedCents: 0,
        netCents: 2_067_700 + 500_000,
        awaitingCents: 2_067_700 - 500_000,
        seats: { venue: { taken: 4, capacity: 40 }, online: { taken: 0, capacity: null } },
        waitingList: 0,
      },
      {
        eventId: 'event-resilience',
        eventSlug: 'Resilience',
        eventTitle: 'Economic Resilience Conference 2025',
        eventStart: '2025-07-23T05:30:00Z',
        registrations: 1,
        delegates: 1,
        receivedCents: 976_350,
        refundedCents: 0,
        netCents: 976_350,
        awaitingCents: 0,
        seats: { venue: { taken: 1, capacity: null }, online: { taken: 0, capacity: null } },
        waitingList: 0,
      },
    ])
    // Each registration queued four e-mails (organiser, registrant, a delegate each), the paid one a receipt and the
    // part-paid one an acknowledgement of its part payment.
    expect(figures.outbox).toMatchObject({ pending: 2 * 4 + 3 + 1 + 1, failed: 0 })
  })

  it('leaves out cancelled delegates and registrations, and awaits only what the credit notes left owing', async () => {
    // Legal Opinion: two registrations of two delegates, R 20 677.00 each, awaiting a bank transfer.
    const [partlyCancelled, cancelled] = await register(testDb.db, {}, { companyName: 'Second Company' })
    const context = testContext(testDb.db)
    const [pieter] = await testDb.db.kysely
      .selectFrom('registration_delegates')
      .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
      .select('registration_delegates.id')
      .where('registrations.reference', '=', partlyCancelled!)
      .orderBy('registration_delegates.ordinal', 'desc')
      .execute()
    const one = await cancelRegistration(context, { reference: partlyCancelled!, delegateIds: [pieter!.id], feePercent: 0 }, MANAGER)
    const whole = await cancelRegistration(
      context,
      { reference: cancelled!, delegateIds: 'all', feePercent: 50, overrideReason: 'Agreed with the client' },
      MANAGER,
    )

    const [legalOpinion] = (await dashboard(context)).events
    expect(legalOpinion).toMatchObject({ registrations: 1, delegates: 1, receivedCents: 0, refundedCents: 0, netCents: 0 })
    expect(legalOpinion!.awaitingCents).toBe(2 * 2_067_700 - one.cancellation.creditedTotalCents - whole.cancellation.creditedTotalCents)
    expect(whole.cancellation.creditedTotalCents).toBeGreaterThan(0)
  })

  it('counts money refunded apart from money received: received, refunded and net', async () => {
    // Legal Opinion, two delegates, R 20 677.00 paid by transfer; on 20 June (50% fee) the whole registration is cancelled.
    const [reference] = await register(testDb.db, {})
    await recordBankTransfer(testContext(testDb.db), { reference: reference!, amount: '20677.00', receivedOn: '2025-03-01', bankReference: 'FNB 1' }, STAFF)
    const context = { ...testContext(testDb.db), siteNow: () => new Date('2025-06-20T09:00:00+02:00') }
    const { cancellation } = await cancelRegistration(context, { reference: reference!, delegateIds: 'all' }, MANAGER)
    expect(cancellation.refund).toMatchObject({ status: 'awaiting-payout', amountCents: 1_033_850 })

    // A refund still to be paid out is not money given back yet.
    expect((await dashboard(context)).events[0]).toMatchObject({ receivedCents: 2_067_700, refundedCents: 0, netCents: 2_067_700 })
    await recordRefundPaidOut(context, { reference: reference!, refundId: cancellation.refund!.id, paidOutOn: '2025-06-20', bankReference: 'EFT 9' }, MANAGER)
    expect((await dashboard(context)).events[0]).toMatchObject({
      receivedCents: 2_067_700,
      refundedCents: 1_033_850,
      netCents: 2_067_700 - 1_033_850,
      awaitingCents: 0,
    })
  })

  it('leaves out events that are over by the business clock', async () => {
    await register(testDb.db, {})
    await register(testDb.db, { ...RESILIENCE, ...ONE_DELEGATE })
    const afterLegalOpinion = { ...testContext(testDb.db), siteNow: () => new Date('2025-07-10T08:00:00+02:00') }

    const figures = await dashboard(afterLegalOpinion)

    expect(figures.events.map((event) => event.eventSlug)).toEqual(['Resilience'])
  })
})
