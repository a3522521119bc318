import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recordBankTransfer } from '../backoffice/bank-transfers.ts'
import { MANAGER, register, STAFF, testContext } from '../backoffice/fixtures.ts'
import { getRegistrationDetail } from '../backoffice/registration-detail.ts'
import { cancelRegistration } from '../cancellation/cancel.ts'
import { eventKeyOf } from '../registration/event-ids.ts'
import { TEST_BACKENDS, openTestDatabase, testAuditRows, type TestDatabase } from '../test-support.ts'
import { checkInDelegate } from './check-in.ts'
import { delegateMessagesOf, previewDelegateMessage, sendDelegateMessage } from './messages.ts'
import { passesOfRegistration } from './passes.ts'

describe.each(TEST_BACKENDS)('messages to delegates on %s', (backend) => {
  let testDb: TestDatabase
  let eventId: string
  let references: [string, string, string]

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    references = (await register(
      testDb.db,
      {},
      { attendanceOption: 'online', delegates: [{ name: 'Lerato Dlamini', position: 'Attorney', email: 'lerato@firm.example.com' }] },
      { delegates: [{ name: 'Johan de Beer', position: 'Partner', email: 'johan@beer.example.com' }] },
    )) as [string, string, string]
    const row = await testDb.db.kysely
      .selectFrom('registrations')
      .select(['event_id', 'event_slug', 'total_cents'])
      .where('reference', '=', references[2])
      .executeTakeFirstOrThrow()
    eventId = eventKeyOf(row)
    // Johan's registration is paid in full; the others owe.
    await recordBankTransfer(
      testContext(testDb.db),
      { reference: references[2], amount: (row.total_cents / 100).toFixed(2), receivedOn: '2025-03-01', bankReference: 'B1' },
      STAFF,
    )
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  const message = (filters: Record<string, string>) => ({
    eventId,
    subject: 'A note for {name}',
    body: 'Dear {name},\nThe venue has moved to the second floor.',
    attendance: 'all',
    payment: 'all',
    day: '',
    ...filters,
  })

  /** The message as sent after its preview named `recipients` delegates. */
  const confirmedMessage = (filters: Record<string, string>, recipients: number) => ({ ...message(filters), confirmedRecipients: String(recipients) })

  const sentTo = async () =>
    (
      await testDb.db.kysely.selectFrom('outbox_messages').select('mail').where('topic', '=', 'event.message').orderBy('created_at').orderBy('id').execute()
    ).map((row) => (JSON.parse(row.mail) as { to: string[] }).to[0])

  it('previews with the first delegate chosen and sends to only the delegates the filters choose, logged and audited', async () => {
    expect(await previewDelegateMessage(testContext(testDb.db), message({ attendance: 'venue', payment: 'unpaid' }))).toEqual({
      recipientCount: 2,
      first: { name: 'Thandi Nkosi', subject: 'A note for Thandi Nkosi', text: 'Dear Thandi Nkosi,\nThe venue has moved to the second floor.\n' },
    })
    expect(await sendDelegateMessage(testContext(testDb.db), confirmedMessage({ attendance: 'venue', payment: 'unpaid' }, 2), STAFF)).toEqual({
      recipientCount: 2,
    })
    expect(await sentTo()).toEqual(['thandi@acme.example.com', 'pieter@acme.example.com'])
    await sendDelegateMessage(testContext(testDb.db), confirmedMessage({ payment: 'paid' }, 1), STAFF)
    await sendDelegateMessage(testContext(testDb.db), confirmedMessage({ attendance: 'online' }, 1), STAFF)
    expect(await sentTo()).toEqual(['thandi@acme.example.com', 'pieter@acme.example.com', 'johan@beer.example.com', 'lerato@firm.example.com'])
    expect((await delegateMessagesOf(testContext(testDb.db), eventId)).map((sent) => [sent.filters, sent.recipientCount, sent.sentByName])).toEqual([
      [{ attendance: 'online', payment: 'all', day: '' }, 1, STAFF.name],
      [{ attendance: 'all', payment: 'paid', day: '' }, 1, STAFF.name],
      [{ attendance: 'venue', payment: 'unpaid', day: '' }, 2, STAFF.name],
    ])
    const detail = await getRegistrationDetail(testContext(testDb.db), references[1])
    expect(detail!.emails.filter((email) => email.topic === 'event.message')).toHaveLength(1)
    expect(await testAuditRows(testDb.db)).toContainEqual(
      expect.objectContaining({
        action: 'delegate-message-sent',
        subjectId: eventId,
        after: { subject: 'A note for {name}', attendance: 'online', payment: 'all', day: '', recipients: 1 },
      }),
    )
  })

  it('chooses by the day attended, never writes to a cancelled delegate, and refuses what reaches nobody', async () => {
    const venue = await testDb.db.kysely.selectFrom('registrations').select('id').where('reference', '=', references[0]).executeTakeFirstOrThrow()
    const [thandi] = await passesOfRegistration(testDb.db.kysely, venue.id)
    const onTheDay = { ...testContext(testDb.db), siteNow: () => new Date('2025-07-03T09:00:00+02:00'), now: () => new Date('2025-07-03T09:00:00+02:00') }
    await checkInDelegate(onTheDay, { eventId, day: '2025-07-03', code: thandi!.code }, STAFF)
    expect(await previewDelegateMessage(testContext(testDb.db), message({ day: '2025-07-03' }))).toMatchObject({
      recipientCount: 1,
      first: { name: 'Thandi Nkosi' },
    })
    expect(await previewDelegateMessage(testContext(testDb.db), message({ day: '2025-07-04' }))).toEqual({ recipientCount: 0 })
    await expect(sendDelegateMessage(testContext(testDb.db), confirmedMessage({ day: '2025-07-04' }, 0), STAFF)).rejects.toMatchObject({
      code: 'invalid-input',
    })
    await expect(sendDelegateMessage(testContext(testDb.db), confirmedMessage({ day: '2025-07-09' }, 1), STAFF)).rejects.toMatchObject({
      code: 'not-an-event-day',
    })
    await expect(sendDelegateMessage(testContext(testDb.db), confirmedMessage({ subject: '' }, 1), STAFF)).rejects.toMatchObject({ code: 'missing-fields' })

    await cancelRegistration(testContext(testDb.db), { reference: references[0], delegateIds: 'all' }, MANAGER)
    await testDb.db.kysely
      .updateTable('registration_delegates')
      .set({ name: 'Anonymised', position: '', email: '' })
      .where('name', '=', 'Lerato Dlamini')
      .execute()
    await sendDelegateMessage(testContext(testDb.db), confirmedMessage({}, 1), STAFF)
    expect(await sentTo()).toEqual(['johan@beer.example.com'])
    expect(await delegateMessagesOf(testContext(testDb.db), 'no-such-event')).toEqual([])
  })

  it('sends only what staff confirmed: never unconfirmed, never to a number of delegates other than the preview named', async () => {
    await expect(sendDelegateMessage(testContext(testDb.db), message({}), STAFF)).rejects.toMatchObject({
      code: 'invalid-input',
      details: { problem: 'message-not-confirmed' },
    })
    await expect(sendDelegateMessage(testContext(testDb.db), confirmedMessage({}, Number.NaN), STAFF)).rejects.toMatchObject({
      details: { problem: 'message-not-confirmed' },
    })
    const { recipientCount } = await previewDelegateMessage(testContext(testDb.db), message({}))
    // A registration cancelled between the preview and the send.
    await cancelRegistration(testContext(testDb.db), { reference: references[1], delegateIds: 'all' }, MANAGER)
    await expect(sendDelegateMessage(testContext(testDb.db), confirmedMessage({}, recipientCount), STAFF)).rejects.toMatchObject({
      code: 'invalid-input',
      details: { problem: 'message-recipients-changed', confirmed: recipientCount, now: recipientCount - 1 },
    })
    expect(await sentTo()).toEqual([])
    expect(await delegateMessagesOf(testContext(testDb.db), eventId)).toEqual([])
    expect(await sendDelegateMessage(testContext(testDb.db), confirmedMessage({}, recipientCount - 1), STAFF)).toEqual({ recipientCount: recipientCount - 1 })
  })
})
