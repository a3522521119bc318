import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANAGER, register, STAFF, testContext } from '../backoffice/fixtures.ts'
import { cancelRegistration } from '../cancellation/cancel.ts'
import { eventKeyOf } from '../registration/event-ids.ts'
import { TEST_BACKENDS, openTestDatabase, testAuditRows, type TestDatabase } from '../test-support.ts'
import { checkInScreen } from './check-in.ts'
import { joiningScreen, joinMeeting, joinPage, saveJoiningInstructions } from './joining.ts'
import { passesOfRegistration } from './passes.ts'

// Legal Opinion Writing runs on 3 and 4 July 2025 in the tests' catalogue.
const DAY_ONE = '2025-07-03'
const DAY_TWO = '2025-07-04'
const MEETING = 'https://meet.example.com/legal-opinion'
const DAY_TWO_MEETING = 'https://meet.example.com/legal-opinion-day-2'

describe.each(TEST_BACKENDS)('joining instructions and personal join links on %s', (backend) => {
  let testDb: TestDatabase
  let eventId: string
  let reference: string
  let tokens: string[]

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    ;[reference] = (await register(testDb.db, { attendanceOption: 'online' })) as [string]
    const row = await testDb.db.kysely.selectFrom('registrations').select(['id', 'event_id', 'event_slug']).executeTakeFirstOrThrow()
    eventId = eventKeyOf(row)
    tokens = (await passesOfRegistration(testDb.db.kysely, row.id)).map((pass) => pass.token)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  /** The site on a given moment of its business clock. */
  const on = (iso: string) => ({ ...testContext(testDb.db), siteNow: () => new Date(iso), now: () => new Date(iso) })

  it('saves the instructions with the days whose link differs, audited, and refuses a link that is not https', async () => {
    await expect(
      saveJoiningInstructions(testContext(testDb.db), { eventId, venueInstructions: '', meetingUrl: 'http://meet.example.com/x' }, STAFF),
    ).rejects.toMatchObject({
      code: 'invalid-meeting-link',
      field: 'meetingUrl',
    })
    await expect(
      saveJoiningInstructions(testContext(testDb.db), { eventId, meetingUrl: MEETING, dayMeetingUrls: { '2025-07-09': MEETING } }, STAFF),
    ).rejects.toMatchObject({ code: 'not-an-event-day' })
    expect((await joiningScreen(testContext(testDb.db), eventId))!.instructions).toEqual({ venueInstructions: '', meetingUrl: '', dayMeetingUrls: {} })

    const venueInstructions = 'Arrive from 07:30.\nParking in the hotel’s basement; the workshop starts at 08:30.'
    await saveJoiningInstructions(
      testContext(testDb.db),
      { eventId, venueInstructions, meetingUrl: MEETING, dayMeetingUrls: { [DAY_ONE]: '', [DAY_TWO]: DAY_TWO_MEETING } },
      STAFF,
    )
    const screen = await joiningScreen(testContext(testDb.db), eventId)
    expect(screen!.days).toEqual([DAY_ONE, DAY_TWO])
    expect(screen!.instructions).toMatchObject({
      venueInstructions,
      meetingUrl: MEETING,
      dayMeetingUrls: { [DAY_TWO]: DAY_TWO_MEETING },
      updatedByName: STAFF.name,
    })
    expect(await testAuditRows(testDb.db)).toEqual([
      expect.objectContaining({
        action: 'joining-instructions-saved',
        subjectId: eventId,
        after: { venueInstructions, meetingUrl: MEETING, dayMeetingUrls: { [DAY_TWO]: DAY_TWO_MEETING } },
      }),
    ])
  })

  it('records online attendance once a day through the personal link and sends the delegate to that day’s meeting', async () => {
    const dayOneMorning = on('2025-07-03T06:55:00Z')
    expect(await joinMeeting(dayOneMorning, tokens[0]!)).toEqual({ meetingUrl: '' })
    await saveJoiningInstructions(testContext(testDb.db), { eventId, meetingUrl: MEETING, dayMeetingUrls: { [DAY_TWO]: DAY_TWO_MEETING } }, STAFF)

    expect(await joinPage(on('2025-06-30T08:00:00Z'), tokens[0]!)).toMatchObject({ name: 'Thandi Nkosi', today: undefined, meetingReady: true })
    // Before the event the link opens the meeting (to try it) but records nothing.
    expect(await joinMeeting(on('2025-06-30T08:00:00Z'), tokens[0]!)).toEqual({ meetingUrl: MEETING })
    expect(await joinMeeting(dayOneMorning, tokens[0]!)).toEqual({ meetingUrl: MEETING, recordedDay: DAY_ONE })
    expect(await joinMeeting(on('2025-07-03T09:30:00Z'), tokens[0]!)).toEqual({ meetingUrl: MEETING, recordedDay: DAY_ONE })
    expect(await joinMeeting(on('2025-07-04T07:00:00Z'), tokens[1]!)).toEqual({ meetingUrl: DAY_TWO_MEETING, recordedDay: DAY_TWO })
    const attendance = await testDb.db.kysely.selectFrom('online_attendance').select(['event_day', 'joined_at']).orderBy('event_day').execute()
    expect(attendance).toEqual([
      { event_day: DAY_ONE, joined_at: '2025-07-03T06:55:00.000Z' },
      { event_day: DAY_TWO, joined_at: '2025-07-04T07:00:00.000Z' },
    ])
    expect((await joiningScreen(testContext(testDb.db), eventId))!.joinedOnline).toEqual({ [DAY_ONE]: 1, [DAY_TWO]: 1 })
    // The door's screen of the day says who joined online, and when.
    const door = await checkInScreen(testContext(testDb.db), eventId, { day: DAY_ONE })
    expect(door!.delegates.map((delegate) => [delegate.name, delegate.joinedOnlineAt])).toEqual([
      ['Pieter van Wyk', undefined],
      ['Thandi Nkosi', '2025-07-03T06:55:00.000Z'],
    ])
  })

  it('knows no link of a cancelled registration, or an unknown one', async () => {
    await cancelRegistration(testContext(testDb.db), { reference, delegateIds: 'all' }, MANAGER)
    expect(await joinPage(on('2025-07-03T07:00:00Z'), tokens[0]!)).toBeUndefined()
    expect(await joinMeeting(on('2025-07-03T07:00:00Z'), tokens[0]!)).toBeUndefined()
    expect(await joinMeeting(on('2025-07-03T07:00:00Z'), 'not-a-token')).toBeUndefined()
  })
})
