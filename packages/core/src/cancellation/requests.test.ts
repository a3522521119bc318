import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { register, STAFF, testContext } from '../backoffice/fixtures.ts'
import { TEST_BACKENDS, openTestDatabase, type TestDatabase } from '../test-support.ts'
import { cancellationRequests, decideCancellationRequest, requestCancellation } from './requests.ts'

const MANAGER = { id: 'manager-1', name: 'Mpho Manager' }

describe.each(TEST_BACKENDS)('cancellation requests on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it('keeps a staff member’s request until a manager approves it, which makes the cancellation as asked', async () => {
    const [reference = ''] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    const asked = await requestCancellation(context, { reference, delegateIds: 'all', feePercent: 0, overrideReason: ' Agreed\n by e-mail ' }, STAFF)
    expect(asked).toMatchObject({ status: 'pending', delegateIds: 'all', feePercent: 0, overrideReason: 'Agreed by e-mail', requestedBy: STAFF })
    await expect(requestCancellation(context, { reference, delegateIds: 'all' }, STAFF)).rejects.toMatchObject({ code: 'invalid-input' })
    expect(await testDb.db.kysely.selectFrom('cancellations').select('id').execute()).toEqual([])

    const { request, outcome } = await decideCancellationRequest(context, { reference, requestId: asked.id, approve: true }, MANAGER)
    expect(request).toMatchObject({ status: 'approved', decidedBy: MANAGER })
    expect(outcome?.cancellation).toMatchObject({ wholeRegistration: true, feePercent: 0 })
    expect(await testDb.db.kysely.selectFrom('cancellations').select('cancelled_by_name').execute()).toEqual([{ cancelled_by_name: MANAGER.name }])
    await expect(decideCancellationRequest(context, { reference, requestId: asked.id, approve: true }, MANAGER)).rejects.toMatchObject({ code: 'not-found' })
  })

  it('declines a request, changing nothing else; a request that cannot be made waits again', async () => {
    const [reference = ''] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    const first = await requestCancellation(context, { reference, delegateIds: 'all' }, STAFF)
    expect((await decideCancellationRequest(context, { reference, requestId: first.id, approve: false }, MANAGER)).outcome).toBeNull()
    expect(await testDb.db.kysely.selectFrom('cancellations').select('id').execute()).toEqual([])

    // Another fee without its reason: refused when approved, and the request stays open.
    const second = await requestCancellation(context, { reference, delegateIds: 'all', feePercent: 10 }, STAFF)
    await expect(decideCancellationRequest(context, { reference, requestId: second.id, approve: true }, MANAGER)).rejects.toMatchObject({ code: 'invalid-input' })
    expect((await cancellationRequests(context, reference)).map((request) => request.status)).toEqual(['pending', 'declined'])
    await expect(requestCancellation(context, { reference: 'NOPE', delegateIds: 'all' }, STAFF)).rejects.toMatchObject({ code: 'not-found' })
  })
})
