import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANAGER, register, STAFF, testContext } from '../backoffice/fixtures.ts'
import { getRegistrationDetail } from '../backoffice/registration-detail.ts'
import { cancelRegistration } from '../cancellation/cancel.ts'
import { outgoingMailOf } from '../outbox/stored-mail.ts'
import { eventKeyOf } from '../registration/event-ids.ts'
import { TEST_BACKENDS, openTestDatabase, testAuditRows, type TestDatabase } from '../test-support.ts'
import { saveJoiningInstructions } from './joining.ts'
import { joiningMailsOf, joiningMomentsDue, joiningRecipientsOf, resendJoiningMail, sendDueJoiningMails } from './joining-mails.ts'
import { passesOfRegistration } from './passes.ts'

// Legal Opinion Writing runs on 3 and 4 July 2025 in the tests' catalogue.
const DAYS = ['2025-07-03', '2025-07-04']

describe('joiningMomentsDue', () => {
  const at = (iso: string) => new Date(iso)
  it('answers the days-before e-mail from the set day until the eve of the first day, and each eve, from 07:00', () => {
    expect(joiningMomentsDue(DAYS, at('2025-06-29T10:00:00+02:00'), 3)).toEqual([])
    expect(joiningMomentsDue(DAYS, at('2025-06-30T06:59:00+02:00'), 3)).toEqual([])
    expect(joiningMomentsDue(DAYS, at('2025-06-30T07:00:00+02:00'), 3)).toEqual(['before-event'])
    expect(joiningMomentsDue(DAYS, at('2025-07-01T15:00:00+02:00'), 3)).toEqual(['before-event'])
    expect(joiningMomentsDue(DAYS, at('2025-07-02T08:00:00+02:00'), 3)).toEqual(['eve-2025-07-03'])
    expect(joiningMomentsDue(DAYS, at('2025-07-03T08:00:00+02:00'), 3)).toEqual(['eve-2025-07-04'])
    expect(joiningMomentsDue(DAYS, at('2025-07-04T08:00:00+02:00'), 3)).toEqual([])
  })
})

describe.each(TEST_BACKENDS)('joining e-mails on %s', (backend) => {
  let testDb: TestDatabase
  let venueReference: string
  let onlineReference: string

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    ;[venueReference, onlineReference] = (await register(
      testDb.db,
      {},
      {
        attendanceOption: 'online',
        email: 'office@firm.example.com',
        delegates: [
          { name: 'Lerato Dlamini', position: 'Attorney', email: 'lerato@firm.example.com' },
          { name: 'Sipho Mokoena', position: 'Candidate attorney', email: 'sipho@firm.example.com' },
        ],
      },
    )) as [string, string]
    const row = await testDb.db.kysely.selectFrom('registrations').select(['event_id', 'event_slug']).executeTakeFirstOrThrow()
    await saveJoiningInstructions(
      testContext(testDb.db),
      { eventId: eventKeyOf(row), venueInstructions: 'Arrive from 07:30.\nParking in the basement.', meetingUrl: 'https://meet.example.com/low' },
      STAFF,
    )
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  const on = (iso: string) => ({ ...testContext(testDb.db), siteNow: () => new Date(iso), now: () => new Date(iso) })

  async function queuedJoiningMails() {
    const rows = await testDb.db.kysely
      .selectFrom('outbox_messages')
      .selectAll()
      .where('topic', '=', 'event.joining')
      .orderBy('created_at')
      .orderBy('id')
      .execute()
    return Promise.all(rows.map((row) => outgoingMailOf(testDb.db, row)))
  }

  it('sends each delegate theirs once at each moment: venue details and pass, or the personal join link', async () => {
    expect(await sendDueJoiningMails(on('2025-06-29T09:00:00+02:00'))).toBe(0)
    expect(await sendDueJoiningMails(on('2025-06-30T09:00:00+02:00'))).toBe(4)
    expect(await sendDueJoiningMails(on('2025-06-30T10:00:00+02:00'))).toBe(0)
    expect(await sendDueJoiningMails(on('2025-07-01T09:00:00+02:00'))).toBe(0)
    const mails = await queuedJoiningMails()
    expect(mails.map((mail) => mail.to)).toEqual([
      ['thandi@acme.example.com'],
      ['pieter@acme.example.com'],
      ['lerato@firm.example.com'],
      ['sipho@firm.example.com'],
    ])
    const [thandi, , lerato] = mails
    const venueRow = await testDb.db.kysely.selectFrom('registrations').select('id').where('reference', '=', venueReference).executeTakeFirstOrThrow()
    const [thandiPass] = await passesOfRegistration(testDb.db.kysely, venueRow.id)
    expect(thandi!.subject).toBe('Joining instructions: Legal Opinion Writing 2025')
    expect(thandi!.text).toContain('Dear Thandi Nkosi,')
    expect(thandi!.text).toContain('Arrive from 07:30.\nParking in the basement.')
    expect(thandi!.text).toContain(`pass ${thandiPass!.code}, https://events.example.com/test-pass/${thandiPass!.token}`)
    expect(thandi!.html).toContain(`cid:pass-${thandiPass!.code}@events`)
    expect(thandi!.attachments).toMatchObject([{ contentId: `pass-${thandiPass!.code}@events`, encoding: 'base64' }])
    expect(thandi!.text).not.toContain('test-join')
    const onlineRow = await testDb.db.kysely.selectFrom('registrations').select('id').where('reference', '=', onlineReference).executeTakeFirstOrThrow()
    const [leratoPass] = await passesOfRegistration(testDb.db.kysely, onlineRow.id)
    expect(lerato!.text).toContain(`https://events.example.com/test-join/${leratoPass!.token}`)
    expect(lerato!.text).not.toContain('Parking')
    expect(lerato!.text).not.toContain('meet.example.com')
    expect(lerato!.attachments ?? []).toEqual([])

    expect(await sendDueJoiningMails(on('2025-07-02T08:00:00+02:00'))).toBe(4)
    expect(await sendDueJoiningMails(on('2025-07-03T08:00:00+02:00'))).toBe(4)
    expect(await sendDueJoiningMails(on('2025-07-03T09:00:00+02:00'))).toBe(0)
    const eve = (await queuedJoiningMails())[4]!
    expect(eve.subject).toBe('Tomorrow, 3 July 2025: Legal Opinion Writing 2025')
    expect(await joiningMailsOf(testContext(testDb.db), onlineReference)).toEqual([
      { delegateName: 'Lerato Dlamini', ordinal: 0, moment: 'before-event', businessDay: '2025-06-30' },
      { delegateName: 'Sipho Mokoena', ordinal: 1, moment: 'before-event', businessDay: '2025-06-30' },
      { delegateName: 'Lerato Dlamini', ordinal: 0, moment: '2025-07-03', businessDay: '2025-07-02' },
      { delegateName: 'Sipho Mokoena', ordinal: 1, moment: '2025-07-03', businessDay: '2025-07-02' },
      { delegateName: 'Lerato Dlamini', ordinal: 0, moment: '2025-07-04', businessDay: '2025-07-03' },
      { delegateName: 'Sipho Mokoena', ordinal: 1, moment: '2025-07-04', businessDay: '2025-07-03' },
    ])
    const detail = await getRegistrationDetail(testContext(testDb.db), onlineReference)
    expect(detail!.emails.filter((email) => email.topic === 'event.joining')).toHaveLength(6)
  })

  it('never writes to a cancelled or erased delegate', async () => {
    const pieter = await testDb.db.kysely.selectFrom('registration_delegates').select('id').where('name', '=', 'Pieter van Wyk').executeTakeFirstOrThrow()
    await cancelRegistration(testContext(testDb.db), { reference: venueReference, delegateIds: [pieter.id] }, MANAGER)
    // Erasure leaves a registration for an event not yet started whole; a delegate erased is as it leaves them.
    await testDb.db.kysely
      .updateTable('registration_delegates')
      .set({ name: 'Anonymised', position: '', email: '' })
      .where('name', '=', 'Sipho Mokoena')
      .execute()
    expect(await joiningRecipientsOf(testContext(testDb.db), venueReference)).toEqual([{ ordinal: 0, name: 'Thandi Nkosi' }])
    expect(await joiningRecipientsOf(testContext(testDb.db), onlineReference)).toEqual([{ ordinal: 0, name: 'Lerato Dlamini' }])
    expect(await sendDueJoiningMails(on('2025-06-30T09:00:00+02:00'))).toBe(2)
    expect((await queuedJoiningMails()).map((mail) => mail.to)).toEqual([['thandi@acme.example.com'], ['lerato@firm.example.com']])
    await expect(resendJoiningMail(testContext(testDb.db), { reference: venueReference, ordinal: '1' }, STAFF)).rejects.toMatchObject({ code: 'not-found' })
    await cancelRegistration(testContext(testDb.db), { reference: onlineReference, delegateIds: 'all' }, MANAGER)
    expect(await sendDueJoiningMails(on('2025-07-02T09:00:00+02:00'))).toBe(1)
  })

  it('resends a delegate theirs at once, audited', async () => {
    expect(await resendJoiningMail(testContext(testDb.db), { reference: onlineReference, ordinal: '1' }, STAFF)).toEqual({
      reference: onlineReference,
      name: 'Sipho Mokoena',
    })
    const [mail] = await queuedJoiningMails()
    expect(mail!.to).toEqual(['sipho@firm.example.com'])
    expect(mail!.subject).toBe('Joining instructions: Legal Opinion Writing 2025')
    expect(await testAuditRows(testDb.db)).toContainEqual(
      expect.objectContaining({ action: 'joining-mail-resent', subjectId: onlineReference, actorId: STAFF.id }),
    )
    await expect(resendJoiningMail(testContext(testDb.db), { reference: 'NOPE-1', ordinal: '0' }, STAFF)).rejects.toMatchObject({ code: 'not-found' })
    await expect(resendJoiningMail(testContext(testDb.db), { reference: onlineReference, ordinal: 'x' }, STAFF)).rejects.toMatchObject({
      code: 'invalid-request',
    })
  })
})
