import { cancellationCredit, formatRand, isOptionKey, isTableOption } from '@events/pricing'
import type { Kysely } from 'kysely'
import * as z from 'zod/mini'
import { eventOfRegistration, offerFreedSeats } from '../seats/waiting-list.ts'
import { staffCommand, type AuditedChange, type CommandHandler, type CommandOutcome } from '../backoffice/command.ts'
import { businessClock, wallClock, type ActingStaff, type BackOfficeContext } from '../backoffice/context.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
import { surplusCentsOf } from '../invoice/surplus.ts'
import { dayIn, fieldRefusal, isoDay, optionalPercentage, referenceField } from '../backoffice/fields.ts'
import { optionalLine, ownFields } from '../submissions/fields.ts'
import type { Database } from '../db/database.ts'
import type { CancellationRow, RefundRow } from '../db/tables/cancellations.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'
import { newId } from '../ids.ts'
import { formatInvoiceNumber } from '../invoice/invoice-number.ts'
import { storedTaxInvoiceData } from '../invoice/issue-invoice.ts'
import { formatDate } from '../mail/dates.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { registrantAddressErased } from '../registration/model.ts'
import { paymentStateOf } from '../registration/payment-state.ts'
import { normaliseReference } from '../registration/reference.ts'
import { normaliseBankReference, singleLine } from '../validation/fields.ts'
import { creditNoteMail, describeCancelled } from './cancellation-mail.ts'
import type { CreditNoteData } from './credit-note-pdf.ts'
import { creditNoteAttachment, formatCreditNoteNumber, nextCreditNoteNumber } from './credit-note.ts'
import { proposedCancellationFee, type ProposedCancellationFee } from './fee-rules.ts'

const MAX_REASON_LENGTH = 500
const MAX_BANK_REFERENCE_LENGTH = 100

export interface CancellationDelegate {
  id: string
  name: string
  position: string
  /** At the venue or online. */
  attendance: 'venue' | 'online'
  /** What cancelling the delegate credits before the fee, excl. VAT: their own price (0 at a table, cancelled as a whole). */
  unitAmountCents: number
  /** Set once the delegate was cancelled. */
  cancellationId: string | null
}

export interface RefundSummary {
  id: string
  method: 'card' | 'bank-transfer'
  amountCents: number
  status: RefundRow['status']
  /** The provider's answer to the last attempt, '' before there is one. */
  outcomeMessage: string
  paidOutOn: string | null
  bankReference: string | null
  recordedBy: ActingStaff | null
}

export interface CancellationSummary {
  id: string
  wholeRegistration: boolean
  delegates: string[]
  cancelledOn: string
  workingDaysBefore: number
  proposedFeePercent: number
  feePercent: number
  overrideReason: string
  cancelledSubtotalCents: number
  feeSubtotalCents: number
  creditedSubtotalCents: number
  creditedVatCents: number
  creditedTotalCents: number
  refundableCents: number
  creditNote: { id: string; number: string; issueDate: string } | null
  refund: RefundSummary | null
  cancelledBy: ActingStaff
  cancelledAt: string
}

/** What the cancel screen shows before staff confirm: the registration, its delegates and the fee the terms propose. */
export interface CancellationProposal {
  reference: string
  companyName: string
  eventTitle: string
  eventStart: string
  optionLabel: string
  /** A table is priced as a whole, so only the whole registration can be cancelled. */
  pricedAsTable: boolean
  vatRate: number
  delegates: CancellationDelegate[]
  fee: ProposedCancellationFee
  invoiceNumber: string | null
  paidCents: number
  /** The registration's total less everything credited so far. */
  owedCents: number
  /** Cancelling every delegate still attending today at the proposed fee: the fee kept and the credit, incl. VAT. */
  wholeCancellation: { feeTotalCents: number; creditedTotalCents: number }
  cancelledAt: string | null
  cancellations: CancellationSummary[]
}

/**
 * A cancellation as the cancel form sends it: the delegates to cancel ('all' cancels every delegate still attending,
 * and with them the registration), the fee applied as a whole percentage (the proposed one when left empty), and why
 * staff applied another fee than the terms propose ("unless agreed"), required then.
 */
export const cancellationSchema = z.pipe(
  ownFields,
  z.object({
    reference: referenceField,
    delegateIds: z.union(
      [z.literal('all'), z.pipe(z.array(z.pipe(z.transform(singleLine), z.string())), z.array(z.string()).check(z.minLength(1, 'no-delegates')))],
      'no-delegates',
    ),
    feePercent: optionalPercentage,
    overrideReason: optionalLine(MAX_REASON_LENGTH),
  }),
)
export interface CancellationInput {
  reference: string
  delegateIds: readonly string[] | 'all'
  feePercent?: number | string | undefined
  overrideReason?: string | undefined
}

export interface CancellationOutcome {
  registrationId: string
  reference: string
  cancellation: CancellationSummary
  /** For the audit log. */
  before: { cancelledDelegates: string[]; owedCents: number }
  after: { cancelledDelegates: string[]; owedCents: number; registrationCancelled: boolean }
  /** True when a card refund was recorded as pending and should now be sent to the provider. */
  cardRefundPending: boolean
}

/** A stored attendance option priced as a whole table rather than per delegate. */
function pricedAsTable(attendanceOption: string): boolean {
  return isOptionKey(attendanceOption) && isTableOption(attendanceOption)
}

function refundOf(row: RefundRow): RefundSummary {
  return {
    id: row.id,
    method: row.method,
    amountCents: row.amount_cents,
    status: row.status,
    outcomeMessage: row.outcome_message,
    paidOutOn: row.paid_out_on,
    bankReference: row.bank_reference,
    recordedBy: row.recorded_by_id ? { id: row.recorded_by_id, name: row.recorded_by_name ?? '' } : null,
  }
}

async function findRegistration(queries: Kysely<Database>, referenceInput: string, lock: boolean): Promise<RegistrationRow> {
  const reference = normaliseReference(String(referenceInput))
  const registration = await queries
    .selectFrom('registrations')
    .selectAll()
    .where('reference', '=', reference ?? '')
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst()
  if (!registration) throw new BackOfficeError('not-found', { missing: 'registration', reference: String(referenceInput).trim() })
  return registration
}

/** Every cancellation of a registration, oldest first, with its credit note and refund. */
async function cancellationsOf(queries: Kysely<Database>, registrationId: string): Promise<CancellationSummary[]> {
  const [rows, delegates, notes, refunds] = await Promise.all([
    queries.selectFrom('cancellations').selectAll().where('registration_id', '=', registrationId).orderBy('cancelled_at').orderBy('id').execute(),
    queries.selectFrom('registration_delegates').select(['name', 'cancellation_id']).where('registration_id', '=', registrationId).orderBy('ordinal').execute(),
    queries.selectFrom('credit_notes').select(['id', 'number', 'cancellation_id', 'data_json']).where('registration_id', '=', registrationId).execute(),
    queries.selectFrom('refunds').selectAll().where('registration_id', '=', registrationId).execute(),
  ])
  return rows.map((row: CancellationRow) => {
    const note = notes.find((candidate) => candidate.cancellation_id === row.id)
    const refund = refunds.find((candidate) => candidate.cancellation_id === row.id)
    return {
      id: row.id,
      wholeRegistration: row.whole_registration === 1,
      delegates: delegates.filter((delegate) => delegate.cancellation_id === row.id).map((delegate) => delegate.name),
      cancelledOn: row.cancelled_on,
      workingDaysBefore: row.working_days_before,
      proposedFeePercent: row.proposed_fee_percent,
      feePercent: row.fee_percent,
      overrideReason: row.fee_override_reason,
      cancelledSubtotalCents: row.cancelled_subtotal_cents,
      feeSubtotalCents: row.fee_subtotal_cents,
      creditedSubtotalCents: row.credited_subtotal_cents,
      creditedVatCents: row.credited_vat_cents,
      creditedTotalCents: row.credited_total_cents,
      refundableCents: row.refundable_cents,
      creditNote: note
        ? { id: note.id, number: formatCreditNoteNumber(Number(note.number)), issueDate: (JSON.parse(note.data_json) as CreditNoteData).issueDate }
        : null,
      refund: refund ? refundOf(refund) : null,
      cancelledBy: { id: row.cancelled_by_id, name: row.cancelled_by_name },
      cancelledAt: row.cancelled_at,
    }
  })
}

interface Balances {
  creditedSubtotalCents: number
  creditedVatCents: number
  creditedTotalCents: number
  refundedCents: number
}

/**
 * What earlier cancellations credited and what was refunded or owed back (refunds, refused card refunds left out, and
 * transfers' surpluses).
 */
/** What a registration still charges: its amounts less everything its credit notes took off. */
function chargedOf(registration: RegistrationRow, balances: Balances): { subtotalCents: number; vatCents: number; vatRate: number } {
  return {
    subtotalCents: registration.subtotal_cents - balances.creditedSubtotalCents,
    vatCents: registration.vat_cents - balances.creditedVatCents,
    vatRate: registration.vat_rate,
  }
}

async function balancesOf(queries: Kysely<Database>, registrationId: string): Promise<Balances> {
  const [credited, refunded, surplusCents] = await Promise.all([
    queries
      .selectFrom('cancellations')
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number | string>('credited_subtotal_cents'), eb.lit(0)).as('subtotal'),
        eb.fn.coalesce(eb.fn.sum<number | string>('credited_vat_cents'), eb.lit(0)).as('vat'),
        eb.fn.coalesce(eb.fn.sum<number | string>('credited_total_cents'), eb.lit(0)).as('total'),
      ])
      .where('registration_id', '=', registrationId)
      .executeTakeFirstOrThrow(),
    queries
      .selectFrom('refunds')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount_cents'), eb.lit(0)).as('amount'))
      .where('registration_id', '=', registrationId)
      .where('status', '<>', 'refused')
      .executeTakeFirstOrThrow(),
    // A transfer's surplus is owed back on its own (refunds to pay out), so a cancellation never refunds it again.
    surplusCentsOf(queries, registrationId),
  ])
  return {
    creditedSubtotalCents: Number(credited.subtotal),
    creditedVatCents: Number(credited.vat),
    creditedTotalCents: Number(credited.total),
    refundedCents: Number(refunded.amount) + surplusCents,
  }
}

/** The registration, its delegates and the fee the terms propose for cancelling it today (business clock). */
export async function cancellationProposal(context: BackOfficeContext, reference: string): Promise<CancellationProposal> {
  const queries = context.db.kysely
  const registration = await findRegistration(queries, reference, false)
  const [delegates, invoice, payment, balances, cancellations] = await Promise.all([
    queries
      .selectFrom('registration_delegates')
      .select(['id', 'name', 'position', 'attendance', 'unit_amount_cents', 'cancellation_id'])
      .where('registration_id', '=', registration.id)
      .orderBy('ordinal')
      .execute(),
    queries.selectFrom('invoices').select('number').where('registration_id', '=', registration.id).orderBy('number', 'desc').executeTakeFirst(),
    paymentStateOf(queries, registration),
    balancesOf(queries, registration.id),
    cancellationsOf(queries, registration.id),
  ])
  const fee = proposedCancellationFee(registration.event_start, businessClock(context))
  const charged = chargedOf(registration, balances)
  const whole = cancellationCredit(charged, charged.subtotalCents, fee.feePercent)
  return {
    reference: registration.reference,
    companyName: registration.company_name,
    eventTitle: registration.event_title,
    eventStart: registration.event_start,
    optionLabel: registration.attendance_option_label,
    pricedAsTable: pricedAsTable(registration.attendance_option),
    vatRate: registration.vat_rate,
    delegates: delegates.map((delegate) => ({
      id: delegate.id,
      name: delegate.name,
      position: delegate.position,
      attendance: delegate.attendance,
      unitAmountCents: delegate.unit_amount_cents,
      cancellationId: delegate.cancellation_id,
    })),
    fee,
    wholeCancellation: { feeTotalCents: charged.subtotalCents + charged.vatCents - whole.creditedTotalCents, creditedTotalCents: whole.creditedTotalCents },
    invoiceNumber: invoice ? formatInvoiceNumber(Number(invoice.number)) : null,
    paidCents: payment.paidCents,
    owedCents: registration.total_cents - balances.creditedTotalCents,
    cancelledAt: registration.cancelled_at,
    cancellations,
  }
}

/** The fee applied: the proposed one unless staff chose another, which needs their reason. */
function feeApplied(input: z.output<typeof cancellationSchema>, proposedPercent: number): { feePercent: number; overrideReason: string } {
  const feePercent = input.feePercent ?? proposedPercent
  if (feePercent !== proposedPercent && input.overrideReason === '') throw fieldRefusal('overrideReason', 'reason-required')
  return { feePercent, overrideReason: feePercent === proposedPercent ? '' : input.overrideReason }
}

/**
 * Cancels a whole registration or some of its delegates with the fee the terms propose (or another, with a reason):
 * credits what is not charged on a credit note against the tax invoice (numbered CN-000001…, e-mailed to the
 * registrant with the PDF), and records what was paid beyond what is still owed as a refund — a card refund pending
 * for the provider, or a bank refund awaiting payout by staff. Nothing is deleted.
 */
export const cancellationChange: CommandHandler<z.output<typeof cancellationSchema>, CancellationOutcome> = async (context, input, staff) => {
  const { db } = context
  const settings = await context.catalog.getSettings()
  const at = wallClock(context)
  const today = businessClock(context)
  const event = await eventOfRegistration(context, input.reference)
  return async (transaction): Promise<CommandOutcome<CancellationOutcome>> => {
    // Locked on PostgreSQL so that two cancellations of one registration run one after the other and the second sees
    // the delegates the first cancelled; SQLite's write transactions run one at a time anyway.
    const registration = await findRegistration(transaction, input.reference, db.dialect === 'postgres')
    const delegates = await transaction
      .selectFrom('registration_delegates')
      .select(['id', 'name', 'unit_amount_cents', 'cancellation_id'])
      .where('registration_id', '=', registration.id)
      .orderBy('ordinal')
      .execute()
    const attending = delegates.filter((delegate) => delegate.cancellation_id === null)
    if (attending.length === 0) throw new BackOfficeError('already-cancelled')
    const requested = input.delegateIds === 'all' ? attending.map((delegate) => delegate.id) : [...new Set(input.delegateIds)]
    const chosen = attending.filter((delegate) => requested.includes(delegate.id))
    if (chosen.length !== requested.length) {
      throw new BackOfficeError('delegate-not-attending', {}, 'delegateIds')
    }
    const whole = chosen.length === attending.length
    const table = pricedAsTable(registration.attendance_option)
    if (!whole && table) {
      throw new BackOfficeError('table-cancelled-in-part', {}, 'delegateIds')
    }

    const proposal = proposedCancellationFee(registration.event_start, today)
    const { feePercent, overrideReason } = feeApplied(input, proposal.feePercent)
    const balances = await balancesOf(transaction, registration.id)
    const charged = chargedOf(registration, balances)
    // Delegates are cancelled at their own price (a venue and an online delegate differ): the fees of earlier
    // cancellations stay charged. A table goes as a whole.
    const cancelledSubtotalCents = table ? charged.subtotalCents : chosen.reduce((sum, delegate) => sum + delegate.unit_amount_cents, 0)
    const credit = cancellationCredit(charged, cancelledSubtotalCents, feePercent)
    const owedBefore = registration.total_cents - balances.creditedTotalCents
    const owedAfter = owedBefore - credit.creditedTotalCents
    const { paidCents } = await paymentStateOf(transaction, registration)
    const refundableCents = Math.max(0, paidCents - owedAfter - balances.refundedCents)

    const cancellationId = newId()
    await transaction
      .insertInto('cancellations')
      .values({
        id: cancellationId,
        registration_id: registration.id,
        whole_registration: whole ? 1 : 0,
        cancelled_on: proposal.cancelledOn,
        working_days_before: proposal.workingDaysBefore,
        proposed_fee_percent: proposal.feePercent,
        fee_percent: feePercent,
        fee_override_reason: overrideReason,
        cancelled_subtotal_cents: cancelledSubtotalCents,
        fee_subtotal_cents: credit.feeSubtotalCents,
        credited_subtotal_cents: credit.creditedSubtotalCents,
        credited_vat_cents: credit.creditedVatCents,
        credited_total_cents: credit.creditedTotalCents,
        refundable_cents: refundableCents,
        cancelled_by_id: staff.id,
        cancelled_by_name: staff.name,
        cancelled_at: at.toISOString(),
      })
      .execute()
    await transaction
      .updateTable('registration_delegates')
      .set({ cancellation_id: cancellationId })
      .where(
        'id',
        'in',
        chosen.map((delegate) => delegate.id),
      )
      .execute()
    if (whole)
      await transaction
        .updateTable('registrations')
        .set({ cancelled_at: at.toISOString(), updated_at: at.toISOString() })
        .where('id', '=', registration.id)
        .execute()

    const invoice = await transaction
      .selectFrom('invoices')
      .select(['id', 'number', 'data_json'])
      .where('registration_id', '=', registration.id)
      .orderBy('number', 'desc')
      .executeTakeFirst()
    const names = chosen.map((delegate) => delegate.name)
    // Money paid by card goes back to the card: the payments package knows the checkout that paid.
    const checkoutId = refundableCents > 0 ? await context.cardPayments?.paidCheckoutOf(transaction, registration.id) : undefined
    const checkout = checkoutId === undefined ? undefined : { id: checkoutId }
    let creditNote: { id: string; number: string } | undefined
    let mailQueued = false
    if (invoice && invoice.data_json !== null && credit.creditedTotalCents > 0) {
      const invoiced = storedTaxInvoiceData({ number: invoice.number, data_json: invoice.data_json })
      const serial = await nextCreditNoteNumber(transaction)
      const number = formatCreditNoteNumber(serial)
      const data: CreditNoteData = {
        number,
        issueDate: formatDate(today),
        reference: registration.reference,
        ...(invoiced.purchaseOrderNumber ? { purchaseOrderNumber: invoiced.purchaseOrderNumber } : {}),
        invoiceNumber: invoiced.number,
        invoiceDate: invoiced.issueDate,
        supplier: invoiced.supplier,
        recipient: invoiced.recipient,
        description: `Cancellation: ${registration.event_title}`,
        details: [
          whole ? `The whole registration (${names.join(', ')})` : `${names.length === 1 ? 'Delegate' : `${names.length} delegates`}: ${names.join(', ')}`,
          `Cancelled ${formatRand(cancelledSubtotalCents)} excl. VAT; cancellation fee ${feePercent}%: ${formatRand(credit.feeSubtotalCents)} excl. VAT`,
        ],
        creditedSubtotalCents: credit.creditedSubtotalCents,
        vatRate: registration.vat_rate,
        creditedVatCents: credit.creditedVatCents,
        creditedTotalCents: credit.creditedTotalCents,
        issuedAt: today,
      }
      creditNote = { id: newId(), number }
      await transaction
        .insertInto('credit_notes')
        .values({
          id: creditNote.id,
          cancellation_id: cancellationId,
          registration_id: registration.id,
          invoice_id: invoice.id,
          number: serial,
          issued_at: today.toISOString(),
          pdf_base64: '',
          data_json: JSON.stringify(data),
        })
        .execute()
      const mail = creditNoteMail({
        email: registration.email,
        reference: registration.reference,
        eventTitle: registration.event_title,
        cancelled: describeCancelled(whole, names),
        feeSubtotalCents: credit.feeSubtotalCents,
        feePercent,
        creditedTotalCents: credit.creditedTotalCents,
        refundCents: refundableCents,
        refundTo: checkout ? 'card' : 'bank-account',
        creditNoteNumber: number,
        invoiceNumber: invoiced.number,
        statusUrl: context.links.registrationStatus(registration),
        settings,
        creditNote: creditNoteAttachment(creditNote),
      })
      if (!registrantAddressErased(registration)) {
        await enqueueMails(transaction, registration.id, [{ topic: 'cancellation.credit-note', mail }], at)
        mailQueued = true
      }
    }

    let cardRefundPending = false
    if (refundableCents > 0) {
      cardRefundPending = checkout !== undefined
      await transaction
        .insertInto('refunds')
        .values({
          id: newId(),
          cancellation_id: cancellationId,
          registration_id: registration.id,
          method: checkout ? 'card' : 'bank-transfer',
          amount_cents: refundableCents,
          status: checkout ? 'pending' : 'awaiting-payout',
          checkout_id: checkout?.id ?? null,
          attempts: 0,
          provider_refund_id: null,
          outcome_message: '',
          paid_out_on: null,
          bank_reference: null,
          recorded_by_id: null,
          recorded_by_name: null,
          created_at: at.toISOString(),
          updated_at: at.toISOString(),
        })
        .execute()
    }

    const cancellations = await cancellationsOf(transaction, registration.id)
    const cancellation = cancellations.find((candidate) => candidate.id === cancellationId)!
    const cancelledBefore = delegates.filter((delegate) => delegate.cancellation_id !== null).map((delegate) => delegate.name)
    const result: CancellationOutcome = {
      registrationId: registration.id,
      reference: registration.reference,
      cancellation,
      before: { cancelledDelegates: cancelledBefore, owedCents: owedBefore },
      after: { cancelledDelegates: [...cancelledBefore, ...names], owedCents: owedAfter, registrationCancelled: whole },
      cardRefundPending,
    }
    const audit: AuditedChange[] = [
      {
        action: 'registration-cancelled',
        subjectType: 'registration',
        subjectId: registration.reference,
        before: result.before,
        after: {
          ...result.after,
          cancellationId,
          feePercent,
          feeSubtotalCents: credit.feeSubtotalCents,
          creditedTotalCents: credit.creditedTotalCents,
          creditNote: cancellation.creditNote?.number ?? null,
          refundableCents,
        },
      },
    ]
    if (feePercent !== proposal.feePercent) {
      audit.push({
        action: 'cancellation-fee-overridden',
        subjectType: 'registration',
        subjectId: registration.reference,
        before: { feePercent: proposal.feePercent },
        after: { feePercent, reason: overrideReason },
      })
    }
    // The seats given back go to the waiting list at once, under the same seat lock as registrations.
    const offers = event ? await offerFreedSeats(transaction, context, event, settings) : undefined
    return { result, audit: [...audit, ...(offers?.audit ?? [])], mailQueued: mailQueued || (offers?.mailQueued ?? false) }
  }
}

/** Cancels as `cancellationChange` does, for a manager or an owner only: staff ask for a cancellation instead. */
export const cancelRegistration = staffCommand(cancellationSchema, cancellationChange, { role: 'manager' })

/** A refund paid out, as the cancel page's form sends it: the date it left the account and the bank's reference. */
export const refundPayoutSchema = z.pipe(
  ownFields,
  z.object({
    reference: referenceField,
    refundId: z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'))),
    paidOutOn: isoDay,
    bankReference: z.pipe(
      z.transform(normaliseBankReference),
      z.string().check(z.minLength(1, 'required'), z.maxLength(MAX_BANK_REFERENCE_LENGTH, 'too-long')),
    ),
  }),
)
export type RefundPayoutInput = z.input<typeof refundPayoutSchema>

export interface RecordedRefundPayout {
  registrationId: string
  reference: string
  before: RefundSummary
  after: RefundSummary
}

/**
 * The handler of recording a cancellation's refund paid out: the cancel page's command, and the refunds list's for a
 * cancellation's refund.
 */
export const refundPaidOutHandler: CommandHandler<z.output<typeof refundPayoutSchema>, RecordedRefundPayout> = async (context, input, staff) => {
  if (input.paidOutOn > dayIn(businessClock(context))) throw fieldRefusal('paidOutOn', 'date-in-future')
  const at = wallClock(context)
  return async (transaction): Promise<CommandOutcome<RecordedRefundPayout>> => {
    const registration = await findRegistration(transaction, input.reference, false)
    const row = await transaction
      .selectFrom('refunds')
      .selectAll()
      .where('id', '=', input.refundId)
      .where('registration_id', '=', registration.id)
      .$if(context.db.dialect === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst()
    if (!row) throw new BackOfficeError('not-found', { missing: 'refund', reference: registration.reference })
    if (row.status !== 'awaiting-payout' && row.status !== 'refused') {
      throw new BackOfficeError('nothing-to-pay-out', { status: row.status })
    }
    // A refund is owed from the day of its cancellation (business clock); it cannot have been paid out before.
    const { cancelled_on: cancelledOn } = await transaction
      .selectFrom('cancellations')
      .select('cancelled_on')
      .where('id', '=', row.cancellation_id)
      .executeTakeFirstOrThrow()
    if (input.paidOutOn < cancelledOn) throw fieldRefusal('paidOutOn', 'date-before-cancellation')
    const updated = await transaction
      .updateTable('refunds')
      .set({
        method: 'bank-transfer',
        status: 'paid-out',
        paid_out_on: input.paidOutOn,
        bank_reference: input.bankReference,
        recorded_by_id: staff.id,
        recorded_by_name: staff.name,
        updated_at: at.toISOString(),
      })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    const result: RecordedRefundPayout = { registrationId: registration.id, reference: registration.reference, before: refundOf(row), after: refundOf(updated) }
    return { result, audit: [{ action: 'refund-paid-out', subjectType: 'refund', subjectId: row.id, before: result.before, after: result.after }] }
  }
}

/** Records that staff paid a bank refund out (or refunded a card refund the provider refused by transfer); a manager's. */
export const recordRefundPaidOut = staffCommand(refundPayoutSchema, refundPaidOutHandler, { role: 'manager' })
