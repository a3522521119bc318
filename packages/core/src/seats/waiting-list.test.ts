import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANAGER, REGISTERED_AT, STAFF, testContext } from '../backoffice/fixtures.ts'
import { erasePersonalData, findPersonalData } from '../backoffice/personal-data.ts'
import { cancelRegistration } from '../cancellation/cancel.ts'
import { isValidationError } from '../errors.ts'
import { isBackOfficeError } from '../backoffice/errors.ts'
import { createRegistration } from '../registration/commands.ts'
import { fixedCatalog, openTestDatabase, registrationInput, RESILIENCE, TEST_BACKENDS, testSiteLinks, type TestDatabase } from '../test-support.ts'
import { seatsTaken } from './seats.ts'
import {
  joinWaitingList,
  offerWaitingListSeats,
  removeWaitingListEntry,
  sweepWaitingLists,
  waitingListLengths,
  waitingListOf,
  waitingListOfferOf,
} from './waiting-list.ts'

const delegate = (n: number) => ({ name: `Delegate ${n}`, position: 'Analyst', email: `delegate${n}@acme.example.com` })
const delegates = (count: number, from = 1) => Array.from({ length: count }, (_, index) => delegate(from + index))
const HOUR = 3_600_000

describe.each(TEST_BACKENDS)('the waiting list on %s', (backend) => {
  let testDb: TestDatabase
  let today: Date
  const event = { ...RESILIENCE, venueCapacity: 4, onlineCapacity: 2 }

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    today = REGISTERED_AT
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  const context = () => ({ ...testContext(testDb.db), catalog: fixedCatalog([event]), links: testSiteLinks(), siteNow: () => today })
  const register = async (overrides: Record<string, unknown>) => {
    const input = registrationInput({ event: 'Resilience', code: 'ERC2025', attendanceOption: 'venue', delegates: delegates(1), ...overrides })
    return (await createRegistration(context(), input)).receipt.reference
  }
  const join = (overrides: Record<string, unknown> = {}) =>
    joinWaitingList(context(), {
      event: 'Resilience',
      name: 'Thandi Mokoena',
      companyName: 'Acme',
      email: 'thandi@acme.example.com',
      tel: '011 555 0100',
      seats: 2,
      attendance: 'venue',
      ...overrides,
    })
  const refusalOf = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    )
    if (!isValidationError(error)) throw new Error(`Expected a refusal, got ${String(error)}`)
    return { code: error.code, issues: error.issues }
  }
  const mails = (topic: string) =>
    testDb.db.kysely.selectFrom('outbox_messages').select(['mail', 'source_id']).where('topic', '=', topic).orderBy('created_at').orderBy('id').execute()
  const tokenIn = (mail: string) => /offer=([A-Za-z0-9_-]+)/.exec(mail)?.[1] ?? ''
  const states = async () => (await waitingListOf(testDb.db.kysely, event.id)).map((entry) => `${entry.position}:${entry.state}`)

  it('takes a place only once the seats wanted are gone, validated, with an e-mail confirming the place', async () => {
    await register({ delegates: delegates(3) })
    expect(await refusalOf(join({ seats: 1 }))).toEqual({
      code: 'not-sold-out',
      issues: [{ path: 'attendance', code: 'not-sold-out', seatKind: 'venue', seatsWanted: 1, seatsLeft: 1 }],
    })
    expect((await refusalOf(join({ seats: 11, name: '' }))).issues.map((issue) => `${issue.path}:${issue.code}`)).toEqual([
      'name:required',
      'seats:invalid-seats',
    ])
    expect((await refusalOf(join({ attendance: 'hybrid' }))).issues).toEqual([{ path: 'attendance', code: 'invalid-choice' }])
    expect(await waitingListOf(testDb.db.kysely, event.id)).toEqual([])

    expect(await join({ seats: 2 })).toMatchObject({ position: 1 })
    await register({ delegates: delegates(1, 4) })
    expect(await join({ seats: 1, email: 'second@acme.example.com' })).toMatchObject({ position: 2 })
    const [place] = await mails('waiting-list.place')
    expect(place!.mail).toContain('You are number 1 on the waiting list for Economic Resilience Conference 2025.')
    expect(await waitingListLengths(testDb.db.kysely, [event.id])).toEqual(new Map([[event.id, 2]]))
  })

  it('offers freed seats to the first entries that fit, holds them from everyone else, and registers through the offer', async () => {
    const first = await register({ delegates: delegates(3) })
    await register({ delegates: delegates(1, 4) })
    await join({ seats: 2 })
    await join({ seats: 1, email: 'second@acme.example.com' })
    await join({ seats: 1, email: 'third@acme.example.com' })

    // One seat freed: the first entry wants two, so the second (one seat) is offered it.
    const delegateIds = await testDb.db.kysely
      .selectFrom('registration_delegates')
      .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
      .select('registration_delegates.id')
      .where('registrations.reference', '=', first)
      .orderBy('ordinal')
      .execute()
    await cancelRegistration(context(), { reference: first, delegateIds: [delegateIds[2]!.id] }, MANAGER)
    expect(await states()).toEqual(['1:waiting', '2:offered', '3:waiting'])
    expect(await seatsTaken(testDb.db.kysely, event.id)).toEqual({ venue: 4, online: 0 })
    expect((await refusalOf(register({ delegates: delegates(1, 9) }))).code).toBe('sold-out')

    const [offer] = await mails('waiting-list.offer')
    expect(offer!.mail).toContain('1 seat at the venue of Economic Resilience Conference 2025 are held for you until')
    const token = tokenIn(offer!.mail)
    expect(await waitingListOfferOf(context(), token)).toMatchObject({ status: 'held', seats: 1, attendance: 'venue', email: 'second@acme.example.com' })

    // Through the offer link the held seat is theirs, even though the event is sold out for everyone else.
    await register({ offer: token, delegates: delegates(1, 10) })
    expect(await states()).toEqual(['1:waiting', '2:registered', '3:waiting'])
    expect(await seatsTaken(testDb.db.kysely, event.id)).toEqual({ venue: 4, online: 0 })
    expect(await refusalOf(register({ offer: token, delegates: delegates(1, 11) }))).toEqual({
      code: 'offer-used',
      issues: [{ path: 'offer', code: 'offer-used' }],
    })

    // Two seats freed at once: the first entry's turn comes. Registering one delegate through its offer of two, the
    // other held seat goes to the next entry at once.
    await cancelRegistration(context(), { reference: first, delegateIds: 'all' }, MANAGER)
    expect(await states()).toEqual(['1:offered', '2:registered', '3:waiting'])
    const [, secondOffer] = await mails('waiting-list.offer')
    await register({ offer: tokenIn(secondOffer!.mail), delegates: delegates(1, 12) })
    expect(await states()).toEqual(['1:registered', '2:registered', '3:offered'])
    expect(await seatsTaken(testDb.db.kysely, event.id)).toEqual({ venue: 4, online: 0 })
  })

  it('lets one registration through an offer, however many arrive at once', async () => {
    const first = await register({ delegates: delegates(4) })
    await join({ seats: 2 })
    await cancelRegistration(context(), { reference: first, delegateIds: 'all' }, MANAGER)
    const [offer] = await mails('waiting-list.offer')
    const token = tokenIn(offer!.mail)
    const attempts = await Promise.allSettled(Array.from({ length: 5 }, (_, index) => register({ offer: token, delegates: delegates(2, 10 + index * 2) })))
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1)
    const refusals = attempts.flatMap((attempt) => (attempt.status === 'rejected' && isValidationError(attempt.reason) ? [attempt.reason.code] : []))
    expect(refusals).toEqual(['offer-used', 'offer-used', 'offer-used', 'offer-used'])
    expect(await seatsTaken(testDb.db.kysely, event.id)).toEqual({ venue: 2, online: 0 })
  })

  it('lets a lapsed offer go by the business clock, to the next entry that fits', async () => {
    const first = await register({ delegates: delegates(4) })
    await join({ seats: 2 })
    await join({ seats: 2, email: 'second@acme.example.com' })
    await cancelRegistration(context(), { reference: first, delegateIds: 'all' }, MANAGER)
    // Four seats freed: both entries fit.
    expect(await states()).toEqual(['1:offered', '2:offered'])
    const [firstOffer] = await mails('waiting-list.offer')
    const token = tokenIn(firstOffer!.mail)
    await join({ seats: 2, email: 'third@acme.example.com' })

    today = new Date(REGISTERED_AT.getTime() + 47 * HOUR)
    expect(await sweepWaitingLists(context())).toBe(0)
    today = new Date(REGISTERED_AT.getTime() + 48 * HOUR)
    expect(await sweepWaitingLists(context())).toBe(3)
    expect(await states()).toEqual(['1:expired', '2:expired', '3:offered'])
    expect((await mails('waiting-list.expired')).map((mail) => mail.mail)).toEqual([
      expect.stringContaining('were not registered for in time'),
      expect.any(String),
    ])
    expect(await waitingListOfferOf(context(), token)).toEqual({ status: 'expired' })
    expect((await refusalOf(register({ offer: token, delegates: delegates(2, 20) }))).code).toBe('offer-expired')
    expect(await seatsTaken(testDb.db.kysely, event.id)).toEqual({ venue: 2, online: 0 })
  })

  it('is in a data request for the address, and its erasure anonymises the entry and frees the seats its offer held', async () => {
    const first = await register({ delegates: delegates(4) })
    await join({ seats: 2 })
    await join({ seats: 2, email: 'second@acme.example.com' })
    await cancelRegistration(
      context(),
      {
        reference: first,
        delegateIds: [(await testDb.db.kysely.selectFrom('registration_delegates').select('id').orderBy('ordinal').executeTakeFirstOrThrow()).id],
      },
      MANAGER,
    )
    await cancelRegistration(context(), { reference: first, delegateIds: 'all' }, MANAGER)
    expect(await states()).toEqual(['1:offered', '2:offered'])
    const staffContext = { ...context(), audit: testContext(testDb.db).audit }
    expect((await findPersonalData(staffContext, 'THANDI@acme.example.com')).waitingList).toEqual([
      expect.objectContaining({
        event: 'Economic Resilience Conference 2025',
        position: 1,
        name: 'Thandi Mokoena',
        seats: 2,
        attendance: 'venue',
        state: 'offered',
      }),
    ])
    const erased = await erasePersonalData(staffContext, { email: 'thandi@acme.example.com', confirm: true }, MANAGER)
    expect(erased).toMatchObject({ waitingListEntriesAnonymised: 1, emailsDeleted: 2 })
    expect(await testDb.db.kysely.selectFrom('waiting_list_entries').select(['name', 'email', 'tel', 'state']).where('position', '=', 1).execute()).toEqual([
      { name: '[anonymised]', email: '', tel: '', state: 'removed' },
    ])
    expect(await seatsTaken(testDb.db.kysely, event.id)).toEqual({ venue: 2, online: 0 })
    expect((await findPersonalData(staffContext, 'thandi@acme.example.com')).waitingList).toEqual([])
  })

  it('lets staff offer seats by hand when they are free, and remove an entry, its held seats going to the next', async () => {
    const first = await register({ delegates: delegates(4) })
    await join({ seats: 3 })
    await join({ seats: 3, email: 'second@acme.example.com' })
    const [one, two] = await waitingListOf(testDb.db.kysely, event.id)
    const staffContext = { ...context(), audit: testContext(testDb.db).audit }
    const refused = await offerWaitingListSeats(staffContext, { entryId: one!.id }, STAFF).catch((error: unknown) => error)
    expect(isBackOfficeError(refused) && refused.code).toBe('not-enough-seats')

    await cancelRegistration(staffContext, { reference: first, delegateIds: 'all' }, MANAGER)
    expect(await states()).toEqual(['1:offered', '2:waiting'])
    await removeWaitingListEntry(staffContext, { entryId: one!.id }, STAFF)
    expect(await states()).toEqual(['1:removed', '2:offered'])
    const again = await offerWaitingListSeats(staffContext, { entryId: two!.id }, STAFF).catch((error: unknown) => error)
    expect(isBackOfficeError(again) && again.code).toBe('entry-closed')
    const changes = await testDb.db.kysely
      .selectFrom('waiting_list_changes')
      .select(['action', 'actor_name'])
      .where('entry_id', '=', one!.id)
      .orderBy('action')
      .execute()
    expect(changes).toEqual([
      { action: 'joined', actor_name: null },
      { action: 'offered', actor_name: null },
      { action: 'removed', actor_name: STAFF.name },
    ])
  })
})
