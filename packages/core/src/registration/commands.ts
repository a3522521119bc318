import { isTableOption, type Attendance, type AttendanceQuote } from '@events/pricing'
import type { RegistrationEvent, SiteSettingsForMail } from '../catalog.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'
import { checkQuotation, quotationNumberOf } from '../quotes/quotes.ts'
import { ValidationError } from '../errors.ts'
import { newId, sha256Hex } from '../ids.ts'
import { issueTaxInvoice, prepareTaxInvoice } from '../invoice/issue-invoice.ts'
import { newDelegatePasses, passForMail } from '../event-days/passes.ts'
import { registrationMailJobs, type StoredRegistrationMailContext } from '../mail/registration-mails.ts'
import { outboxRowsOf } from '../outbox/enqueue.ts'
import { businessClock, wallClock } from '../backoffice/context.ts'
import { isRecord, singleLine } from '../validation/fields.ts'
import { CURRENCY, paysByCard, receiptOf, type CreateRegistrationResult, type RegistrationContext } from './model.ts'
import { priceRegistration } from './pricing.ts'
import { checkDiscountCode, claimDiscountUse, discountCodeOf, discountDescription, type DiscountRequest } from '../discounts/codes.ts'
import type { DiscountCodeRow } from '../db/tables/discount-codes.ts'
import { generateReference, generateSecret } from './reference.ts'
import { lockEventSeats, takeSeats } from '../seats/seats.ts'
import { claimOffer, markOfferRegistered, offerFreedSeats, WAITING_LIST_OFFER_PARAM } from '../seats/waiting-list.ts'
import { readEventSlug, validateRegistration, type RegistrationSubmission } from '../submissions/registration.ts'

/** How long an identical submission without a token counts as a resubmission of the first. */
export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000
const MAX_IDEMPOTENCY_KEY_LENGTH = 255
const REFERENCE_ATTEMPTS = 10

export interface CreateRegistrationOptions {
  /** The form's hidden submission token or the API's Idempotency-Key header. */
  idempotencyKey?: string | undefined
}

interface SubmissionClaim {
  key: string
  expiresAt: string | null
}

/** A validated and priced registration, ready to be stored. */
interface PreparedRegistration {
  event: RegistrationEvent
  settings: SiteSettingsForMail
  submission: RegistrationSubmission
  /** The registration's option's label: its venue delegates', or online's; both joined when it mixes them. */
  optionLabel: string
  optionLabels: Partial<Record<Attendance, string>>
  /** A line per kind of attendance, each delegate's price after the discount code's discount when one was used. */
  price: AttendanceQuote
  /** The discount code the registration uses, checked before its transaction and taken again under its lock. */
  discount: { request: DiscountRequest; code: DiscountCodeRow } | undefined
  claim: SubmissionClaim
  payloadHash: string
  /** The business date the registration was checked at, which also dates its tax invoice. */
  siteToday: Date
  /** The private token of the waiting-list offer the registration is made through, whose held seats it takes. */
  offerToken: string | undefined
  /** The quotation it was made from, as printed; '' when none. */
  quotationNumber: string
}

function payloadHashOf(submission: RegistrationSubmission, discountCode: string, quotationNumber: string): string {
  // Built field by field so the hash does not depend on the order the client sent its keys in.
  return sha256Hex(
    JSON.stringify([
      submission.eventSlug,
      submission.code,
      submission.companyName,
      submission.address,
      submission.email.toLowerCase(),
      submission.tel,
      submission.vatNumber,
      submission.delegates.map((delegate) => [delegate.name, delegate.position, delegate.email.toLowerCase()]),
      submission.attendanceOption,
      // Only when some delegate attends otherwise than the option, so a single-kind booking hashes as it did before.
      ...(isMixed(submission) ? [['attendance', submission.delegates.map((delegate) => delegate.attendance)]] : []),
      submission.paymentMethod,
      // Only when given, so a submission without one hashes as it did before purchase order numbers existed.
      ...(submission.purchaseOrderNumber === '' ? [] : [submission.purchaseOrderNumber]),
      // Likewise only when given, and tagged so it cannot be read as a purchase order number.
      ...(discountCode === '' ? [] : [['discountCode', discountCode]]),
      ...(quotationNumber === '' ? [] : [['quotationNumber', quotationNumber]]),
    ]),
  )
}

/** Whether a booking's delegates attend in more than one way (some at the venue, some online). */
function isMixed(submission: RegistrationSubmission): boolean {
  return new Set(submission.delegates.map((delegate) => delegate.attendance)).size > 1
}

/** How many of a booking's delegates attend each way. */
function delegatesByAttendance(submission: RegistrationSubmission): Record<Attendance, number> {
  const count = (attendance: Attendance) => submission.delegates.filter((delegate) => delegate.attendance === attendance).length
  return { venue: count('venue'), online: count('online') }
}

function claimFor(idempotencyKey: string | undefined, payloadHash: string, now: Date): SubmissionClaim {
  const key = singleLine(idempotencyKey)
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ValidationError('invalid-request', [{ path: 'idempotencyKey', code: 'too-long', maximum: MAX_IDEMPOTENCY_KEY_LENGTH }])
  }
  if (key !== '') return { key: `token:${sha256Hex(key)}`, expiresAt: null }
  return { key: `payload:${payloadHash}`, expiresAt: new Date(now.getTime() + DUPLICATE_WINDOW_MS).toISOString() }
}

async function insertRegistration(context: RegistrationContext, prepared: PreparedRegistration): Promise<{ replayOf: string } | { created: RegistrationRow }> {
  const { db } = context
  const nextReference = context.generateReference ?? generateReference
  const { event, settings, submission, optionLabel, optionLabels, price, discount, claim, payloadHash, siteToday, offerToken, quotationNumber } = prepared
  const mainLine = price.lines[0]!
  const createdAt = wallClock(context)
  const createdAtIso = createdAt.toISOString()
  const registrationId = newId()
  return db.writeTransaction(async (transaction) => {
    // A claim whose duplicate window has passed is taken over; a token's claim (no expiry) or a fresh one stays,
    // and nothing is returned. On PostgreSQL a concurrent claim of the same key waits here for the other
    // transaction, then finds its fresh claim.
    const claimed = await transaction
      .insertInto('submission_keys')
      .values({ key: claim.key, registration_id: registrationId, payload_hash: payloadHash, expires_at: claim.expiresAt, created_at: createdAtIso })
      .onConflict((conflict) =>
        conflict
          .column('key')
          .doUpdateSet((eb) => ({
            registration_id: eb.ref('excluded.registration_id'),
            payload_hash: eb.ref('excluded.payload_hash'),
            expires_at: eb.ref('excluded.expires_at'),
            created_at: eb.ref('excluded.created_at'),
          }))
          .where('submission_keys.expires_at', '<=', createdAtIso),
      )
      .returning('key')
      .executeTakeFirst()
    if (!claimed) {
      const existing = await transaction
        .selectFrom('submission_keys')
        .select(['registration_id', 'payload_hash'])
        .where('key', '=', claim.key)
        .executeTakeFirstOrThrow()
      if (existing.payload_hash !== payloadHash) throw new ValidationError('idempotency-conflict')
      return { replayOf: existing.registration_id }
    }
    // The offer is checked under the event's seat lock, so two registrations through one offer cannot both use it.
    if (offerToken !== undefined) await lockEventSeats(transaction, event.id, createdAt)
    const offer = offerToken === undefined ? undefined : await claimOffer(transaction, offerToken, event.id, siteToday)
    await takeSeats(transaction, event, delegatesByAttendance(submission), createdAt, offer?.held)
    // A code's uses are counted under its own lock, like seats: the code checked before may be spent or voided by now.
    if (discount && (await claimDiscountUse(transaction, discount.request, createdAt)).id !== discount.code.id) {
      throw new ValidationError('discount-code-unknown', [{ path: 'discountCode', code: 'discount-code-unknown' }])
    }
    // Nothing to pay (a sponsor's complimentary seat) is paid in full from the start: no payment page, no reminder.
    const paidInFull = price.totalCents === 0

    const row: RegistrationRow = {
      id: registrationId,
      reference: '',
      secret: generateSecret(),
      status: paidInFull ? 'paid' : 'awaiting-payment',
      event_id: event.id,
      event_slug: event.slug,
      event_kind: event.kind,
      event_title: event.title,
      event_start: event.start,
      event_end: event.end,
      venue_name: event.venue.name,
      venue_address: event.venue.address ?? '',
      submitted_code: submission.code,
      company_name: submission.companyName,
      address: submission.address,
      email: submission.email,
      tel: submission.tel,
      vat_number: submission.vatNumber,
      purchase_order_number: submission.purchaseOrderNumber,
      quotation_number: quotationNumber,
      attendance_option: submission.attendanceOption,
      attendance_option_label: optionLabel,
      payment_method: submission.paymentMethod,
      delegate_count: submission.delegates.length,
      // The venue delegates' price (or the table's) when it has any, else online's; each delegate keeps their own.
      unit_amount_cents: mainLine.unitAmountCents,
      subtotal_cents: price.subtotalCents,
      vat_cents: price.vatCents,
      total_cents: price.totalCents,
      vat_rate: price.vatRate,
      currency: CURRENCY,
      payload_hash: payloadHash,
      legal_agreement_accepted_at: createdAtIso,
      created_at: createdAtIso,
      updated_at: createdAtIso,
      paid_at: paidInFull ? createdAtIso : null,
      cancelled_at: null,
    }
    for (let attempt = 0; attempt < REFERENCE_ATTEMPTS && row.reference === ''; attempt++) {
      const reference = nextReference()
      const inserted = await transaction
        .insertInto('registrations')
        .values({ ...row, reference })
        .onConflict((conflict) => conflict.column('reference').doNothing())
        .returning('id')
        .executeTakeFirst()
      if (inserted) row.reference = reference
    }
    if (row.reference === '') throw new Error('Could not find an unused registration reference')
    if (offer) await markOfferRegistered(transaction, offer, row, createdAt)

    const delegateRows = submission.delegates.map((delegate, ordinal) => ({
      id: newId(),
      registration_id: registrationId,
      ordinal,
      name: delegate.name,
      position: delegate.position,
      email: delegate.email,
      professional_registration_number: event.cpd && delegate.professionalRegistrationNumber !== '' ? delegate.professionalRegistrationNumber : null,
      attendance: delegate.attendance,
      unit_amount_cents: unitAmountOf(price, delegate.attendance),
    }))
    const delegates = transaction.insertInto('registration_delegates').values(delegateRows)
    const passRows = newDelegatePasses(
      registrationId,
      delegateRows.map((delegate) => delegate.id),
      createdAt,
    )
    const passes = transaction.insertInto('delegate_passes').values(passRows)
    const discountUsed = discount && {
      description: discountDescription(discount.code),
      fullSubtotalCents: price.fullSubtotalCents,
      discountCents: price.discountCents,
      complimentary: discount.code.kind === 'complimentary',
    }
    const discountRow = discountUsed && {
      registration_id: registrationId,
      discount_code_id: discount.code.id,
      description: discountUsed.description,
      complimentary: discountUsed.complimentary ? 1 : 0,
      full_subtotal_cents: discountUsed.fullSubtotalCents,
      discount_cents: discountUsed.discountCents,
      created_at: createdAtIso,
    }
    if (discountRow) await transaction.insertInto('registration_discounts').values(discountRow).execute()

    const invoice = prepareTaxInvoice({
      registrationId,
      reference: row.reference,
      event,
      settings,
      submission,
      optionLabels,
      quote: price,
      issuedAt: siteToday,
      discount: discountUsed,
    })
    const mailContext: StoredRegistrationMailContext = {
      reference: row.reference,
      statusUrl: context.links.registrationStatus(row),
      paymentUrl: paysByCard(row.payment_method) && !paidInFull ? context.links.registrationPayment(row) : undefined,
      privacyUrl: context.links.privacyNotice(),
      organiserEmail: context.organiserEmail || settings.email,
      event,
      settings,
      submission,
      optionLabel,
      quote: price,
      invoice: { issueDate: invoice.data.issueDate, dueDate: invoice.data.dueDate },
      passes: passRows.map((pass, ordinal) => passForMail(context.links, pass, ordinal)),
      discount: discountUsed,
    }
    const mailData = transaction.insertInto('registration_mail_data').values({ registration_id: registrationId, context_json: JSON.stringify(mailContext) })
    const mails = registrationMailJobs(submission).map((job) => ({ topic: job.template, mail: job }))
    const outbox = transaction.insertInto('outbox_messages').values(outboxRowsOf(registrationId, mails, createdAt))
    // Last, right before the COMMIT, with the writes above (on PostgreSQL in the same statement): taking the invoice
    // number locks its counter until then (insertNumberedInvoice).
    await issueTaxInvoice(transaction, db.dialect, invoice, [delegates, passes, mailData, outbox])
    // Held seats a registration through an offer did not take go to the next entries that fit, like seats a
    // cancellation frees; counted once its delegates are written (above).
    if (offer) await offerFreedSeats(transaction, context, event, settings)
    return { created: row }
  })
}

/** What one delegate attending this way costs after the discount: 0 at a table, whose price is flat on the registration. */
function unitAmountOf(price: AttendanceQuote, attendance: Attendance): number {
  const line = price.lines.find((candidate) => candidate.attendance === attendance)!
  return isTableOption(line.option.key) ? 0 : line.unitAmountCents
}

/** The waiting-list offer a submission names (`offer`), if any. */
function offerTokenOf(input: unknown): string | undefined {
  const token = isRecord(input) ? singleLine(input[WAITING_LIST_OFFER_PARAM]) : ''
  return token === '' ? undefined : token
}

/**
 * Validates, prices and stores a registration with its tax invoice and e-mails in one transaction; a repeated
 * submission (the same token, or the same payload within the duplicate window) answers the first registration.
 */
export async function createRegistration(
  context: RegistrationContext,
  input: unknown,
  createOptions: CreateRegistrationOptions = {},
): Promise<CreateRegistrationResult> {
  const { db, catalog } = context
  const slug = readEventSlug(input)
  const event = await catalog.getEvent(slug)
  if (!event) throw new ValidationError('unknown-event', [{ path: 'event', code: 'unknown-event' }])
  // The business clock (SITE_DATE) decides the rules and dates the invoice; the real clock only keeps the books.
  const siteToday = businessClock(context)
  const { submission, options } = validateRegistration(input, event, siteToday)
  const settings = await catalog.getSettings()
  const discountCode = discountCodeOf(input)
  const optionKeys = Object.values(options).map((option) => option.key)
  const request: DiscountRequest | undefined =
    discountCode === '' ? undefined : { code: discountCode, event, optionKeys, delegateCount: submission.delegates.length, now: siteToday }
  const code = request && (await checkDiscountCode(db.kysely, request))
  const price = priceRegistration(options, delegatesByAttendance(submission), settings.vatRate, code)
  const optionLabels: Partial<Record<Attendance, string>> = {}
  for (const [attendance, option] of Object.entries(options) as Array<[Attendance, { label: string }]>) optionLabels[attendance] = option.label
  const quotationNumber = quotationNumberOf(input)
  if (quotationNumber !== '') await checkQuotation(db.kysely, quotationNumber, event.slug)
  const payloadHash = payloadHashOf(submission, discountCode, quotationNumber)
  const claim = claimFor(createOptions.idempotencyKey, payloadHash, wallClock(context))

  const outcome = await insertRegistration(context, {
    event,
    settings,
    submission,
    optionLabel: Object.values(optionLabels).join(' + '),
    optionLabels,
    price,
    discount: request && code && { request, code },
    claim,
    payloadHash,
    siteToday,
    offerToken: offerTokenOf(input),
    quotationNumber,
  })
  if ('created' in outcome) {
    const created = { receipt: receiptOf(outcome.created), replayed: false, paymentMethod: outcome.created.payment_method }
    context.onRegistrationCreated?.(created)
    return created
  }
  const existing = await db.kysely.selectFrom('registrations').selectAll().where('id', '=', outcome.replayOf).executeTakeFirstOrThrow()
  return { receipt: receiptOf(existing), replayed: true, paymentMethod: existing.payment_method }
}
