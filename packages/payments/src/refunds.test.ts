import { cancelRegistration, createRegistration } from '@events/core'
import {
  SITE_NOW,
  TEST_BACKENDS,
  TEST_MANAGER,
  TEST_STAFF,
  fixedCatalog,
  registrationInput,
  testAuditRows,
  testAuditWriter,
  testSiteLinks,
  type TestDatabase,
} from '@events/core/test-support'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createSandboxProvider } from './sandbox.ts'
import { refundCard, startCheckout } from './commands.ts'
import type { PaymentContext } from './context.ts'
import { startYocoWithWebhooks, type YocoWithWebhooks } from './test-support.ts'
import { createYocoProvider } from './yoco.ts'
import { openPaymentsTestDatabase } from './test-support.ts'
import { cardPaymentFacts } from './queries.ts'

const links = testSiteLinks()
const STAFF = TEST_STAFF
const MANAGER = TEST_MANAGER
// Legal Opinion (3 July 2025), two delegates by card: R 20 677.00. On 20 June the terms' fee is 50%, so R 10 338.50
// of it is credited and refunded.
const HALF_FEE_DAY = new Date('2025-06-20T10:00:00+02:00')
const REFUND_CENTS = 1_033_850

describe.each(TEST_BACKENDS)('card refunds of cancellations on %s', (backend) => {
  let testDb: TestDatabase
  let yoco: YocoWithWebhooks
  let payments: PaymentContext

  beforeEach(async () => {
    testDb = await openPaymentsTestDatabase(backend)
    yoco = await startYocoWithWebhooks(() => payments)
    payments = service(yoco.apiBase)
  })
  afterEach(async () => {
    await yoco.close()
    await testDb.dispose()
  })

  function service(apiBase: string): PaymentContext {
    const provider = createYocoProvider({ secretKey: yoco.secretKey, webhookSecret: yoco.webhookSecret, apiBase })
    return { db: testDb.db, catalog: fixedCatalog(), provider, links, siteNow: () => SITE_NOW }
  }

  /** A card registration paid through the stand-in, then cancelled on HALF_FEE_DAY: answers the pending refund. */
  async function paidThenCancelled(): Promise<{ refundId: string; checkoutId: string }> {
    const registrations = { db: testDb.db, catalog: fixedCatalog(), links, siteNow: () => SITE_NOW }
    const { receipt } = await createRegistration(registrations, registrationInput({ paymentMethod: 'Credit/Debit Card' }))
    const started = await startCheckout(payments, receipt.reference, receipt.secret)
    if (started.kind !== 'redirect') throw new Error('expected a checkout')
    await yoco.pay(started.checkoutId)
    const context = { db: testDb.db, catalog: fixedCatalog(), links, siteNow: () => HALF_FEE_DAY, audit: testAuditWriter, cardPayments: cardPaymentFacts }
    const outcome = await cancelRegistration(context, { reference: receipt.reference, delegateIds: 'all' }, MANAGER)
    expect(outcome.cardRefundPending).toBe(true)
    expect(outcome.cancellation.refund).toMatchObject({ method: 'card', status: 'pending', amountCents: REFUND_CENTS })
    return { refundId: outcome.cancellation.refund!.id, checkoutId: started.checkoutId }
  }

  it('refunds what was paid less the fee through Yoco, once, and records the outcome', async () => {
    const { refundId, checkoutId } = await paidThenCancelled()
    const result = await refundCard(payments, refundId, { actor: STAFF, audit: testAuditWriter })
    expect(result.before.status).toBe('pending')
    expect(result.after).toMatchObject({ status: 'succeeded', attempts: 1, outcome_message: 'Refund successfully processed' })
    // The answer and the member's request are kept together, with the address they asked from.
    expect((await testAuditRows(testDb.db)).filter((row) => row.action === 'card-refund-requested')).toEqual([
      expect.objectContaining({
        subjectType: 'refund',
        subjectId: refundId,
        ipAddress: STAFF.ipAddress,
        before: expect.objectContaining({ status: 'pending' }),
        after: expect.objectContaining({ status: 'succeeded' }),
      }),
    ])
    expect(result.after.provider_refund_id).toMatch(/^rfd_/)
    // The credit note told where the money goes; once made, the registrant hears that it went back to the card,
    // dated by the business clock.
    const mailOf = async (topic: string) => {
      const rows = await testDb.db.kysely.selectFrom('outbox_messages').select('mail').where('topic', '=', topic).execute()
      return rows.map((row) => JSON.parse(row.mail) as { subject: string; text: string })
    }
    const [creditNote] = await mailOf('cancellation.credit-note')
    expect(creditNote!.text).toContain('Refund to your card: R 10 338.50')
    expect(creditNote!.text).not.toContain('To be refunded')
    const refunded = await mailOf('payment.card-refund')
    expect(refunded).toHaveLength(1)
    expect(refunded[0]!.text).toContain('Refunded to your card: R 10 338.50')
    expect(refunded[0]!.text).toContain('Refunded on: 1 March 2025')
    const { updated_at } = await testDb.db.kysely.selectFrom('refunds').select('updated_at').where('id', '=', refundId).executeTakeFirstOrThrow()
    expect(updated_at).toBe(SITE_NOW.toISOString())

    expect(yoco.refundRequests).toHaveLength(1)
    expect(yoco.refundRequests[0]).toMatchObject({
      checkoutId,
      authorization: `Bearer ${yoco.secretKey}`,
      idempotencyKey: `refund-${refundId}-attempt-1`,
      body: { amount: REFUND_CENTS, metadata: { refundId } },
      status: 200,
    })
    // A second press changes nothing, asks Yoco nothing and sends nothing again.
    expect((await refundCard(payments, refundId)).after.status).toBe('succeeded')
    expect(yoco.refundRequests).toHaveLength(1)
    expect(await mailOf('payment.card-refund')).toHaveLength(1)
  })

  it('records a refused refund with Yoco’s reason, and a retry is a new request', async () => {
    const { refundId } = await paidThenCancelled()
    yoco.refuseRefunds('Insufficient balance to process the refund.')
    const refused = await refundCard(payments, refundId)
    expect(refused.after).toMatchObject({ status: 'refused', attempts: 1, provider_refund_id: null })
    expect(refused.after.outcome_message).toBe('The payment provider refused the refund (400): Insufficient balance to process the refund.')

    yoco.refuseRefunds(undefined)
    const retried = await refundCard(payments, refundId)
    expect(retried.after).toMatchObject({ status: 'succeeded', attempts: 2 })
    expect(yoco.refundRequests.map((request) => request.idempotencyKey)).toEqual([`refund-${refundId}-attempt-1`, `refund-${refundId}-attempt-2`])
  })

  it('keeps a refund pending when Yoco cannot be reached, and retries it with the same key', async () => {
    const { refundId } = await paidThenCancelled()
    const unreachable = service('http://127.0.0.1:9')
    const failed = await refundCard(unreachable, refundId)
    expect(failed.after.status).toBe('pending')
    expect(failed.after.outcome_message).toContain('could not be reached')

    const retried = await refundCard(payments, refundId)
    expect(retried.after).toMatchObject({ status: 'succeeded', attempts: 1 })
    expect(yoco.refundRequests.map((request) => request.idempotencyKey)).toEqual([`refund-${refundId}-attempt-1`])
  })

  it('offers no card checkout once a cancellation has credited part of an unpaid registration', async () => {
    const registrations = { db: testDb.db, catalog: fixedCatalog(), links, siteNow: () => SITE_NOW }
    const { receipt } = await createRegistration(registrations, registrationInput({ paymentMethod: 'Credit/Debit Card' }))
    const context = { db: testDb.db, catalog: fixedCatalog(), links, siteNow: () => HALF_FEE_DAY, audit: testAuditWriter, cardPayments: cardPaymentFacts }
    await cancelRegistration(context, { reference: receipt.reference, delegateIds: 'all' }, MANAGER)
    const started = await startCheckout(payments, receipt.reference, receipt.secret)
    expect(started).toEqual({ kind: 'pay-by-transfer', statusUrl: links.registrationStatus(receipt) })
    expect(yoco.requests).toHaveLength(0)
  })

  it('refunds in the sandbox without asking Yoco', async () => {
    const { refundId } = await paidThenCancelled()
    const sandbox: PaymentContext = { db: testDb.db, catalog: fixedCatalog(), provider: createSandboxProvider({ links }), links }
    const result = await refundCard(sandbox, refundId)
    expect(result.after).toMatchObject({ status: 'succeeded', outcome_message: 'Refunded in the sandbox: no card was charged or refunded.' })
    expect(yoco.refundRequests).toHaveLength(0)
  })
})
