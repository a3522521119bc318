import { randomBytes } from 'node:crypto'
import {
  businessClock,
  cardChargeStanding,
  cardRefundMail,
  enqueueMails,
  findCardRefund,
  findRegistrationByReferenceAndSecret,
  issueCertificatesOfPaidRegistration,
  paymentProblemMail,
  paymentReceiptMail,
  recordCardPayment,
  recordCardRefundAnswer,
  registrantAddressErased,
  runInCommandTransaction,
  wallClock,
  type AuditWriter,
  type CardRefund,
  type CardRefundState,
  type Database,
  type PaidRegistration,
  type PaymentReturnOutcome,
  type QueuedMail,
  type RegistrationRow,
  type SiteSettingsForMail,
  type StaffActor,
} from '@events/core'
import { paymentQueries, paymentTransaction } from './db/database.ts'
import type { WebhookOutcome } from './db/payment-webhooks.ts'
import { formatRand } from '@events/pricing'
import type { Transaction } from 'kysely'
import { PaymentError, type CardRefundResult, type PaymentContext, type SandboxAction, type StartCheckoutResult, type WebhookResult } from './context.ts'
import { PaymentProviderError } from './provider.ts'
import { sandboxCheckoutRow } from './queries.ts'
import { signWebhook, verifyWebhook, WebhookRejectedError, type WebhookHeaders } from './webhook.ts'
import * as z from 'zod/mini'

// What a webhook's event says, read leniently: the provider sends other event types and fields, and an event this
// does not understand is still recorded (with its whole body) and answered, as ignored.
const optionalText = z.catch(z.nullable(z.string()), null)
const NO_PAYLOAD = { id: null, amount: null, currency: null, mode: undefined, metadata: { checkoutId: null } }
const paymentPayloadSchema = z.object({
  id: optionalText,
  // Cents as a safe integer; anything else is no amount, and a checkout's amount is then not confirmed.
  amount: z.catch(z.nullable(z.int()), null),
  currency: optionalText,
  mode: z.catch(z.optional(z.string()), undefined),
  metadata: z.catch(z.object({ checkoutId: optionalText }), { checkoutId: null }),
})
const paymentEventSchema = z.pipe(
  z.catch(z.object({ type: z.catch(z.string(), ''), payload: z.catch(paymentPayloadSchema, NO_PAYLOAD) }), { type: '', payload: NO_PAYLOAD }),
  z.transform(({ type, payload }) => ({
    type,
    paymentId: payload.id,
    amountCents: payload.amount,
    currency: payload.currency,
    checkoutId: payload.metadata.checkoutId,
    testMode: payload.mode !== 'live',
  })),
)
type PaymentEvent = z.output<typeof paymentEventSchema>

/** Records the provider's payment on the checkout it paid. */
async function markCheckoutSucceeded(transaction: Transaction<Database>, checkoutId: string, paymentId: string | null, at: Date): Promise<void> {
  await paymentTransaction(transaction)
    .updateTable('payment_checkouts')
    .set({ status: 'succeeded', payment_id: paymentId, updated_at: at.toISOString() })
    .where('id', '=', checkoutId)
    .execute()
}

function randomId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`
}

/** Creates (or reuses) the card checkout for the stored amount of a registration. */
export async function startCheckout(context: PaymentContext, reference: string, secret: string): Promise<StartCheckoutResult> {
  const { db, provider } = context
  const registration = await findRegistrationByReferenceAndSecret(db.kysely, reference, secret)
  if (!registration) throw new PaymentError('not-found', 'This registration does not exist.')
  const standing = await cardChargeStanding(db.kysely, registration)
  if (standing === 'paid') return { kind: 'already-paid', statusUrl: context.links.registrationStatus(registration) }
  if (standing === 'not-owed') return { kind: 'pay-by-transfer', statusUrl: context.links.registrationStatus(registration) }

  const latest = await paymentQueries(db.kysely)
    .selectFrom('payment_checkouts')
    .selectAll()
    .where('registration_id', '=', registration.id)
    .orderBy('attempt', 'desc')
    .executeTakeFirst()
  if (latest && latest.status === 'open' && latest.provider === provider.name && latest.amount_cents === registration.total_cents) {
    return { kind: 'redirect', redirectUrl: latest.redirect_url, checkoutId: latest.id, reused: true }
  }

  const attempt = (latest?.attempt ?? 0) + 1
  let created
  try {
    created = await provider.createCheckout({
      amountCents: registration.total_cents,
      subtotalCents: registration.subtotal_cents,
      taxCents: registration.vat_cents,
      currency: registration.currency,
      successUrl: context.links.paymentReturn(registration, 'success'),
      cancelUrl: context.links.paymentReturn(registration, 'cancel'),
      failureUrl: context.links.paymentReturn(registration, 'failure'),
      metadata: { registrationReference: registration.reference, attempt: String(attempt) },
      // Two clicks at once (or a retry after a timeout) send the same key and get the same checkout.
      idempotencyKey: `registration-${registration.reference}-checkout-${attempt}`,
    })
  } catch (error) {
    throw new PaymentError('provider-failed', (error as Error).message)
  }
  const at = wallClock(context).toISOString()
  const inserted = await paymentQueries(db.kysely)
    .insertInto('payment_checkouts')
    .values({
      id: created.id,
      registration_id: registration.id,
      provider: provider.name,
      attempt,
      amount_cents: registration.total_cents,
      currency: registration.currency,
      redirect_url: created.redirectUrl,
      status: 'open',
      payment_id: null,
      created_at: at,
      updated_at: at,
    })
    .onConflict((conflict) => conflict.doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!inserted) {
    // A concurrent request stored this attempt first: answer its checkout.
    const stored = await paymentQueries(db.kysely)
      .selectFrom('payment_checkouts')
      .select(['id', 'redirect_url'])
      .where('registration_id', '=', registration.id)
      .where('attempt', '=', attempt)
      .executeTakeFirstOrThrow()
    return { kind: 'redirect', redirectUrl: stored.redirect_url, checkoutId: stored.id, reused: true }
  }
  return { kind: 'redirect', redirectUrl: created.redirectUrl, checkoutId: created.id, reused: false }
}

function paidRegistration(context: PaymentContext, row: RegistrationRow): PaidRegistration {
  return {
    reference: row.reference,
    eventTitle: row.event_title,
    eventStart: row.event_start,
    eventEnd: row.event_end,
    companyName: row.company_name,
    purchaseOrderNumber: row.purchase_order_number,
    email: row.email,
    totalCents: row.total_cents,
    currency: row.currency,
    statusUrl: context.links.registrationStatus(row),
  }
}

async function applyPayment(
  context: PaymentContext,
  transaction: Transaction<Database>,
  webhookId: string,
  event: PaymentEvent,
  settings: SiteSettingsForMail,
  at: Date,
): Promise<{ outcome: WebhookOutcome; registrationId: string | null; mails: QueuedMail[] }> {
  if (event.type !== 'payment.succeeded') return { outcome: 'ignored', registrationId: null, mails: [] }
  const checkout = event.checkoutId
    ? await paymentTransaction(transaction).selectFrom('payment_checkouts').selectAll().where('id', '=', event.checkoutId).executeTakeFirst()
    : undefined
  if (!checkout) return { outcome: 'unknown-checkout', registrationId: null, mails: [] }
  const recorded = await recordCardPayment(transaction, {
    registrationId: checkout.registration_id,
    amountCents: event.amountCents,
    currency: event.currency,
    // The day the money arrived is dated by the business clock, as bank transfers are.
    at: businessClock(context),
    lock: context.db.dialect === 'postgres',
  })
  const { registration } = recorded
  const organiserEmail = context.organiserEmail || settings.email
  const problem = (text: string): QueuedMail => ({
    topic: 'payment.problem',
    mail: paymentProblemMail({
      registration: paidRegistration(context, registration),
      problem: text,
      receivedAmountCents: event.amountCents,
      receivedCurrency: event.currency,
      checkoutId: checkout.id,
      paymentId: event.paymentId,
      webhookId,
      organiserEmail,
      settings,
    }),
  })
  const samePaymentSeenBefore = async () =>
    (await paymentTransaction(transaction)
      .selectFrom('payment_checkouts')
      .select('id')
      .where('registration_id', '=', registration.id)
      .where('payment_id', '=', event.paymentId ?? '')
      .executeTakeFirst()) !== undefined

  if (recorded.outcome === 'amount-mismatch') {
    return {
      outcome: 'amount-mismatch',
      registrationId: registration.id,
      mails: [
        problem(
          'A card payment arrived whose amount or currency differs from the registration total. The registration was not marked paid; please check the payment with the provider.',
        ),
      ],
    }
  }
  if (recorded.outcome === 'already-paid') {
    if (await samePaymentSeenBefore()) return { outcome: 'already-paid', registrationId: registration.id, mails: [] }
    return {
      outcome: 'duplicate-payment',
      registrationId: registration.id,
      mails: [problem('A second card payment arrived for a registration that was already paid. The registrant may need a refund.')],
    }
  }
  if (recorded.outcome === 'not-owed') {
    if (await samePaymentSeenBefore()) return { outcome: 'payment-not-owed', registrationId: registration.id, mails: [] }
    // The payment is kept on its checkout, so staff can see what was charged and refund it.
    await markCheckoutSucceeded(transaction, checkout.id, event.paymentId, at)
    return {
      outcome: 'payment-not-owed',
      registrationId: registration.id,
      mails: [
        problem(
          `A card payment of the whole total arrived when the card total was no longer owed: ${formatRand(recorded.paidCents)} had been paid by bank transfer and ${formatRand(recorded.outstandingCents)} was outstanding (a cancellation may have credited part of it). The registration was not marked paid and the payment was not counted; please refund the card payment with the provider.`,
        ),
      ],
    }
  }

  await markCheckoutSucceeded(transaction, checkout.id, event.paymentId, at)
  if (registrantAddressErased(registration)) return { outcome: 'paid', registrationId: registration.id, mails: [] }
  const receipt = paymentReceiptMail({
    registration: paidRegistration(context, registration),
    paidAt: businessClock(context),
    paymentId: event.paymentId ?? checkout.id,
    invoiceNumber: recorded.invoiceNumber,
    invoiceAttachment: recorded.invoiceAttachment,
    testMode: event.testMode,
    settings,
  })
  return { outcome: 'paid', registrationId: registration.id, mails: [{ topic: 'payment.receipt', mail: receipt }] }
}

/** Verifies and applies a provider webhook; throws WebhookRejectedError for a forged or stale one. */
export async function handleWebhook(context: PaymentContext, rawBody: string, headers: WebhookHeaders): Promise<WebhookResult> {
  const { db, provider, catalog } = context
  const { webhookId, event: body } = verifyWebhook(provider.webhookSecret, rawBody, headers)
  if (webhookId.length > 255) throw new WebhookRejectedError('Webhook rejected: webhook-id too long')
  const event = paymentEventSchema.parse(body)
  const settings = await catalog.getSettings()
  const at = wallClock(context)
  const result = await db.writeTransaction(async (transaction): Promise<WebhookResult & { queued: boolean; registrationId?: string | null }> => {
    // The webhook id is claimed first: a redelivery (or a concurrent copy) finds it taken and changes nothing.
    const claimed = await paymentTransaction(transaction)
      .insertInto('payment_webhooks')
      .values({
        webhook_id: webhookId,
        event_type: event.type.slice(0, 100),
        checkout_id: event.checkoutId,
        registration_id: null,
        amount_cents: event.amountCents,
        currency: event.currency,
        outcome: 'ignored',
        body: rawBody,
        received_at: at.toISOString(),
      })
      .onConflict((conflict) => conflict.column('webhook_id').doNothing())
      .returning('webhook_id')
      .executeTakeFirst()
    if (!claimed) {
      const earlier = await paymentTransaction(transaction)
        .selectFrom('payment_webhooks')
        .select('outcome')
        .where('webhook_id', '=', webhookId)
        .executeTakeFirstOrThrow()
      return { outcome: earlier.outcome, replayed: true, queued: false }
    }
    const applied = await applyPayment(context, transaction, webhookId, event, settings, at)
    await paymentTransaction(transaction)
      .updateTable('payment_webhooks')
      .set({ outcome: applied.outcome, registration_id: applied.registrationId })
      .where('webhook_id', '=', webhookId)
      .execute()
    await enqueueMails(transaction, applied.registrationId ?? webhookId, applied.mails, at)
    return { outcome: applied.outcome, replayed: false, queued: applied.mails.length > 0, registrationId: applied.registrationId }
  })
  if (result.queued) context.onMailQueued?.()
  if (result.outcome === 'paid' && !result.replayed) {
    context.onPaymentSucceeded?.()
    // Paid in full after the event: the certificates its delegates were waiting for are issued now.
    if (result.registrationId && (await issueCertificatesOfPaidRegistration(context, result.registrationId)) > 0) context.onMailQueued?.()
  }
  return { outcome: result.outcome, replayed: result.replayed }
}

/** The visitor came back from the provider; a cancelled or failed checkout is not offered again. */
export async function recordReturn(context: PaymentContext, reference: string, secret: string, outcome: PaymentReturnOutcome): Promise<void> {
  const { db } = context
  if (outcome === 'success') return
  const registration = await findRegistrationByReferenceAndSecret(db.kysely, reference, secret)
  if (!registration) return
  await paymentQueries(db.kysely)
    .updateTable('payment_checkouts')
    .set({ status: 'abandoned', updated_at: wallClock(context).toISOString() })
    .where('registration_id', '=', registration.id)
    .where('status', '=', 'open')
    .execute()
}

/** Completes a sandbox checkout: Pay sends a signed payment.succeeded webhook through handleWebhook. Answers where the visitor goes next. */
export async function completeSandboxCheckout(context: PaymentContext, checkoutId: string, action: SandboxAction): Promise<string | undefined> {
  const row = await sandboxCheckoutRow(context, checkoutId)
  if (!row) return undefined
  if (action === 'cancel') return context.links.paymentReturn(row, 'cancel')
  if (action === 'fail') return context.links.paymentReturn(row, 'failure')
  // Like a provider's page, a checkout is paid once: a second press of Pay just goes back to the site.
  if (row.status === 'succeeded') return context.links.paymentReturn(row, 'success')
  const at = wallClock(context)
  // The same event Yoco sends, signed with the sandbox's secret and handled by the same code.
  const body = JSON.stringify({
    id: randomId('evt'),
    type: 'payment.succeeded',
    createdDate: at.toISOString(),
    payload: {
      id: randomId('p'),
      type: 'payment',
      createdDate: at.toISOString(),
      amount: row.amount_cents,
      currency: row.currency,
      status: 'succeeded',
      mode: 'test',
      metadata: { checkoutId: row.id, registrationReference: row.reference },
    },
  })
  await handleWebhook(context, body, { ...signWebhook(context.provider.webhookSecret, randomId('msg'), body, new Date()) })
  return context.links.paymentReturn(row, 'success')
}

/**
 * Sends a cancellation's pending (or refused) card refund to the provider and records its answer. A refund that could
 * not reach the provider stays pending with the reason, and is retried with the same idempotency key.
 */
export async function refundCard(context: PaymentContext, refundId: string, staff?: StaffRefundRequest): Promise<CardRefundResult> {
  const { db, provider } = context
  const refund = await findCardRefund(db.kysely, refundId)
  if (!refund) throw new PaymentError('not-found', 'This card refund does not exist.')
  const before: CardRefundState = {
    status: refund.status,
    attempts: refund.attempts,
    provider_refund_id: refund.provider_refund_id,
    outcome_message: refund.outcome_message,
  }
  const answer = { registrationId: refund.registration_id, amountCents: refund.amount_cents, before }
  if (refund.status !== 'pending' && refund.status !== 'refused') return { ...answer, after: before }
  // A retry after a refusal is a new request; a retry after no answer is the same one, so Yoco refunds at most once.
  const attempt = refund.status === 'refused' ? refund.attempts + 1 : Math.max(refund.attempts, 1)
  let update: CardRefundState
  try {
    const result = await provider.refund({
      checkoutId: refund.checkout_id,
      amountCents: refund.amount_cents,
      metadata: { refundId: refund.id, cancellationId: refund.cancellation_id },
      idempotencyKey: `refund-${refund.id}-attempt-${attempt}`,
    })
    update =
      result.outcome === 'succeeded'
        ? { status: 'succeeded', attempts: attempt, provider_refund_id: result.refundId, outcome_message: result.message }
        : { status: 'refused', attempts: attempt, provider_refund_id: null, outcome_message: result.message }
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error
    update = { status: 'pending', attempts: attempt, provider_refund_id: null, outcome_message: error.message }
  }
  // A refund is money given back, dated by the business clock as every money date is.
  const at = businessClock(context)
  const settings = await context.catalog.getSettings()
  const record = async (transaction: Transaction<Database>) => {
    const recorded = await recordCardRefundAnswer(transaction, refund, update, at)
    const mailQueued =
      recorded.status === 'succeeded' && before.status !== 'succeeded' && (await queueCardRefundMail(context, transaction, refund, settings, at))
    return { recorded, mailQueued }
  }
  if (!staff) {
    const { recorded, mailQueued } = await db.writeTransaction(record)
    if (mailQueued) context.onMailQueued?.()
    return { ...answer, after: recorded }
  }
  // The provider's answer and the audit row of the member who asked for it are kept together.
  const after = await runInCommandTransaction({ ...context, audit: staff.audit }, staff.actor, async (transaction) => {
    const { recorded, mailQueued } = await record(transaction)
    return { result: recorded, mailQueued, audit: [{ action: 'card-refund-requested', subjectType: 'refund', subjectId: refund.id, before, after: recorded }] }
  })
  return { ...answer, after }
}

/** Queues the registrant's notice that the card refund was made; false when their address was erased. */
async function queueCardRefundMail(
  context: PaymentContext,
  transaction: Transaction<Database>,
  refund: CardRefund,
  settings: SiteSettingsForMail,
  refundedOn: Date,
): Promise<boolean> {
  const registration = await transaction.selectFrom('registrations').selectAll().where('id', '=', refund.registration_id).executeTakeFirstOrThrow()
  if (registrantAddressErased(registration)) return false
  const mail = cardRefundMail({
    email: registration.email,
    reference: registration.reference,
    eventTitle: registration.event_title,
    amountCents: refund.amount_cents,
    refundedOn,
    statusUrl: context.links.registrationStatus(registration),
    settings,
  })
  await enqueueMails(transaction, registration.id, [{ topic: 'payment.card-refund', mail }], wallClock(context))
  return true
}

/** The staff member who asks for a card refund, and the audit log their request is kept in. */
export interface StaffRefundRequest {
  actor: StaffActor
  audit: AuditWriter
}
