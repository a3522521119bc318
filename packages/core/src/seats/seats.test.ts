import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { changeDelegate } from '../backoffice/registration-changes.ts'
import { MANAGER, REGISTERED_AT, STAFF, testContext } from '../backoffice/fixtures.ts'
import { cancelRegistration } from '../cancellation/cancel.ts'
import { isValidationError } from '../errors.ts'
import { createRegistration } from '../registration/commands.ts'
import { fixedCatalog, openTestDatabase, registrationInput, RESILIENCE, TEST_BACKENDS, testSiteLinks, type TestDatabase } from '../test-support.ts'
import { seatKindOf, seatsLeftOf, seatsTaken } from './seats.ts'

const delegate = (n: number) => ({ name: `Delegate ${n}`, position: 'Analyst', email: `delegate${n}@acme.example.com` })
const delegates = (count: number, from = 1) => Array.from({ length: count }, (_, index) => delegate(from + index))

describe('seat counting rules', () => {
  it('seats venue, early-bird and table delegates in the room and online delegates online', () => {
    expect(['venue', 'early-bird', 'table-5', 'table-10', 'online'].map(seatKindOf)).toEqual(['venue', 'venue', 'venue', 'venue', 'online'])
  })

  it('leaves no limit where the event sets none and never counts below zero', () => {
    expect(seatsLeftOf({ venueCapacity: 20 }, { venue: 18, online: 40 })).toEqual({ venue: 2, online: null })
    expect(seatsLeftOf({ venueCapacity: 20, onlineCapacity: 5 }, { venue: 22, online: 5 })).toEqual({ venue: 0, online: 0 })
    expect(seatsLeftOf({}, { venue: 3, online: 3 })).toEqual({ venue: null, online: null })
  })
})

describe.each(TEST_BACKENDS)('seats on %s', (backend) => {
  let testDb: TestDatabase
  const event = { ...RESILIENCE, venueCapacity: 12, onlineCapacity: 3 }

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  const register = async (overrides: Record<string, unknown>) => {
    const context = { db: testDb.db, catalog: fixedCatalog([event]), links: testSiteLinks(), siteNow: () => REGISTERED_AT }
    const input = registrationInput({ event: 'Resilience', code: 'ERC2025', attendanceOption: 'venue', delegates: delegates(1), ...overrides })
    return (await createRegistration(context, input)).receipt.reference
  }
  const refusal = async (overrides: Record<string, unknown>) => {
    const error = await register(overrides).then(
      () => undefined,
      (caught: unknown) => caught,
    )
    if (!isValidationError(error)) throw new Error(`Expected a refusal, got ${String(error)}`)
    return { code: error.code, issues: error.issues }
  }
  const taken = () => seatsTaken(testDb.db.kysely, event.id)
  const staffContext = () => ({ ...testContext(testDb.db), catalog: fixedCatalog([event]) })

  it('takes a seat per delegate listed on a table, and an online place per online delegate, paid or not', async () => {
    await register({ attendanceOption: 'table-5', delegates: delegates(4) })
    await register({ attendanceOption: 'early-bird', delegates: delegates(2, 5) })
    await register({ attendanceOption: 'online', delegates: delegates(2, 7) })
    expect(await taken()).toEqual({ venue: 6, online: 2 })
  })

  it('refuses a registration asking for more seats than are left, whole, saying how many are left', async () => {
    await register({ attendanceOption: 'table-10', delegates: delegates(10) })
    const before = await testDb.db.kysely.selectFrom('registrations').select('id').execute()
    expect(await refusal({ delegates: delegates(3, 11) })).toEqual({
      code: 'sold-out',
      issues: [{ path: 'attendanceOption', code: 'sold-out', seatsLeft: 2, seatKind: 'venue', seatsWanted: 3 }],
    })
    expect(await testDb.db.kysely.selectFrom('registrations').select('id').execute()).toEqual(before)
    expect(await testDb.db.kysely.selectFrom('submission_keys').select('key').execute()).toHaveLength(1)
    // The room is full, yet online places remain.
    await register({ delegates: delegates(2, 11) })
    expect((await refusal({ delegates: delegates(1, 13) })).issues[0]).toMatchObject({ seatsLeft: 0, seatKind: 'venue' })
    await register({ attendanceOption: 'online', delegates: delegates(3, 13) })
    expect((await refusal({ attendanceOption: 'online', delegates: delegates(1, 16) })).issues[0]).toMatchObject({ seatsLeft: 0, seatKind: 'online' })
  })

  it('gives seats back when a delegate or a registration is cancelled, and keeps them on a substitution', async () => {
    const reference = await register({ delegates: delegates(3) })
    await register({ attendanceOption: 'online', delegates: delegates(2, 4) })
    expect(await taken()).toEqual({ venue: 3, online: 2 })

    await changeDelegate(staffContext(), { reference, delegate: 1, name: 'Someone Else', position: 'Director', email: 'someone@acme.example.com' }, STAFF)
    expect(await taken()).toEqual({ venue: 3, online: 2 })

    const second = await testDb.db.kysely
      .selectFrom('registration_delegates')
      .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
      .select('registration_delegates.id')
      .where('registrations.reference', '=', reference)
      .where('ordinal', '=', 1)
      .executeTakeFirstOrThrow()
    await cancelRegistration(staffContext(), { reference, delegateIds: [second.id] }, MANAGER)
    expect(await taken()).toEqual({ venue: 2, online: 2 })

    await cancelRegistration(staffContext(), { reference, delegateIds: 'all' }, MANAGER)
    expect(await taken()).toEqual({ venue: 0, online: 2 })
  })

  it('takes no turn and sets no limit for an event without capacities', async () => {
    const context = { db: testDb.db, catalog: fixedCatalog([RESILIENCE]), links: testSiteLinks(), siteNow: () => REGISTERED_AT }
    await createRegistration(context, registrationInput({ event: 'Resilience', code: 'ERC2025', attendanceOption: 'table-10', delegates: delegates(10) }))
    await createRegistration(context, registrationInput({ event: 'Resilience', code: 'ERC2025', attendanceOption: 'table-10', delegates: delegates(10, 11) }))
    expect(await testDb.db.kysely.selectFrom('event_seats').selectAll().execute()).toEqual([])
  })
})
