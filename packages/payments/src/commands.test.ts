import {
  cancelRegistration,
  cancellationProposal,
  certificatesOfRegistration,
  checkInDelegate,
  createRegistration,
  issueDueCertificates,
  outgoingMailOf,
  recordBankTransfer,
  type OutgoingMail,
} from '@events/core'
import {
  SITE_NOW,
  TEST_BACKENDS,
  TEST_MANAGER,
  TEST_STAFF,
  fixedCatalog,
  registrationInput,
  testAuditWriter,
  testSiteLinks,
  type TestDatabase,
} from '@events/core/test-support'
import { Webhook } from 'standardwebhooks'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createSandboxProvider } from './sandbox.ts'
import { completeSandboxCheckout, handleWebhook, recordReturn, startCheckout } from './commands.ts'
import { PaymentError, type PaymentContext } from './context.ts'
import type { PaymentProvider } from './provider.ts'
import { getSandboxCheckout } from './queries.ts'
import { startYocoWithWebhooks, type YocoWithWebhooks } from './test-support.ts'
import { WebhookRejectedError } from './webhook.ts'
import { createYocoProvider } from './yoco.ts'
import { openPaymentsTestDatabase } from './test-support.ts'
import { paymentQueries } from './db/database.ts'
import { cardPaymentFacts } from './queries.ts'

const links = testSiteLinks()
const ORGANISER = 'organiser@example.com'

describe.each(TEST_BACKENDS)('card payments on %s', (backend) => {
  let testDb: TestDatabase
  let yoco: YocoWithWebhooks
  let payments: PaymentContext
  let mailWakeUps: number
  let paymentsSucceeded: number

  beforeEach(async () => {
    testDb = await openPaymentsTestDatabase(backend)
    yoco = await startYocoWithWebhooks(() => payments)
    mailWakeUps = 0
    paymentsSucceeded = 0
    payments = paymentContext(createYocoProvider({ secretKey: yoco.secretKey, webhookSecret: yoco.webhookSecret, apiBase: yoco.apiBase }))
  })
  afterEach(async () => {
    await yoco.close()
    await testDb.dispose()
  })

  function paymentContext(provider: PaymentProvider): PaymentContext {
    return {
      db: testDb.db,
      catalog: fixedCatalog(),
      provider,
      links,
      organiserEmail: ORGANISER,
      siteNow: () => SITE_NOW,
      onMailQueued: () => mailWakeUps++,
      onPaymentSucceeded: () => paymentsSucceeded++,
    }
  }

  /** A card registration whose browser claimed a total of R 1.00; the server's total is R 20 677.00. */
  async function cardRegistration() {
    const registrations = { db: testDb.db, catalog: fixedCatalog(), links, organiserEmail: ORGANISER, siteNow: () => SITE_NOW }
    const { receipt } = await createRegistration(registrations, registrationInput({ paymentMethod: 'Credit/Debit Card', totalPrice: '1.00', amount: 100 }))
    return receipt
  }

  async function registrationRow(reference: string) {
    return testDb.db.kysely.selectFrom('registrations').select(['status', 'paid_at']).where('reference', '=', reference).executeTakeFirstOrThrow()
  }

  async function mails(topic: string): Promise<OutgoingMail[]> {
    const rows = await testDb.db.kysely.selectFrom('outbox_messages').select(['mail', 'source_id']).where('topic', '=', topic).execute()
    return Promise.all(rows.map((row) => outgoingMailOf(testDb.db, row)))
  }

  async function startYocoCheckout(reference: string, secret: string) {
    const started = await startCheckout(payments, reference, secret)
    if (started.kind !== 'redirect') throw new Error('expected a checkout')
    return started
  }

  it('asks Yoco for the stored total, never the amount the browser sent, and reuses the open checkout', async () => {
    const registration = await cardRegistration()
    const started = await startYocoCheckout(registration.reference, registration.secret)

    expect(yoco.requests).toHaveLength(1)
    const [request] = yoco.requests
    expect(request?.authorization).toBe(`Bearer ${yoco.secretKey}`)
    expect(request?.idempotencyKey).toBe(`registration-${registration.reference}-checkout-1`)
    expect(request?.body).toEqual({
      amount: 2067700,
      currency: 'ZAR',
      successUrl: links.paymentReturn(registration, 'success'),
      cancelUrl: links.paymentReturn(registration, 'cancel'),
      failureUrl: links.paymentReturn(registration, 'failure'),
      metadata: { registrationReference: registration.reference, attempt: '1' },
      subtotalAmount: 1798000,
      totalTaxAmount: 269700,
    })
    expect(registration.totalCents).toBe(2067700)
    const checkout = yoco.checkouts.get(started.checkoutId)
    expect(started.redirectUrl).toBe(checkout?.redirectUrl)
    expect(started.redirectUrl).toBe(`${yoco.apiBase}/checkout/${started.checkoutId}`)

    const again = await startYocoCheckout(registration.reference, registration.secret)
    expect(again).toMatchObject({ checkoutId: started.checkoutId, reused: true })
    expect(yoco.requests).toHaveLength(1)
  })

  it('makes one checkout for two clicks at once', async () => {
    const registration = await cardRegistration()
    const [first, second] = await Promise.all([
      startYocoCheckout(registration.reference, registration.secret),
      startYocoCheckout(registration.reference, registration.secret),
    ])
    expect(first.checkoutId).toBe(second.checkoutId)
    expect(yoco.checkouts.size).toBe(1)
    expect(await paymentQueries(testDb.db.kysely).selectFrom('payment_checkouts').select('id').execute()).toHaveLength(1)
  })

  it('marks the registration paid exactly once and sends one receipt, however often the webhook comes', async () => {
    const registration = await cardRegistration()
    const { checkoutId } = await startYocoCheckout(registration.reference, registration.secret)

    const delivery = await yoco.pay(checkoutId)
    expect(delivery.status).toBe(200)
    expect(JSON.parse(delivery.answer)).toEqual({ outcome: 'paid', replayed: false })
    const paid = await registrationRow(registration.reference)
    expect(paid.status).toBe('paid')
    // The money is dated by the business clock, as a bank transfer's is, so a season moved with SITE_DATE stays in order.
    expect(paid.paid_at).toBe(SITE_NOW.toISOString())
    expect(mailWakeUps).toBe(1)
    expect(paymentsSucceeded).toBe(1)

    const receipts = await mails('payment.receipt')
    expect(receipts).toHaveLength(1)
    expect(receipts[0]?.to).toEqual(['bookings@acme.example.com'])
    expect(receipts[0]?.subject).toBe(`Payment received: registration ${registration.reference}`)
    expect(receipts[0]?.text).toContain('Amount paid: R 20 677.00')
    expect(receipts[0]?.text).toContain('Tax invoice: INV-000001')
    // The tax invoice travels with a card receipt as with a bank-transfer one.
    expect(receipts[0]?.attachments?.map((attachment) => [attachment.filename, attachment.contentType])).toEqual([
      ['tax-invoice-INV-000001.pdf', 'application/pdf'],
    ])
    // Dated by the business clock (SITE_NOW, 1 March 2025), not the day the test runs.
    expect(receipts[0]?.text).toContain('Paid on: 1 March 2025 at 08:00 (SAST)')

    const replay = await yoco.redeliver(delivery)
    expect(replay.status).toBe(200)
    expect(JSON.parse(replay.answer)).toEqual({ outcome: 'paid', replayed: true })
    expect(await registrationRow(registration.reference)).toEqual(paid)
    expect(await mails('payment.receipt')).toHaveLength(1)

    // The same payment announced under a new webhook id changes nothing either.
    const sameEvent = JSON.parse(delivery.body) as unknown
    const body = JSON.stringify(sameEvent)
    const headers = signed(yoco.webhookSecret, 'msg_same_payment_new_id', body)
    expect(await handleWebhook(payments, body, headers)).toEqual({ outcome: 'already-paid', replayed: false })
    expect(await mails('payment.receipt')).toHaveLength(1)
    expect(paymentsSucceeded).toBe(1)

    expect(await startCheckout(payments, registration.reference, registration.secret)).toEqual({
      kind: 'already-paid',
      statusUrl: links.registrationStatus(registration),
    })
    expect(yoco.requests).toHaveLength(1)
  })

  it('issues the certificates a registration waited for when its card payment arrives after the event', async () => {
    const registration = await cardRegistration()
    const { checkoutId } = await startYocoCheckout(registration.reference, registration.secret)
    const registrationId = (
      await testDb.db.kysely.selectFrom('registrations').select('id').where('reference', '=', registration.reference).executeTakeFirstOrThrow()
    ).id
    const delegates = await testDb.db.kysely.selectFrom('registration_delegates').select('id').where('registration_id', '=', registrationId).execute()
    const onDayOne = { ...paymentContext(payments.provider), siteNow: () => new Date('2025-07-03T06:10:00Z'), now: () => new Date('2025-07-03T06:10:00Z') }
    for (const delegate of delegates) {
      await checkInDelegate(
        { ...onDayOne, audit: testAuditWriter },
        { eventId: 'event-legal-opinion', day: '2025-07-03', delegateId: delegate.id, code: '', scannedAt: '', scanId: '' },
        TEST_STAFF,
      )
    }
    const afterTheEvent = { ...paymentContext(payments.provider), siteNow: () => new Date('2025-07-06T08:00:00Z') }
    // Unpaid, the round after the event holds them.
    expect(await issueDueCertificates(afterTheEvent)).toBe(0)

    payments = afterTheEvent
    expect((await yoco.pay(checkoutId)).status).toBe(200)
    expect((await certificatesOfRegistration(testDb.db.kysely, registrationId)).map((certificate) => certificate.cpdHoursText)).toEqual(['6 hours', '6 hours'])
    expect(await mails('certificate')).toHaveLength(2)
  })

  it('marks a card payment paid but writes no receipt to a registrant whose address was erased', async () => {
    const registration = await cardRegistration()
    const { checkoutId } = await startYocoCheckout(registration.reference, registration.secret)
    // What erasePersonalData leaves of the registrant's address while the checkout is still open.
    await testDb.db.kysely.updateTable('registrations').set({ email: '' }).where('reference', '=', registration.reference).execute()

    const delivery = await yoco.pay(checkoutId)
    expect(JSON.parse(delivery.answer)).toEqual({ outcome: 'paid', replayed: false })
    expect((await registrationRow(registration.reference)).status).toBe('paid')
    expect(await mails('payment.receipt')).toEqual([])
  })

  it('starts no card checkout for a registration part-paid by bank transfer: a card charge is for the whole total', async () => {
    const registration = await cardRegistration()
    await recordBankTransfer(
      { db: testDb.db, catalog: fixedCatalog(), links, siteNow: () => SITE_NOW, audit: testAuditWriter, cardPayments: cardPaymentFacts },
      { reference: registration.reference, amount: '5000.00', receivedOn: '2025-03-01', bankReference: 'FNB 0042' },
      TEST_STAFF,
    )
    expect(await startCheckout(payments, registration.reference, registration.secret)).toEqual({
      kind: 'pay-by-transfer',
      statusUrl: links.registrationStatus(registration),
    })
    expect(yoco.requests).toHaveLength(0)
  })

  it('does not count a card payment opened before a bank transfer was recorded: it keeps it for a refund and tells the organiser', async () => {
    const registration = await cardRegistration()
    const { checkoutId } = await startYocoCheckout(registration.reference, registration.secret)
    await recordBankTransfer(
      { db: testDb.db, catalog: fixedCatalog(), links, siteNow: () => SITE_NOW, audit: testAuditWriter, cardPayments: cardPaymentFacts },
      { reference: registration.reference, amount: '5000.00', receivedOn: '2025-03-01', bankReference: 'FNB 0042' },
      TEST_STAFF,
    )

    const delivery = await yoco.pay(checkoutId)
    expect(JSON.parse(delivery.answer)).toEqual({ outcome: 'payment-not-owed', replayed: false })
    expect(await registrationRow(registration.reference)).toEqual({ status: 'part-paid', paid_at: null })
    expect(paymentsSucceeded).toBe(0)
    const checkout = await paymentQueries(testDb.db.kysely)
      .selectFrom('payment_checkouts')
      .select(['status', 'payment_id'])
      .where('id', '=', checkoutId)
      .executeTakeFirstOrThrow()
    expect(checkout).toEqual({ status: 'succeeded', payment_id: expect.any(String) as string })
    const [problem] = await mails('payment.problem')
    expect(problem?.to).toEqual([ORGANISER])
    expect(problem?.text).toContain('R 5 000.00 had been paid by bank transfer and R 15 677.00 was outstanding')
    expect(problem?.text).toContain('please refund the card payment with the provider')
    expect(await mails('payment.receipt')).toHaveLength(0)

    // The same payment announced again is not reported twice.
    const body = delivery.body
    expect(await handleWebhook(payments, body, signed(yoco.webhookSecret, 'msg_same_payment_again', body))).toEqual({
      outcome: 'payment-not-owed',
      replayed: false,
    })
    expect(await mails('payment.problem')).toHaveLength(1)
  })

  it('does not count a card payment opened before a cancellation credited part of the registration', async () => {
    const registration = await cardRegistration()
    const { checkoutId } = await startYocoCheckout(registration.reference, registration.secret)
    const context = { db: testDb.db, catalog: fixedCatalog(), links, siteNow: () => SITE_NOW, audit: testAuditWriter, cardPayments: cardPaymentFacts }
    const proposal = await cancellationProposal(context, registration.reference)
    const [firstDelegate] = proposal.delegates
    await cancelRegistration(context, { reference: registration.reference, delegateIds: [firstDelegate?.id ?? ''] }, TEST_MANAGER)

    const delivery = await yoco.pay(checkoutId)
    expect(JSON.parse(delivery.answer)).toEqual({ outcome: 'payment-not-owed', replayed: false })
    expect((await registrationRow(registration.reference)).status).toBe('awaiting-payment')
    expect(await mails('payment.problem')).toHaveLength(1)
    expect(await mails('payment.receipt')).toHaveLength(0)
  })

  it('does not mark a payment of another amount paid: it records it and tells the organiser', async () => {
    const registration = await cardRegistration()
    const { checkoutId } = await startYocoCheckout(registration.reference, registration.secret)

    const delivery = await yoco.pay(checkoutId, { amount: 100 })
    expect(delivery.status).toBe(200)
    expect(JSON.parse(delivery.answer)).toEqual({ outcome: 'amount-mismatch', replayed: false })
    expect((await registrationRow(registration.reference)).status).toBe('awaiting-payment')
    const recorded = await paymentQueries(testDb.db.kysely).selectFrom('payment_webhooks').selectAll().executeTakeFirstOrThrow()
    expect(recorded).toMatchObject({ webhook_id: delivery.webhookId, outcome: 'amount-mismatch', amount_cents: 100, currency: 'ZAR', checkout_id: checkoutId })
    const [problem] = await mails('payment.problem')
    expect(problem?.to).toEqual([ORGANISER])
    expect(problem?.text).toContain('Amount due: R 20 677.00 (ZAR)')
    expect(problem?.text).toContain('Amount received: R 1.00 (ZAR)')
    expect(await mails('payment.receipt')).toHaveLength(0)

    const wrongCurrency = await yoco.pay(checkoutId, { currency: 'USD' })
    expect(JSON.parse(wrongCurrency.answer)).toMatchObject({ outcome: 'amount-mismatch' })
    expect((await registrationRow(registration.reference)).status).toBe('awaiting-payment')
  })

  it('rejects forged and stale webhooks with a 4xx and changes nothing', async () => {
    const registration = await cardRegistration()
    const { checkoutId } = await startYocoCheckout(registration.reference, registration.secret)
    const body = JSON.stringify({
      id: 'evt_forged',
      type: 'payment.succeeded',
      payload: { id: 'p_forged', amount: 2067700, currency: 'ZAR', status: 'succeeded', metadata: { checkoutId } },
    })

    const post = (headers: Record<string, string>, text = body) =>
      fetch(yoco.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: text })

    const forged = await post(signed(`whsec_${Buffer.from('not the real secret at all').toString('base64')}`, 'msg_forged', body))
    expect(forged.status).toBe(400)

    const sixMinutesAgo = new Date(Date.now() - 6 * 60_000)
    const stale = await post(signed(yoco.webhookSecret, 'msg_stale', body, sixMinutesAgo))
    expect(stale.status).toBe(400)

    const sixMinutesAhead = new Date(Date.now() + 6 * 60_000)
    expect((await post(signed(yoco.webhookSecret, 'msg_future', body, sixMinutesAhead))).status).toBe(400)

    const tampered = signed(yoco.webhookSecret, 'msg_tampered', body)
    expect((await post(tampered, body.replace('2067700', '2067701'))).status).toBe(400)

    expect((await post({})).status).toBe(400)

    expect((await registrationRow(registration.reference)).status).toBe('awaiting-payment')
    expect(await paymentQueries(testDb.db.kysely).selectFrom('payment_webhooks').select('webhook_id').execute()).toHaveLength(0)

    // The same body, properly signed and fresh, is accepted.
    expect(await handleWebhook(payments, body, signed(yoco.webhookSecret, 'msg_real', body))).toEqual({ outcome: 'paid', replayed: false })
  })

  it('acknowledges webhooks about unknown checkouts and other events without acting on them', async () => {
    const unknown = JSON.stringify({
      id: 'evt_1',
      type: 'payment.succeeded',
      payload: { id: 'p_1', amount: 900, currency: 'ZAR', metadata: { checkoutId: 'ch_nobody' } },
    })
    expect(await handleWebhook(payments, unknown, signed(yoco.webhookSecret, 'msg_unknown', unknown))).toEqual({ outcome: 'unknown-checkout', replayed: false })
    const refund = JSON.stringify({ id: 'evt_2', type: 'refund.succeeded', payload: { id: 'r_1' } })
    expect(await handleWebhook(payments, refund, signed(yoco.webhookSecret, 'msg_refund', refund))).toEqual({ outcome: 'ignored', replayed: false })
  })

  it.each([
    ['a body that is a list', '[1, 2]', null],
    ['an event without a payload', JSON.stringify({ type: 'payment.succeeded' }), null],
    ['an amount sent as text', JSON.stringify({ type: 'payment.succeeded', payload: { id: 'p_2', amount: '900', metadata: {} } }), null],
    ['an amount in fractions of a cent', JSON.stringify({ type: 'payment.succeeded', payload: { id: 'p_3', amount: 900.5, metadata: null } }), null],
    [
      'a payment of a checkout no one started',
      JSON.stringify({ type: 'payment.succeeded', payload: { id: 'p_4', amount: 900, metadata: { checkoutId: 7 } } }),
      900,
    ],
  ])('records %s whole and acts on nothing it could not read', async (_case, body, amountCents) => {
    const result = await handleWebhook(payments, body, signed(yoco.webhookSecret, 'msg_odd', body))
    expect(result).toMatchObject({ replayed: false })
    expect(['ignored', 'unknown-checkout']).toContain(result.outcome)
    const stored = await paymentQueries(testDb.db.kysely)
      .selectFrom('payment_webhooks')
      .selectAll()
      .where('webhook_id', '=', 'msg_odd')
      .executeTakeFirstOrThrow()
    expect(stored).toMatchObject({ body, amount_cents: amountCents, checkout_id: null })
  })

  it('reports Yoco refusing the checkout with its message', async () => {
    const registration = await cardRegistration()
    payments = paymentContext(createYocoProvider({ secretKey: 'sk_test_wrong', webhookSecret: yoco.webhookSecret, apiBase: yoco.apiBase }))
    const error = await startCheckout(payments, registration.reference, registration.secret).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(PaymentError)
    expect(error).toMatchObject({ code: 'provider-failed', message: 'The payment provider answered 403: A key is required, but has not been specified.' })
    expect(await paymentQueries(testDb.db.kysely).selectFrom('payment_checkouts').select('id').execute()).toHaveLength(0)

    await expect(startCheckout(payments, registration.reference, 'wrong-secret')).rejects.toMatchObject({ code: 'not-found' })
  })

  it('offers a new checkout with a new idempotency key after the visitor cancelled', async () => {
    const registration = await cardRegistration()
    const first = await startYocoCheckout(registration.reference, registration.secret)
    await recordReturn(payments, registration.reference, registration.secret, 'cancel')
    const second = await startYocoCheckout(registration.reference, registration.secret)
    expect(second.checkoutId).not.toBe(first.checkoutId)
    expect(yoco.requests.map((request) => request.idempotencyKey)).toEqual([
      `registration-${registration.reference}-checkout-1`,
      `registration-${registration.reference}-checkout-2`,
    ])
  })

  it('runs the sandbox checkout through the same signed webhook handling', async () => {
    payments = paymentContext(createSandboxProvider({ links }))
    const registration = await cardRegistration()
    const started = await startYocoCheckout(registration.reference, registration.secret)
    expect(started.redirectUrl).toBe(links.sandboxCheckout(started.checkoutId))
    expect(await getSandboxCheckout(payments, started.checkoutId)).toMatchObject({
      reference: registration.reference,
      amountCents: 2067700,
      currency: 'ZAR',
      status: 'open',
    })

    expect(await completeSandboxCheckout(payments, started.checkoutId, 'cancel')).toBe(links.paymentReturn(registration, 'cancel'))
    expect(await completeSandboxCheckout(payments, started.checkoutId, 'fail')).toBe(links.paymentReturn(registration, 'failure'))
    expect((await registrationRow(registration.reference)).status).toBe('awaiting-payment')

    expect(await completeSandboxCheckout(payments, started.checkoutId, 'pay')).toBe(links.paymentReturn(registration, 'success'))
    expect((await registrationRow(registration.reference)).status).toBe('paid')
    // Pressing Pay again pays nothing twice.
    expect(await completeSandboxCheckout(payments, started.checkoutId, 'pay')).toBe(links.paymentReturn(registration, 'success'))
    expect(await paymentQueries(testDb.db.kysely).selectFrom('payment_webhooks').select('webhook_id').execute()).toHaveLength(1)
    const [receipt] = await mails('payment.receipt')
    expect(receipt?.text).toContain('This was a test payment: no card was charged.')
    const [webhook] = await paymentQueries(testDb.db.kysely).selectFrom('payment_webhooks').select(['outcome', 'amount_cents']).execute()
    expect(webhook).toEqual({ outcome: 'paid', amount_cents: 2067700 })

    // A webhook signed with another secret than the sandbox's is rejected like any forgery.
    const body = JSON.stringify({ type: 'payment.succeeded', payload: { amount: 2067700, currency: 'ZAR', metadata: { checkoutId: started.checkoutId } } })
    await expect(handleWebhook(payments, body, signed(yoco.webhookSecret, 'msg_x', body))).rejects.toBeInstanceOf(WebhookRejectedError)
    expect(await getSandboxCheckout(payments, 'ch_unknown')).toBeUndefined()
  })
})

function signed(secret: string, webhookId: string, body: string, at = new Date()): Record<string, string> {
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(webhookId, at, body),
  }
}
