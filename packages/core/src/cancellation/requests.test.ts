import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANAGER, RECORDED_BY_MANAGER, register, STAFF, testContext } from '../backoffice/fixtures.ts'
import { TEST_BACKENDS, openTestDatabase, testAuditRows, type TestDatabase } from '../test-support.ts'
import { cancelRegistration } from './cancel.ts'
import { cancellationRequests, decideCancellationRequest, requestCancellation } from './requests.ts'

describe.each(TEST_BACKENDS)('cancellation requests on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  it('keeps a staff member’s request until a manager approves it, which makes the cancellation as asked, each with its audit row', async () => {
    const [reference = ''] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    const asked = await requestCancellation(context, { reference, delegateIds: 'all', feePercent: '0', overrideReason: ' Agreed\n by e-mail ' }, STAFF)
    expect(asked).toMatchObject({
      status: 'pending',
      delegateIds: 'all',
      feePercent: 0,
      overrideReason: 'Agreed by e-mail',
      requestedBy: { id: STAFF.id, name: STAFF.name },
    })
    await expect(requestCancellation(context, { reference, delegateIds: 'all' }, STAFF)).rejects.toMatchObject({ code: 'request-pending' })
    expect(await testDb.db.kysely.selectFrom('cancellations').select('id').execute()).toEqual([])
    expect(await testAuditRows(testDb.db)).toEqual([
      expect.objectContaining({
        action: 'cancellation-requested',
        subjectId: reference,
        actorId: STAFF.id,
        actorRole: 'staff',
        after: expect.objectContaining({ requestId: asked.id, feePercent: 0 }),
      }),
    ])

    const { request, outcome } = await decideCancellationRequest(context, { reference, requestId: asked.id, decision: 'approve' }, MANAGER)
    expect(request).toMatchObject({ status: 'approved', decidedBy: RECORDED_BY_MANAGER })
    expect(outcome?.cancellation).toMatchObject({ wholeRegistration: true, feePercent: 0 })
    expect(await testDb.db.kysely.selectFrom('cancellations').select('cancelled_by_name').execute()).toEqual([{ cancelled_by_name: MANAGER.name }])
    expect((await testAuditRows(testDb.db)).slice(1).map((row) => [row.action, row.actorId])).toEqual([
      ['cancellation-request-approved', MANAGER.id],
      ['registration-cancelled', MANAGER.id],
    ])
    await expect(decideCancellationRequest(context, { reference, requestId: asked.id, decision: 'approve' }, MANAGER)).rejects.toMatchObject({
      code: 'not-found',
    })
  })

  it('declines a request, changing nothing else; a request that cannot be made waits again', async () => {
    const [reference = ''] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    const first = await requestCancellation(context, { reference, delegateIds: 'all' }, STAFF)
    expect((await decideCancellationRequest(context, { reference, requestId: first.id, decision: 'decline' }, MANAGER)).outcome).toBeNull()
    expect(await testDb.db.kysely.selectFrom('cancellations').select('id').execute()).toEqual([])

    // Another fee without its reason: refused when approved, and the request stays open with no audit row of the approval.
    const second = await requestCancellation(context, { reference, delegateIds: 'all', feePercent: 10 }, STAFF)
    await expect(decideCancellationRequest(context, { reference, requestId: second.id, decision: 'approve' }, MANAGER)).rejects.toMatchObject({
      issues: [{ path: 'overrideReason', code: 'reason-required' }],
    })
    expect((await cancellationRequests(context, reference)).map((request) => request.status)).toEqual(['pending', 'declined'])
    expect((await testAuditRows(testDb.db)).map((row) => row.action)).toEqual([
      'cancellation-requested',
      'cancellation-request-declined',
      'cancellation-requested',
    ])
    await expect(requestCancellation(context, { reference: 'NOPE', delegateIds: 'all' }, STAFF)).rejects.toMatchObject({ code: 'not-found' })
    await expect(decideCancellationRequest(context, { reference, requestId: second.id, decision: 'maybe' }, MANAGER)).rejects.toMatchObject({
      issues: [{ path: 'decision', code: 'invalid-choice' }],
    })
  })

  it('refuses a staff actor who approves, declines or cancels, whatever the route let through, and changes nothing', async () => {
    const [reference = ''] = await register(testDb.db, {})
    const context = testContext(testDb.db)
    const asked = await requestCancellation(context, { reference, delegateIds: 'all' }, STAFF)
    for (const decision of ['approve', 'decline']) {
      await expect(decideCancellationRequest(context, { reference, requestId: asked.id, decision }, STAFF)).rejects.toMatchObject({
        code: 'role-required',
        details: { role: 'manager' },
      })
    }
    await expect(cancelRegistration(context, { reference, delegateIds: 'all' }, STAFF)).rejects.toMatchObject({ code: 'role-required' })
    expect((await cancellationRequests(context, reference)).map((request) => request.status)).toEqual(['pending'])
    expect(await testDb.db.kysely.selectFrom('cancellations').select('id').execute()).toEqual([])
    expect((await testAuditRows(testDb.db)).map((row) => row.action)).toEqual(['cancellation-requested'])
    // An owner may do what a manager may.
    const owner = { ...MANAGER, id: 'owner-1', role: 'owner' as const }
    expect((await decideCancellationRequest(context, { reference, requestId: asked.id, decision: 'decline' }, owner)).request.status).toBe('declined')
  })
})
