import { timingSafeEqual } from 'node:crypto'
import { formatAmount, quote, randsToCents, type Quote } from '@events/pricing'
import type { EventCatalog, RegistrationEvent, SiteSettingsForMail } from '../catalog.ts'
import type { CoreDatabase } from '../db/database.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'
import { ValidationError } from '../errors.ts'
import { newId, sha256Hex } from '../ids.ts'
import { registrationMailJobs, type RegistrationMailContext } from '../mail/registration-mails.ts'
import { invoiceAttachment, invoiceFilename, issueTaxInvoice, renderStoredInvoice } from '../invoice/issue-invoice.ts'
import { formatInvoiceNumber } from '../invoice/invoice-number.ts'
import { creditNoteDownload, formatCreditNoteNumber } from '../cancellation/credit-note.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { paymentStateOf } from './payment-state.ts'
import { singleLine } from '../validation/fields.ts'
import { generateReference, generateSecret, normaliseReference } from './reference.ts'
import { readEventSlug, validateRegistration, type CompanyDetails, type DelegateSubmission, type RegistrationSubmission } from '../submissions/registration.ts'

export const CURRENCY = 'ZAR'
/**
 * A registration waits for payment until a verified card payment webhook, or bank transfers recorded by staff that
 * add up to its total, mark it paid; bank transfers that fall short leave it part-paid.
 */
export type RegistrationStatus = 'awaiting-payment' | 'part-paid' | 'paid'

/** How long an identical submission without a token counts as a resubmission of the first. */
export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000
const MAX_IDEMPOTENCY_KEY_LENGTH = 255
const REFERENCE_ATTEMPTS = 10

/** The answer to a registration: the 201 body. */
export interface RegistrationReceipt {
  reference: string
  total: string
  totalCents: number
  currency: string
  status: string
  statusUrl: string
  paymentUrl?: string
}

export interface CreateRegistrationResult {
  receipt: RegistrationReceipt
  /** True when this submission repeated an earlier one and no new registration was made. */
  replayed: boolean
  paymentMethod: string
}

export interface RegistrationDetails extends CompanyDetails {
  reference: string
  status: string
  event: StoredEvent
  code: string
  attendanceOption: { key: string; label: string }
  paymentMethod: string
  delegates: DelegateSubmission[]
  subtotalCents: number
  vatCents: number
  totalCents: number
  total: string
  /** What has been received so far (bank transfers, or the whole total once paid) and what remains to pay. */
  paidCents: number
  outstandingCents: number
  currency: string
  createdAt: string
  paidAt: string | null
  statusUrl: string
  paymentUrl?: string
  /** The tax invoice: its number and where the registrant downloads it. */
  invoice?: { number: string; url: string }
  /** The credit notes of its cancellations, oldest first, and where the registrant downloads them. */
  creditNotes: Array<{ number: string; url: string }>
  /** When the whole registration was cancelled. */
  cancelledAt: string | null
}

/** A stored tax invoice, ready to be sent as a download. */
export interface InvoiceDownload {
  filename: string
  pdf: Buffer
}

export interface RegistrationServiceOptions {
  db: CoreDatabase
  catalog: EventCatalog
  /** Absolute base URL of the site, without a trailing slash, for the links in answers and e-mails. */
  siteUrl: string
  /** Where registrations are reported; defaults to the contact e-mail in the site settings. */
  organiserEmail?: string | undefined
  /** The site's notion of "now" for the registration rules (SITE_DATE). */
  siteNow?: () => Date
  /** The wall clock, for timestamps and the duplicate window. */
  now?: () => Date
  generateReference?: () => string
}

export interface CreateRegistrationOptions {
  /** The form's hidden submission token or the API's Idempotency-Key header. */
  idempotencyKey?: string | undefined
}

export interface RegistrationService {
  createRegistration(input: unknown, options?: CreateRegistrationOptions): Promise<CreateRegistrationResult>
  getRegistrationByReferenceAndSecret(reference: string, secret: string): Promise<RegistrationDetails | undefined>
  /** The registration's tax invoice PDF, for the holder of its private link. */
  getInvoicePdf(reference: string, secret: string): Promise<InvoiceDownload | undefined>
  /** One of the registration's credit notes (by its number, CN-000001), for the holder of its private link. */
  getCreditNotePdf(reference: string, secret: string, creditNoteNumber: string): Promise<InvoiceDownload | undefined>
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
  optionLabel: string
  unitAmountCents: number
  price: Quote
  claim: SubmissionClaim
  payloadHash: string
  /** The business date the registration was checked at, which also dates its tax invoice. */
  siteToday: Date
}

function payloadHashOf(submission: RegistrationSubmission): string {
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
      submission.paymentMethod,
    ]),
  )
}

function claimFor(idempotencyKey: string | undefined, payloadHash: string, now: Date): SubmissionClaim {
  const key = singleLine(idempotencyKey)
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ValidationError('invalid-request', [{ path: 'idempotencyKey', code: 'too-long', maximum: MAX_IDEMPOTENCY_KEY_LENGTH }])
  }
  if (key !== '') return { key: `token:${sha256Hex(key)}`, expiresAt: null }
  return { key: `payload:${payloadHash}`, expiresAt: new Date(now.getTime() + DUPLICATE_WINDOW_MS).toISOString() }
}

/** The private status page of a registration: {siteUrl}/registrations/{reference}/{secret}. */
export function registrationStatusUrl(siteUrl: string, reference: string, secret: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/registrations/${reference}/${secret}`
}

/** Compares a registration's secret with one from a URL in constant time. */
export function sameSecret(expected: string, given: string): boolean {
  // Compare digests so the comparison takes the same time whatever the lengths.
  return timingSafeEqual(Buffer.from(sha256Hex(expected), 'hex'), Buffer.from(sha256Hex(given), 'hex'))
}

/** Creates the registration service: validation, pricing, idempotent storage with its e-mails in one transaction. */
export function createRegistrationService(options: RegistrationServiceOptions): RegistrationService {
  const { db, catalog } = options
  const siteUrl = options.siteUrl.replace(/\/+$/, '')
  const siteNow = options.siteNow ?? (() => new Date())
  const now = options.now ?? (() => new Date())
  const nextReference = options.generateReference ?? generateReference

  const statusUrlOf = (reference: string, secret: string): string => registrationStatusUrl(siteUrl, reference, secret)
  const paymentUrlOf = (statusUrl: string, paymentMethod: string): string | undefined =>
    paymentMethod === 'Credit/Debit Card' ? `${statusUrl}/pay` : undefined
  const invoiceUrlOf = (statusUrl: string): string => `${statusUrl}/invoice.pdf`
  const creditNoteUrlOf = (statusUrl: string, number: string): string => `${statusUrl}/credit-notes/${number}.pdf`

  function receiptOf(row: Pick<RegistrationRow, 'reference' | 'secret' | 'total_cents' | 'currency' | 'status' | 'payment_method'>): RegistrationReceipt {
    const statusUrl = statusUrlOf(row.reference, row.secret)
    const paymentUrl = paymentUrlOf(statusUrl, row.payment_method)
    return {
      reference: row.reference,
      total: formatAmount(row.total_cents),
      totalCents: row.total_cents,
      currency: row.currency,
      status: row.status,
      statusUrl,
      ...(paymentUrl ? { paymentUrl } : {}),
    }
  }

  async function insertRegistration(prepared: PreparedRegistration): Promise<{ replayOf: string } | { created: RegistrationRow }> {
    const { event, settings, submission, optionLabel, unitAmountCents, price, claim, payloadHash, siteToday } = prepared
    const createdAt = now()
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

      const row: RegistrationRow = {
        id: registrationId,
        reference: '',
        secret: generateSecret(),
        status: 'awaiting-payment' satisfies RegistrationStatus,
        event_slug: event.slug,
        event_kind: event.kind,
        event_title: event.title,
        event_start: event.start,
        event_end: event.end,
        venue_name: event.venue.name,
        venue_address: event.venue.address ?? '',
        registration_subject: event.registrationSubject,
        submitted_code: submission.code,
        company_name: submission.companyName,
        address: submission.address,
        email: submission.email,
        tel: submission.tel,
        vat_number: submission.vatNumber,
        attendance_option: submission.attendanceOption,
        attendance_option_label: optionLabel,
        payment_method: submission.paymentMethod,
        delegate_count: submission.delegates.length,
        unit_amount_cents: unitAmountCents,
        subtotal_cents: price.subtotalCents,
        vat_cents: price.vatCents,
        total_cents: price.totalCents,
        vat_rate: price.vatRate,
        currency: CURRENCY,
        payload_hash: payloadHash,
        legal_agreement_accepted_at: createdAtIso,
        created_at: createdAtIso,
        updated_at: createdAtIso,
        paid_at: null,
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

      await transaction
        .insertInto('registration_delegates')
        .values(
          submission.delegates.map((delegate, ordinal) => ({
            id: newId(),
            registration_id: registrationId,
            ordinal,
            name: delegate.name,
            position: delegate.position,
            email: delegate.email,
          })),
        )
        .execute()

      const invoice = await issueTaxInvoice(transaction, {
        registrationId,
        reference: row.reference,
        event,
        settings,
        submission,
        optionLabel,
        unitAmountCents,
        quote: price,
        issuedAt: siteToday,
      })
      const receipt = receiptOf(row)
      const mailContext: RegistrationMailContext = {
        reference: row.reference,
        statusUrl: receipt.statusUrl,
        paymentUrl: receipt.paymentUrl,
        privacyUrl: `${siteUrl}/privacy`,
        organiserEmail: options.organiserEmail || settings.email,
        event,
        settings,
        submission,
        optionLabel,
        quote: price,
        invoice: { number: invoice.number, issueDate: invoice.issueDate, dueDate: invoice.dueDate, attachment: invoiceAttachment(invoice) },
      }
      await transaction.insertInto('registration_mail_data').values({ registration_id: registrationId, context_json: JSON.stringify(mailContext) }).execute()
      const mails = registrationMailJobs(submission).map((job) => ({ topic: job.template, mail: job }))
      await enqueueMails(transaction, registrationId, mails, createdAt)
      return { created: row }
    })
  }

  async function createRegistration(input: unknown, createOptions: CreateRegistrationOptions = {}): Promise<CreateRegistrationResult> {
    const slug = readEventSlug(input)
    const event = await catalog.getEvent(slug)
    if (!event) throw new ValidationError('unknown-event', [{ path: 'event', code: 'unknown-event' }])
    // The business clock (SITE_DATE) decides the rules and dates the invoice; the real clock only keeps the books.
    const siteToday = siteNow()
    const { submission, option } = validateRegistration(input, event, siteToday)
    const settings = await catalog.getSettings()
    const unitAmountCents = randsToCents(option.amount)
    const price = quote({ key: option.key, amountCents: unitAmountCents }, submission.delegates.length, settings.vatRate)
    const payloadHash = payloadHashOf(submission)
    const claim = claimFor(createOptions.idempotencyKey, payloadHash, now())

    const outcome = await insertRegistration({
      event,
      settings,
      submission,
      optionLabel: option.label,
      unitAmountCents,
      price,
      claim,
      payloadHash,
      siteToday,
    })
    if ('created' in outcome) return { receipt: receiptOf(outcome.created), replayed: false, paymentMethod: outcome.created.payment_method }
    const existing = await db.kysely.selectFrom('registrations').selectAll().where('id', '=', outcome.replayOf).executeTakeFirstOrThrow()
    return { receipt: receiptOf(existing), replayed: true, paymentMethod: existing.payment_method }
  }

  async function findByReferenceAndSecret(referenceInput: string, secret: string): Promise<RegistrationRow | undefined> {
    const reference = normaliseReference(String(referenceInput))
    if (!reference || typeof secret !== 'string' || secret === '') return undefined
    const row = await db.kysely.selectFrom('registrations').selectAll().where('reference', '=', reference).executeTakeFirst()
    return row && sameSecret(row.secret, secret) ? row : undefined
  }

  async function getRegistrationByReferenceAndSecret(referenceInput: string, secret: string): Promise<RegistrationDetails | undefined> {
    const row = await findByReferenceAndSecret(referenceInput, secret)
    if (!row) return undefined
    const invoice = await db.kysely.selectFrom('invoices').select('number').where('registration_id', '=', row.id).executeTakeFirst()
    const creditNotes = await db.kysely.selectFrom('credit_notes').select('number').where('registration_id', '=', row.id).orderBy('number').execute()
    const delegates = await db.kysely
      .selectFrom('registration_delegates')
      .select(['name', 'position', 'email'])
      .where('registration_id', '=', row.id)
      .orderBy('ordinal')
      .execute()
    const receipt = receiptOf(row)
    const payment = await paymentStateOf(db.kysely, row)
    return {
      reference: row.reference,
      status: row.status,
      event: storedEventOf(row),
      code: row.submitted_code,
      companyName: row.company_name,
      address: row.address,
      email: row.email,
      tel: row.tel,
      vatNumber: row.vat_number,
      attendanceOption: { key: row.attendance_option, label: row.attendance_option_label },
      paymentMethod: row.payment_method,
      delegates,
      subtotalCents: row.subtotal_cents,
      vatCents: row.vat_cents,
      totalCents: row.total_cents,
      total: receipt.total,
      paidCents: payment.paidCents,
      outstandingCents: payment.outstandingCents,
      currency: row.currency,
      createdAt: row.created_at,
      paidAt: row.paid_at,
      statusUrl: receipt.statusUrl,
      ...(receipt.paymentUrl ? { paymentUrl: receipt.paymentUrl } : {}),
      ...(invoice ? { invoice: { number: formatInvoiceNumber(Number(invoice.number)), url: invoiceUrlOf(receipt.statusUrl) } } : {}),
      creditNotes: creditNotes.map((note) => {
        const number = formatCreditNoteNumber(Number(note.number))
        return { number, url: creditNoteUrlOf(receipt.statusUrl, number) }
      }),
      cancelledAt: row.cancelled_at,
    }
  }

  async function getInvoicePdf(referenceInput: string, secret: string): Promise<InvoiceDownload | undefined> {
    const row = await findByReferenceAndSecret(referenceInput, secret)
    if (!row) return undefined
    const invoice = await db.kysely.selectFrom('invoices').select(['id', 'number']).where('registration_id', '=', row.id).executeTakeFirst()
    const pdf = invoice ? await renderStoredInvoice(db, invoice.id) : undefined
    if (!invoice || !pdf) return undefined
    return { filename: invoiceFilename(formatInvoiceNumber(Number(invoice.number))), pdf }
  }

  async function getCreditNotePdf(referenceInput: string, secret: string, creditNoteNumber: string): Promise<InvoiceDownload | undefined> {
    const row = await findByReferenceAndSecret(referenceInput, secret)
    return row ? creditNoteDownload(db, row.id, creditNoteNumber) : undefined
  }

  return { createRegistration, getRegistrationByReferenceAndSecret, getInvoicePdf, getCreditNotePdf }
}

export interface RegistrationStatusJson {
  reference: string
  status: string
  event: RegistrationDetails['event']
  total: string
  totalCents: number
  paidCents: number
  outstandingCents: number
  currency: string
  paymentMethod: string
  delegates: RegistrationDetails['delegates']
}


/** The event as a registration stored it when it was made: later edits of the event do not change it. */
export interface StoredEvent {
  slug: string
  kind: string
  title: string
  start: string
  end: string
  venue: { name: string; address: string }
}

/** A registration row's copy of its event. */
export function storedEventOf(row: Pick<RegistrationRow, 'event_slug' | 'event_kind' | 'event_title' | 'event_start' | 'event_end' | 'venue_name' | 'venue_address'>): StoredEvent {
  return {
    slug: row.event_slug,
    kind: row.event_kind,
    title: row.event_title,
    start: row.event_start,
    end: row.event_end,
    venue: { name: row.venue_name, address: row.venue_address },
  }
}
/** The JSON the private status URL answers with (Accept: application/json). */
export function registrationStatusJson(details: RegistrationDetails): RegistrationStatusJson {
  return {
    reference: details.reference,
    status: details.status,
    event: details.event,
    total: details.total,
    totalCents: details.totalCents,
    paidCents: details.paidCents,
    outstandingCents: details.outstandingCents,
    currency: details.currency,
    paymentMethod: details.paymentMethod,
    delegates: details.delegates,
  }
}

