import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cancellationProposal, cancelRegistration } from '../cancellation/cancel.ts'
import { TEST_BACKENDS, openTestDatabase, type TestDatabase } from '../test-support.ts'
import { recordBankTransfer } from './bank-transfers.ts'
import { register, MANAGER, STAFF, testContext } from './fixtures.ts'
import { listRegistrations, type RegistrationListQuery } from './registrations-list.ts'

const RESILIENCE = { event: 'Resilience', code: 'ERC2025' }

describe.each(TEST_BACKENDS)('listRegistrations on %s', (backend) => {
  let testDb: TestDatabase
  /** References by name, in the order registered (oldest first). */
  let refs: Record<'acme' | 'bolt' | 'cobalt' | 'delta', string>

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    const [acme, bolt, cobalt, delta] = await register(
      testDb.db,
      { companyName: 'Acme Legal Services', email: 'bookings@acme.example.com' },
      {
        ...RESILIENCE,
        companyName: 'Bolt 100% Engineering',
        email: 'office@bolt.example.com',
        paymentMethod: 'Credit/Debit Card',
        delegates: [{ name: 'Zanele Ndlovu', position: 'Engineer', email: 'zanele@bolt.example.com' }],
      },
      { ...RESILIENCE, companyName: 'Cobalt Mining', email: 'accounts@cobalt.example.com' },
      {
        companyName: 'Delta Attorneys',
        email: 'info@delta.example.com',
        delegates: [{ name: 'Émile Dubois', position: 'Partner', email: 'emile@delta.example.com' }],
      },
    )
    refs = { acme: acme!, bolt: bolt!, cobalt: cobalt!, delta: delta! }
    // Registered at set moments, around midnight in Johannesburg (UTC+2).
    const createdAt = {
      acme: '2025-02-27T10:00:00.000Z',
      bolt: '2025-02-28T21:59:59.000Z',
      cobalt: '2025-02-28T22:00:00.000Z',
      delta: '2025-03-01T12:00:00.000Z',
    }
    for (const [name, at] of Object.entries(createdAt)) {
      await testDb.db.kysely
        .updateTable('registrations')
        .set({ created_at: at })
        .where('reference', '=', refs[name as keyof typeof refs])
        .execute()
    }
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  const list = (query: RegistrationListQuery) => listRegistrations(testContext(testDb.db), query)
  const referencesOf = async (query: RegistrationListQuery) => (await list(query)).rows.map((row) => row.reference)

  it('lists newest first, a page at a time, with the total', async () => {
    const first = await list({ pageSize: 3 })
    expect(first.rows.map((row) => row.reference)).toEqual([refs.delta, refs.cobalt, refs.bolt])
    expect(first).toMatchObject({ total: 4, page: 1, pageSize: 3, pageCount: 2 })
    expect(first.rows[2]).toMatchObject({
      companyName: 'Bolt 100% Engineering',
      eventSlug: 'Resilience',
      eventTitle: 'Economic Resilience Conference 2025',
      status: 'awaiting-payment',
      cancelledAt: null,
      paymentMethod: 'card',
      delegateCount: 1,
      totalCents: 976_350,
      paidCents: 0,
      createdAt: '2025-02-28T21:59:59.000Z',
    })
    const second = await list({ pageSize: 3, page: 2 })
    expect(second.rows.map((row) => row.reference)).toEqual([refs.acme])
    expect(second.total).toBe(4)
    expect((await list({ page: 3, pageSize: 3 })).rows).toEqual([])
  })

  it('marks a registration cancelled as a whole with when it was', async () => {
    await cancelRegistration(testContext(testDb.db), { reference: refs.acme, delegateIds: 'all', feePercent: 0, overrideReason: 'Agreed' }, MANAGER)
    const [acme] = (await list({ search: refs.acme })).rows
    expect(acme?.cancelledAt).toEqual(expect.any(String))
    expect((await list({ search: refs.bolt })).rows[0]?.cancelledAt).toBeNull()
  })

  it('filters by Cancelled and Part-cancelled; a payment status lists only registrations still on', async () => {
    const context = testContext(testDb.db)
    await cancelRegistration(context, { reference: refs.acme, delegateIds: 'all' }, MANAGER)
    await recordBankTransfer(context, { reference: refs.cobalt, amount: '100.00', receivedOn: '2025-03-01', bankReference: 'P9' }, STAFF)
    await register(testDb.db, { companyName: 'Echo Legal' })
    const [echo] = await referencesOf({ search: 'Echo Legal' })
    const echoDelegates = (await cancellationProposal(context, echo!)).delegates
    await cancelRegistration(context, { reference: echo!, delegateIds: [echoDelegates[1]!.id] }, MANAGER)

    expect(await referencesOf({ status: 'cancelled' })).toEqual([refs.acme])
    expect(await referencesOf({ status: 'part-cancelled' })).toEqual([echo])
    const [partRow] = (await list({ status: 'part-cancelled' })).rows
    expect(partRow).toMatchObject({ partCancelled: true, cancelledAt: null, status: 'awaiting-payment' })
    expect(await referencesOf({ status: 'awaiting-payment' })).not.toContain(refs.acme)
    expect((await list({ search: refs.acme })).rows[0]).toMatchObject({ partCancelled: false })
  })

  it.each<[string, RegistrationListQuery, Array<keyof typeof refs>]>([
    ['event', { eventId: 'event-resilience' }, ['cobalt', 'bolt']],
    ['payment method', { paymentMethod: 'card' }, ['bolt']],
    ['days registered in Johannesburg', { createdFrom: '2025-03-01', createdTo: '2025-03-01' }, ['delta', 'cobalt']],
    ['a last day', { createdTo: '2025-02-28' }, ['bolt', 'acme']],
    ['company, any case', { search: 'cobalt MINING' }, ['cobalt']],
    ['e-mail', { search: 'INFO@delta' }, ['delta']],
    ['delegate name, any case', { search: 'zanele ndl' }, ['bolt']],
    ['a name without its accents', { search: 'emile' }, ['delta']],
    ['a name in capitals without its accents', { search: 'EMILE DUB' }, ['delta']],
    ['an accent typed where the stored text has none', { search: 'Délta' }, ['delta']],
    ['a company, accents and case ignored together', { search: 'ÇOBALT mining' }, ['cobalt']],
    ['a percent sign taken literally', { search: '100%' }, ['bolt']],
    ['an underscore taken literally', { search: 'a_e' }, []],
    ['event and search together', { eventId: 'event-legal-opinion', search: 'thandi' }, ['acme']],
  ])('filters by %s', async (_case, query, expected) => {
    expect(await referencesOf(query)).toEqual(expected.map((name) => refs[name]))
  })

  it('finds a registration by part of its reference in any case, and by status', async () => {
    expect(await referencesOf({ search: refs.cobalt.slice(2).toLowerCase() })).toEqual([refs.cobalt])
    await recordBankTransfer(testContext(testDb.db), { reference: refs.acme, amount: '10.00', receivedOn: '2025-03-01', bankReference: 'P1' }, STAFF)
    const partPaid = await list({ status: 'part-paid' })
    expect(partPaid.rows.map((row) => [row.reference, row.paidCents])).toEqual([[refs.acme, 1_000]])
    expect(partPaid.total).toBe(1)
    expect(await referencesOf({ status: 'awaiting-payment' })).toEqual([refs.delta, refs.cobalt, refs.bolt])
  })

  it.each<[RegistrationListQuery, Record<string, string | number>]>([
    [{ status: 'lost' }, { problem: 'list-status', choices: 'awaiting-payment, part-paid, paid, part-cancelled, cancelled' }],
    [{ paymentMethod: 'Cash' }, { problem: 'payment-method', choices: 'bank-transfer, card' }],
    [{ paymentMethod: 'Credit/Debit Card' }, { problem: 'payment-method', choices: 'bank-transfer, card' }],
    [{ createdFrom: '1 March' }, { problem: 'date-format', field: 'from' }],
    [{ page: 0 }, { problem: 'whole-number', field: 'page', max: Number.MAX_SAFE_INTEGER }],
    [{ pageSize: 1000 }, { problem: 'whole-number', field: 'pageSize', max: 100 }],
  ])('refuses %o', async (query, details) => {
    await expect(list(query)).rejects.toMatchObject({ code: 'invalid-input', details })
  })
})

describe('the registration list on SQLite', () => {
  it('reads a filtered page through an index in its order, without sorting', async () => {
    const testDb = await openTestDatabase('sqlite')
    try {
      for (const [column, value, index] of [
        ['event_id', 'event-resilience', 'registrations_event_id_created'],
        ['status', 'paid', 'registrations_status_created'],
        ['payment_method', 'bank-transfer', 'registrations_payment_method_created'],
      ] as const) {
        const plan = await sql<{
          detail: string
        }>`explain query plan select id from registrations where ${sql.ref(column)} = ${value} order by created_at desc, id desc limit 25`.execute(
          testDb.db.kysely,
        )
        const details = plan.rows.map((row) => row.detail).join('\n')
        expect(details).toContain(`INDEX ${index} (${column}=?)`)
        expect(details).not.toContain('TEMP B-TREE')
      }
    } finally {
      await testDb.dispose()
    }
  })
})
