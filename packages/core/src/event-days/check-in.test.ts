import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANAGER, register, STAFF, testContext } from '../backoffice/fixtures.ts'
import { cancelRegistration } from '../cancellation/cancel.ts'
import { eventKeyOf } from '../registration/event-ids.ts'
import { TEST_BACKENDS, openTestDatabase, testAuditRows, TEST_MANAGER, type TestDatabase } from '../test-support.ts'
import { CHECK_IN_PAGE_SIZE, checkInDelegate, checkInScreen, doorList, recordDeparture, undoCheckIn } from './check-in.ts'
import { normalisePassCode } from './pass-codes.ts'
import { passesOfRegistration } from './passes.ts'

// Legal Opinion Writing runs on 3 and 4 July 2025 in the tests' catalogue.
const DAY_ONE = '2025-07-03'
const DAY_TWO = '2025-07-04'
const AT_THE_DOOR = new Date('2025-07-03T06:12:00Z')

describe.each(TEST_BACKENDS)('check-in at the door on %s', (backend) => {
  let testDb: TestDatabase
  let eventId: string
  let codes: string[]
  let onlineReference: string

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    ;[, onlineReference] = (await register(
      testDb.db,
      {},
      {
        attendanceOption: 'online',
        companyName: 'Müller & Partners',
        delegates: [{ name: 'Sipho Dlamini', position: 'Director', email: 'sipho@muller.example.com' }],
      },
    )) as [string, string]
    const rows = await testDb.db.kysely.selectFrom('registrations').select(['id', 'event_id', 'event_slug', 'reference']).orderBy('created_at').execute()
    eventId = eventKeyOf(rows[0]!)
    codes = (await passesOfRegistration(testDb.db.kysely, rows[0]!.id)).map((pass) => pass.code)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  // The business clock decides the day the door records; the wall clock, the moment of the scan.
  const at = (moment: Date) => ({ ...testContext(testDb.db, () => moment), siteNow: () => moment })
  const door = () => at(AT_THE_DOOR)
  const ON_DAY_TWO = new Date('2025-07-04T06:12:00Z')

  it('checks a delegate in by pass code, refuses the second scan with who and when, and counts the venue', async () => {
    const screen = await checkInScreen(door(), eventId, { day: DAY_ONE })
    expect(screen!.days).toEqual([DAY_ONE, DAY_TWO])
    expect(screen!.counts).toEqual({ checkedIn: 0, expected: 2 })
    expect(screen!.delegates.map((delegate) => [delegate.name, delegate.online, delegate.unpaid])).toEqual([
      ['Pieter van Wyk', false, true],
      ['Sipho Dlamini', true, true],
      ['Thandi Nkosi', false, true],
    ])

    const outcome = await checkInDelegate(door(), { eventId, day: DAY_ONE, code: codes[0]!.toLowerCase().replace('-', ' ') }, STAFF)
    expect(outcome.delegate).toMatchObject({
      name: 'Thandi Nkosi',
      company: 'Acme Legal Services',
      unpaid: true,
      checkedIn: { at: AT_THE_DOOR.toISOString(), byName: STAFF.name },
    })
    expect(outcome.counts).toEqual({ checkedIn: 1, expected: 2 })

    await expect(checkInDelegate(door(), { eventId, day: DAY_ONE, code: codes[0] }, TEST_MANAGER)).rejects.toMatchObject({
      code: 'already-checked-in',
      details: { name: 'Thandi Nkosi', at: AT_THE_DOOR.toISOString(), byName: STAFF.name },
    })
    // Each day is a check-in of its own.
    expect((await checkInDelegate(at(ON_DAY_TWO), { eventId, day: DAY_TWO, code: codes[0] }, STAFF)).counts).toEqual({ checkedIn: 1, expected: 2 })
    expect(await testAuditRows(testDb.db)).toEqual([
      expect.objectContaining({ action: 'delegate-checked-in', after: { delegate: 'Thandi Nkosi', day: DAY_ONE, at: AT_THE_DOOR.toISOString() } }),
      expect.objectContaining({ action: 'delegate-checked-in', after: { delegate: 'Thandi Nkosi', day: DAY_TWO, at: ON_DAY_TWO.toISOString() } }),
    ])
  })

  it('records a check-in once when two devices scan the same pass at the same moment', async () => {
    const other = { ...testContext(await testDb.openAnother(), () => AT_THE_DOOR), siteNow: () => AT_THE_DOOR }
    const results = await Promise.allSettled([
      checkInDelegate(door(), { eventId, day: DAY_ONE, code: codes[1] }, STAFF),
      checkInDelegate(other, { eventId, day: DAY_ONE, code: codes[1] }, MANAGER),
    ])
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: { code: 'already-checked-in' } })
    expect((await checkInScreen(door(), eventId, { day: DAY_ONE }))!.counts.checkedIn).toBe(1)
  })

  it('finds delegates by name, company or reference, accents and case aside, and by pass code', async () => {
    const names = async (search: string) => (await checkInScreen(door(), eventId, { day: DAY_ONE, search }))!.delegates.map((delegate) => delegate.name)
    expect(await names('thandi')).toEqual(['Thandi Nkosi'])
    expect(await names('MULLER')).toEqual(['Sipho Dlamini'])
    expect(await names(onlineReference.toLowerCase())).toEqual(['Sipho Dlamini'])
    expect(await names('acme van')).toEqual(['Pieter van Wyk'])
    expect(await names(codes[1]!)).toEqual(['Pieter van Wyk'])
    expect(await names('nobody')).toEqual([])
  })

  it('undoes a check-in, then lets the delegate be checked in again', async () => {
    const { delegate } = await checkInDelegate(door(), { eventId, day: DAY_ONE, code: codes[0] }, STAFF)
    const undone = await undoCheckIn(door(), { eventId, day: DAY_ONE, delegateId: delegate.delegateId }, STAFF)
    expect(undone.delegate.checkedIn).toBeUndefined()
    expect(undone.counts).toEqual({ checkedIn: 0, expected: 2 })
    await expect(undoCheckIn(door(), { eventId, day: DAY_ONE, delegateId: delegate.delegateId }, STAFF)).rejects.toMatchObject({ code: 'not-checked-in' })
    expect((await checkInDelegate(door(), { eventId, day: DAY_ONE, delegateId: delegate.delegateId }, STAFF)).counts.checkedIn).toBe(1)
  })

  it('keeps the moment a queued scan was made, within the day', async () => {
    const scannedAt = new Date(AT_THE_DOOR.getTime() - 10 * 60_000).toISOString()
    const outcome = await checkInDelegate(door(), { eventId, day: DAY_ONE, code: codes[0], scannedAt }, STAFF)
    expect(outcome.delegate.checkedIn!.at).toBe(scannedAt)
    const future = new Date(AT_THE_DOOR.getTime() + 60_000).toISOString()
    expect((await checkInDelegate(door(), { eventId, day: DAY_ONE, code: codes[1], scannedAt: future }, STAFF)).delegate.checkedIn!.at).toBe(
      AT_THE_DOOR.toISOString(),
    )
  })

  it('refuses an unknown or malformed code, another event’s day, and a cancelled delegate, changing nothing', async () => {
    await expect(checkInDelegate(door(), { eventId, day: DAY_ONE, code: 'ZZZZ-ZZZZ' }, STAFF)).rejects.toMatchObject({ code: 'unknown-pass', field: 'code' })
    await expect(checkInDelegate(door(), { eventId, day: DAY_ONE, code: 'hello' }, STAFF)).rejects.toMatchObject({ code: 'unknown-pass', field: 'code' })
    await expect(checkInDelegate(door(), { eventId, day: '2025-07-05', code: codes[0] }, STAFF)).rejects.toMatchObject({ code: 'not-an-event-day' })
    await cancelRegistration(
      testContext(testDb.db),
      {
        reference: (await testDb.db.kysely.selectFrom('registrations').select('reference').orderBy('created_at').executeTakeFirstOrThrow()).reference,
        delegateIds: 'all',
      },
      MANAGER,
    )
    await expect(checkInDelegate(door(), { eventId, day: DAY_ONE, code: codes[0] }, STAFF)).rejects.toMatchObject({
      code: 'pass-cancelled',
      details: { name: 'Thandi Nkosi' },
    })
    const screen = await checkInScreen(door(), eventId, { day: DAY_ONE })
    expect(screen!.counts).toEqual({ checkedIn: 0, expected: 0 })
    expect(screen!.delegates.map((delegate) => delegate.name)).toEqual(['Sipho Dlamini'])
  })

  it('lists every pass of the event for the door to judge offline: whose, paid or not, cancelled, in today', async () => {
    await checkInDelegate(door(), { eventId, day: DAY_ONE, code: codes[1]! }, STAFF)
    const { reference } = await testDb.db.kysely.selectFrom('registrations').select('reference').orderBy('created_at').executeTakeFirstOrThrow()
    await cancelRegistration(testContext(testDb.db), { reference, delegateIds: 'all' }, MANAGER)
    const list = await doorList(testDb.db.kysely, eventId, DAY_ONE)
    expect(list).toEqual(
      expect.arrayContaining([
        { code: normalisePassCode(codes[0]!), name: 'Thandi Nkosi', unpaid: true, cancelled: true, checkedIn: false },
        { code: normalisePassCode(codes[1]!), name: 'Pieter van Wyk', unpaid: true, cancelled: true, checkedIn: true },
      ]),
    )
    expect(list.find((entry) => entry.name === 'Sipho Dlamini')).toMatchObject({ cancelled: false, checkedIn: false })
    expect((await doorList(testDb.db.kysely, eventId, DAY_TWO)).filter((entry) => entry.checkedIn)).toEqual([])
  })

  it('records a departure once, for a delegate checked in that day, audited', async () => {
    const thandi = (await checkInDelegate(door(), { eventId, day: DAY_ONE, code: codes[0]! }, STAFF)).delegate
    const pieter = (await checkInScreen(door(), eventId, { day: DAY_ONE, search: 'Pieter' }))!.delegates[0]!
    await expect(recordDeparture(door(), { eventId, day: DAY_ONE, delegateId: pieter.delegateId }, STAFF)).rejects.toMatchObject({
      code: 'left-without-check-in',
      details: { name: 'Pieter van Wyk' },
    })
    const atTea = at(new Date('2025-07-03T08:40:00Z'))
    const outcome = await recordDeparture(atTea, { eventId, day: DAY_ONE, delegateId: thandi.delegateId }, STAFF)
    expect(outcome.delegate.left).toEqual({ at: '2025-07-03T08:40:00.000Z', byName: STAFF.name })
    await expect(recordDeparture(door(), { eventId, day: DAY_ONE, delegateId: thandi.delegateId }, STAFF)).rejects.toMatchObject({
      code: 'already-left',
      details: { name: 'Thandi Nkosi', at: '2025-07-03T08:40:00.000Z', byName: STAFF.name },
    })
    await expect(recordDeparture(at(ON_DAY_TWO), { eventId, day: DAY_ONE, delegateId: pieter.delegateId }, STAFF)).rejects.toMatchObject({ code: 'not-today' })
    expect((await checkInScreen(door(), eventId, { day: DAY_ONE, search: 'Thandi' }))!.delegates[0]!.left).toEqual(outcome.delegate.left)
    expect((await testAuditRows(testDb.db)).map((row) => row.action)).toEqual(['delegate-checked-in', 'delegate-left-early'])
  })

  it('lists one page of delegates at a time, however many match', async () => {
    const many = Array.from({ length: CHECK_IN_PAGE_SIZE + 3 }, (_, index) => ({
      name: `Delegate ${String(index).padStart(2, '0')}`,
      position: 'Attorney',
      email: `d${index}@page.example.com`,
    }))
    await register(testDb.db, {}, { delegates: many })
    const first = await checkInScreen(door(), eventId, { day: DAY_ONE })
    expect([first!.delegates.length, first!.matching, first!.page, first!.pages]).toEqual([CHECK_IN_PAGE_SIZE, CHECK_IN_PAGE_SIZE + 6, 1, 2])
    const second = await checkInScreen(door(), eventId, { day: DAY_ONE, page: 2 })
    expect(second!.delegates.map((delegate) => delegate.name)).toEqual([
      'Delegate 25',
      'Delegate 26',
      'Delegate 27',
      'Pieter van Wyk',
      'Sipho Dlamini',
      'Thandi Nkosi',
    ])
    expect((await checkInScreen(door(), eventId, { day: DAY_ONE, page: 99 }))!.page).toBe(2)
    expect((await checkInScreen(door(), eventId, { day: DAY_ONE, search: 'Delegate 27' }))!.delegates.map((delegate) => delegate.name)).toEqual(['Delegate 27'])
  })

  it.each([
    // A screen opened on day one posts day one on the morning of day two: refused with today, nothing recorded.
    ['yesterday’s day from a screen left open', STAFF, ON_DAY_TWO, DAY_ONE, '', 'not-today'],
    // The second day posted on the first is never recorded early, not even by a manager.
    ['the second day on the first', MANAGER, AT_THE_DOOR, DAY_TWO, 'typed ahead', 'not-today'],
    ['a day before the event starts', MANAGER, new Date('2025-07-02T08:00:00Z'), DAY_ONE, 'early', 'event-not-started'],
    ['a day after the event, by staff', STAFF, new Date('2025-07-05T08:00:00Z'), DAY_TWO, 'late', 'event-over'],
    ['a past day by a manager without a reason', MANAGER, ON_DAY_TWO, DAY_ONE, '', 'past-day-reason-required'],
    ['a day not of the event', MANAGER, AT_THE_DOOR, '2025-07-05', 'reason', 'not-an-event-day'],
  ] as const)('refuses %s, naming the days and changing nothing', async (_case, actor, moment, day, reason, code) => {
    await expect(checkInDelegate(at(moment), { eventId, day, code: codes[0], reason }, actor)).rejects.toMatchObject({
      code,
      field: code === 'past-day-reason-required' ? 'reason' : 'day',
      details: expect.objectContaining({ day, firstDay: DAY_ONE, lastDay: DAY_TWO, title: expect.any(String) }),
    })
    expect(await testDb.db.kysely.selectFrom('check_ins').selectAll().execute()).toEqual([])
    expect(await testAuditRows(testDb.db)).toEqual([])
  })

  it('lets a manager record a past day afterwards with a reason, audited with it, and no one undo a past day without one', async () => {
    const afterTheEvent = at(new Date('2025-07-07T10:00:00Z'))
    const outcome = await checkInDelegate(afterTheEvent, { eventId, day: DAY_ONE, code: codes[0], reason: 'Signed the paper register' }, MANAGER)
    expect(outcome.delegate.checkedIn).toEqual({ at: '2025-07-07T10:00:00.000Z', byName: MANAGER.name })
    expect(await testAuditRows(testDb.db)).toEqual([
      expect.objectContaining({
        action: 'delegate-checked-in',
        after: { delegate: 'Thandi Nkosi', day: DAY_ONE, at: '2025-07-07T10:00:00.000Z', reason: 'Signed the paper register' },
      }),
    ])
    await expect(undoCheckIn(afterTheEvent, { eventId, day: DAY_ONE, delegateId: outcome.delegate.delegateId }, STAFF)).rejects.toMatchObject({
      code: 'event-over',
    })
    await expect(undoCheckIn(afterTheEvent, { eventId, day: DAY_ONE, delegateId: outcome.delegate.delegateId }, MANAGER)).rejects.toMatchObject({
      code: 'past-day-reason-required',
    })
  })

  it('answers a replayed scan (its answer lost) as checked in once, and a new scan of the same pass as already checked in', async () => {
    const first = await checkInDelegate(door(), { eventId, day: DAY_ONE, code: codes[0], scanId: 'scan-1' }, STAFF)
    const replay = await checkInDelegate(door(), { eventId, day: DAY_ONE, code: codes[0], scanId: 'scan-1' }, STAFF)
    expect(replay).toEqual(first)
    await expect(checkInDelegate(door(), { eventId, day: DAY_ONE, code: codes[0], scanId: 'scan-2' }, STAFF)).rejects.toMatchObject({
      code: 'already-checked-in',
    })
    await expect(checkInDelegate(door(), { eventId, day: DAY_ONE, code: codes[0] }, STAFF)).rejects.toMatchObject({ code: 'already-checked-in' })
    expect(await testDb.db.kysely.selectFrom('check_ins').select('scan_id').execute()).toEqual([{ scan_id: 'scan-1' }])
    expect((await testAuditRows(testDb.db)).map((row) => row.action)).toEqual(['delegate-checked-in'])
  })

  it('refuses another event’s pass naming the delegate and that event', async () => {
    await register(testDb.db, {
      event: 'Resilience',
      code: 'ERC2025',
      delegates: [{ name: 'Lerato Dube', position: 'Economist', email: 'lerato@acme.example.com' }],
    })
    const other = await testDb.db.kysely
      .selectFrom('delegate_passes')
      .innerJoin('registration_delegates', 'registration_delegates.id', 'delegate_passes.delegate_id')
      .select('delegate_passes.code')
      .where('registration_delegates.name', '=', 'Lerato Dube')
      .executeTakeFirstOrThrow()
    await expect(checkInDelegate(door(), { eventId, day: DAY_ONE, code: other.code }, STAFF)).rejects.toMatchObject({
      code: 'pass-of-another-event',
      field: 'code',
      details: { name: 'Lerato Dube', title: 'Economic Resilience Conference 2025' },
    })
    expect(await testDb.db.kysely.selectFrom('check_ins').selectAll().execute()).toEqual([])
  })
})
