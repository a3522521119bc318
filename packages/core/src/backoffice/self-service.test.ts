import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANAGER, register, testContext } from './fixtures.ts'
import { decideCancellationRequest } from '../cancellation/requests.ts'
import { passPage } from '../event-days/passes.ts'
import type { OutgoingMail } from '../mail/outgoing-mail.ts'
import { TEST_BACKENDS, openTestDatabase, testAuditRows, type TestDatabase } from '../test-support.ts'
import { requestCancellationByRegistrant, selfServiceOf, substituteDelegateByRegistrant } from './self-service.ts'

describe.each(TEST_BACKENDS)('self-service from the private link on %s', (backend) => {
  let testDb: TestDatabase
  let reference: string
  let secret: string

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    ;[reference = ''] = await register(testDb.db, {})
    secret = (await testDb.db.kysely.selectFrom('registrations').select('secret').where('reference', '=', reference).executeTakeFirstOrThrow()).secret
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  /** The business clock on a given day (the tests' Legal Opinion Writing starts on 3 July 2025 at 08:30). */
  const contextOn = (day: string) => ({ ...testContext(testDb.db), siteNow: () => new Date(day), organiserEmail: 'office@events.example.com' })
  const state = async () => ({
    delegates: await testDb.db.kysely.selectFrom('registration_delegates').select(['name', 'email', 'cancellation_id']).orderBy('ordinal').execute(),
    requests: await testDb.db.kysely.selectFrom('cancellation_requests').select(['status', 'requested_by_name']).execute(),
    mails: (await testDb.db.kysely.selectFrom('outbox_messages').select(['topic', 'mail']).orderBy('created_at').execute()).map((row) => ({
      topic: row.topic,
      mail: JSON.parse(row.mail) as OutgoingMail,
    })),
  })
  const newcomer = { delegate: '2', name: 'Naledi Khumalo', position: 'Candidate attorney', email: 'naledi@acme.example.com' }

  it('puts a colleague in a delegate’s place, with a pass of their own, audited as the registrant’s and confirmed by e-mail', async () => {
    const context = contextOn('2025-06-01T09:00:00+02:00')
    const oldPass = await testDb.db.kysely.selectFrom('delegate_passes').select('token').orderBy('created_at').execute()
    const change = await substituteDelegateByRegistrant(context, { reference, secret, ...newcomer }, '198.51.100.7')
    expect(change).toMatchObject({ before: { name: 'Pieter van Wyk' }, after: { name: 'Naledi Khumalo' }, noticeQueued: true })
    const after = await state()
    expect(after.delegates.map((delegate) => delegate.name)).toEqual(['Thandi Nkosi', 'Naledi Khumalo'])
    const confirmation = after.mails.find((row) => row.topic === 'registration.self-service')!.mail
    expect(confirmation.to).toEqual(['bookings@acme.example.com'])
    expect(confirmation.subject).toBe('Delegate changed: Legal Opinion Writing 2025')
    expect(confirmation.text).toContain(
      'Naledi Khumalo (Candidate attorney, naledi@acme.example.com) now attends Legal Opinion Writing 2025 in place of Pieter van Wyk.',
    )
    expect(await passPage(testDb, oldPass[1]!.token)).toBeUndefined()
    expect(await testAuditRows(testDb.db)).toEqual([
      expect.objectContaining({ action: 'registration-delegate-changed', subjectId: reference, actorId: `registrant:${reference}`, ipAddress: '198.51.100.7' }),
    ])
  })

  it('refuses a wrong link, a started event and a cancelled registration, changing nothing', async () => {
    const before = await state()
    await expect(
      substituteDelegateByRegistrant(contextOn('2025-06-01T09:00:00+02:00'), { reference, secret: 'not-the-secret', ...newcomer }, null),
    ).rejects.toMatchObject({
      code: 'not-found',
    })
    await expect(substituteDelegateByRegistrant(contextOn('2025-07-03T08:30:00+02:00'), { reference, secret, ...newcomer }, null)).rejects.toMatchObject({
      code: 'event-started',
    })
    await expect(requestCancellationByRegistrant(contextOn('2025-07-04T09:00:00+02:00'), { reference, secret }, null)).rejects.toMatchObject({
      code: 'event-started',
    })
    await expect(
      substituteDelegateByRegistrant(contextOn('2025-06-01T09:00:00+02:00'), { reference, secret, ...newcomer, email: 'not an address' }, null),
    ).rejects.toMatchObject({ code: 'invalid-email' })
    expect(await state()).toEqual(before)
    expect(await testAuditRows(testDb.db)).toEqual([])
    expect((await selfServiceOf(contextOn('2025-07-03T08:30:00+02:00'), reference, secret))!.closed).toBe('event-started')
    expect(await selfServiceOf(contextOn('2025-06-01T09:00:00+02:00'), reference, 'not-the-secret')).toBeUndefined()
  })

  it('asks a manager to cancel, showing the fee the terms give first, and tells the registrant and the office', async () => {
    // Ten working days before the event: the terms keep half. 2 × R 8 990 + VAT = R 20 677.00; half kept.
    const context = contextOn('2025-06-19T09:00:00+02:00')
    expect(await selfServiceOf(context, reference, secret)).toEqual({
      closed: undefined,
      delegates: [
        { number: 1, name: 'Thandi Nkosi', position: expect.any(String), email: expect.any(String) },
        { number: 2, name: 'Pieter van Wyk', position: expect.any(String), email: expect.any(String) },
      ],
      cancellation: { feePercent: 50, feeTotalCents: 1_033_850, creditedTotalCents: 1_033_850 },
      pendingRequestAt: null,
    })
    const asked = await requestCancellationByRegistrant(context, { reference, secret }, '198.51.100.7')
    expect(asked).toMatchObject({ status: 'pending', delegateIds: 'all', feePercent: null })
    const after = await state()
    expect(after.requests).toEqual([{ status: 'pending', requested_by_name: 'Acme Legal Services (registrant, private link)' }])
    expect(after.delegates.every((delegate) => delegate.cancellation_id === null)).toBe(true)
    const mails = after.mails.filter((row) => row.topic === 'registration.self-service').map((row) => row.mail)
    expect(mails.map((mail) => mail.to)).toEqual([['bookings@acme.example.com'], ['office@events.example.com']])
    expect(mails[0]!.text).toContain('If it is approved today, the terms keep a fee of 50% (R 10 338.50 incl. VAT) and credit R 10 338.50.')
    expect((await selfServiceOf(context, reference, secret))!.pendingRequestAt).not.toBeNull()
    await expect(requestCancellationByRegistrant(context, { reference, secret }, null)).rejects.toMatchObject({ code: 'request-pending' })

    const { outcome } = await decideCancellationRequest(context, { reference, requestId: asked.id, decision: 'approve' }, MANAGER)
    expect(outcome).toMatchObject({ after: { registrationCancelled: true, owedCents: 1_033_850 } })
    expect((await selfServiceOf(context, reference, secret))!.closed).toBe('cancelled')
    await expect(substituteDelegateByRegistrant(context, { reference, secret, ...newcomer }, null)).rejects.toMatchObject({ code: 'already-cancelled' })
  })
})
