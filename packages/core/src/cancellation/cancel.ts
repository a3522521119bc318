import { cancellationCredit, formatRand, isOptionKey, isTableOption, TIME_ZONE } from '@events/pricing'
import type { Kysely } from 'kysely'
import { DateTime } from 'luxon'
import { businessClock, wallClock, type ActingStaff, type BackOfficeContext } from '../backoffice/context.ts'
import { surplusCentsOf } from '../backoffice/refunds-to-pay.ts'
import { auditInTransaction, type CommandStaff } from '../backoffice/staff-command.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
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
import { singleLine } from '../validation/fields.ts'
import { creditNoteMail } from './cancellation-mail.ts'
import type { CreditNoteData } from './credit-note-pdf.ts'
import { creditNoteAttachment, formatCreditNoteNumber, nextCreditNoteNumber } from './credit-note.ts'
import { proposedCancellationFee, type ProposedCancellationFee } from './fee-rules.ts'

const MAX_REASON_LENGTH = 500
const MAX_BANK_REFERENCE_LENGTH = 100

export interface CancellationDelegate {
  id: string
  name: string
  position: string
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
  unitAmountCents: number
  vatRate: number
  delegates: CancellationDelegate[]
  fee: ProposedCancellationFee
  invoiceNumber: string | null
  paidCents: number
  /** The registration's total less everything credited so far. */
  owedCents: number
  cancelledAt: string | null
  cancellations: CancellationSummary[]
}

export interface CancellationInput {
  reference: string
  /** The delegates to cancel; 'all' cancels every delegate still attending, and with them the registration. */
  delegateIds: readonly string[] | 'all'
  /** The fee applied, a whole percentage; the proposed one unless staff override it. */
  feePercent?: number | undefined
  /** Why staff applied another fee than the terms propose ("unless agreed"); required then. */
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
  if (!registration) throw new BackOfficeError('not-found', `No registration has the reference ${String(referenceInput).trim()}.`)
  return registration
}

/** Every cancellation of a registration, oldest first, with its credit note and refund. */
export async function cancellationsOf(queries: Kysely<Database>, registrationId: string): Promise<CancellationSummary[]> {
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
    queries.selectFrom('registration_delegates').select(['id', 'name', 'position', 'cancellation_id']).where('registration_id', '=', registration.id).orderBy('ordinal').execute(),
    queries.selectFrom('invoices').select('number').where('registration_id', '=', registration.id).executeTakeFirst(),
    paymentStateOf(queries, registration),
    balancesOf(queries, registration.id),
    cancellationsOf(queries, registration.id),
  ])
  return {
    reference: registration.reference,
    companyName: registration.company_name,
    eventTitle: registration.event_title,
    eventStart: registration.event_start,
    optionLabel: registration.attendance_option_label,
    pricedAsTable: pricedAsTable(registration.attendance_option),
    unitAmountCents: registration.unit_amount_cents,
    vatRate: registration.vat_rate,
    delegates: delegates.map((delegate) => ({ id: delegate.id, name: delegate.name, position: delegate.position, cancellationId: delegate.cancellation_id })),
    fee: proposedCancellationFee(registration.event_start, businessClock(context)),
    invoiceNumber: invoice ? formatInvoiceNumber(Number(invoice.number)) : null,
    paidCents: payment.paidCents,
    owedCents: registration.total_cents - balances.creditedTotalCents,
    cancelledAt: registration.cancelled_at,
    cancellations,
  }
}

function readFee(input: CancellationInput, proposedPercent: number): { feePercent: number; overrideReason: string } {
  const feePercent = input.feePercent ?? proposedPercent
  if (!Number.isInteger(feePercent) || feePercent < 0 || feePercent > 100) {
    throw new BackOfficeError('invalid-input', 'Enter the fee as a whole percentage from 0 to 100.')
  }
  const overrideReason = singleLine(String(input.overrideReason ?? ''))
  if (feePercent !== proposedPercent && overrideReason === '') {
    throw new BackOfficeError(
      'invalid-input',
      `The terms propose a ${proposedPercent}% fee. To apply ${feePercent}% instead, say why (for example, what was agreed in writing).`,
    )
  }
  if (overrideReason.length > MAX_REASON_LENGTH) throw new BackOfficeError('invalid-input', `The reason is too long (at most ${MAX_REASON_LENGTH} characters).`)
  return { feePercent, overrideReason: feePercent === proposedPercent ? '' : overrideReason }
}

function describeCancelled(whole: boolean, names: string[]): string {
  if (whole) return 'the registration'
  return names.length === 1 ? `delegate ${names[0]}` : `delegates ${names.join(', ')}`
}

/**
 * Cancels a whole registration or some of its delegates with the fee the terms propose (or another, with a reason):
 * credits what is not charged on a credit note against the tax invoice (numbered CN-000001…, e-mailed to the
 * registrant with the PDF), and records what was paid beyond what is still owed as a refund — a card refund pending
 * for the provider, or a bank refund awaiting payout by staff. Nothing is deleted.
 */
export async function cancelRegistration(context: BackOfficeContext, input: CancellationInput, staff: ActingStaff): Promise<CancellationOutcome> {
  const { db } = context
  const settings = await context.catalog.getSettings()
  const at = wallClock(context)
  const today = businessClock(context)
  return db.writeTransaction(async (transaction) => {
    // Locked on PostgreSQL so that two cancellations of one registration run one after the other and the second sees
    // the delegates the first cancelled; SQLite's write transactions run one at a time anyway.
    const registration = await findRegistration(transaction, input.reference, db.dialect === 'postgres')
    const delegates = await transaction
      .selectFrom('registration_delegates')
      .select(['id', 'name', 'cancellation_id'])
      .where('registration_id', '=', registration.id)
      .orderBy('ordinal')
      .execute()
    const attending = delegates.filter((delegate) => delegate.cancellation_id === null)
    if (attending.length === 0) throw new BackOfficeError('already-cancelled', `Registration ${registration.reference} is already cancelled.`)
    const requested = input.delegateIds === 'all' ? attending.map((delegate) => delegate.id) : [...new Set(input.delegateIds)]
    if (requested.length === 0) throw new BackOfficeError('invalid-input', 'Choose the delegates to cancel, or cancel the whole registration.')
    const chosen = attending.filter((delegate) => requested.includes(delegate.id))
    if (chosen.length !== requested.length) {
      throw new BackOfficeError('invalid-input', 'One of the chosen delegates is not on this registration or is already cancelled. Reload the page and choose again.')
    }
    const whole = chosen.length === attending.length
    const table = pricedAsTable(registration.attendance_option)
    if (!whole && table) {
      throw new BackOfficeError('invalid-input', 'A table is priced as a whole: cancel the whole registration, or substitute delegates instead.')
    }

    const proposal = proposedCancellationFee(registration.event_start, today)
    const { feePercent, overrideReason } = readFee(input, proposal.feePercent)
    const balances = await balancesOf(transaction, registration.id)
    const charged = {
      subtotalCents: registration.subtotal_cents - balances.creditedSubtotalCents,
      vatCents: registration.vat_cents - balances.creditedVatCents,
      vatRate: registration.vat_rate,
    }
    // Delegates are cancelled at their price: the fees of earlier cancellations stay charged. A table goes as a whole.
    const cancelledSubtotalCents = table ? charged.subtotalCents : registration.unit_amount_cents * chosen.length
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
      .where('id', 'in', chosen.map((delegate) => delegate.id))
      .execute()
    if (whole) await transaction.updateTable('registrations').set({ cancelled_at: at.toISOString(), updated_at: at.toISOString() }).where('id', '=', registration.id).execute()

    const invoice = await transaction.selectFrom('invoices').select(['id', 'number', 'data_json']).where('registration_id', '=', registration.id).executeTakeFirst()
    const names = chosen.map((delegate) => delegate.name)
    let creditNote: { id: string; number: string } | undefined
    if (invoice && invoice.data_json !== null && credit.creditedTotalCents > 0) {
      const invoiced = storedTaxInvoiceData({ number: invoice.number, data_json: invoice.data_json })
      const serial = await nextCreditNoteNumber(transaction)
      const number = formatCreditNoteNumber(serial)
      const data: CreditNoteData = {
        number,
        issueDate: formatDate(today),
        reference: registration.reference,
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
        creditNoteNumber: number,
        invoiceNumber: invoiced.number,
        statusUrl: context.links.registrationStatus(registration),
        settings,
        creditNote: creditNoteAttachment(creditNote),
      })
      if (!registrantAddressErased(registration)) await enqueueMails(transaction, registration.id, [{ topic: 'cancellation.credit-note', mail }], at)
    }

    let cardRefundPending = false
    if (refundableCents > 0) {
      const checkout = await transaction
        .selectFrom('payment_checkouts')
        .select('id')
        .where('registration_id', '=', registration.id)
        .where('status', '=', 'succeeded')
        .executeTakeFirst()
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
    return {
      registrationId: registration.id,
      reference: registration.reference,
      cancellation,
      before: { cancelledDelegates: cancelledBefore, owedCents: owedBefore },
      after: { cancelledDelegates: [...cancelledBefore, ...names], owedCents: owedAfter, registrationCancelled: whole },
      cardRefundPending,
    }
  })
}

export interface RefundPayoutInput {
  reference: string
  refundId: string
  /** The date the transfer left the company's account, YYYY-MM-DD. */
  paidOutOn: string
  /** The bank's reference of the payout. */
  bankReference: string
}

export interface RecordedRefundPayout {
  registrationId: string
  reference: string
  before: RefundSummary
  after: RefundSummary
}

/** Records that staff paid a bank refund out (or refunded a card refund the provider refused by transfer). */
export async function recordRefundPaidOut(context: BackOfficeContext, input: RefundPayoutInput, staff: CommandStaff): Promise<RecordedRefundPayout> {
  const today = DateTime.fromJSDate(businessClock(context), { zone: TIME_ZONE }).toISODate()!
  const paidOn = DateTime.fromISO(String(input.paidOutOn), { zone: TIME_ZONE })
  if (!/^\d{4}-\d{2}-\d{2}$/.test(String(input.paidOutOn)) || !paidOn.isValid) {
    throw new BackOfficeError('invalid-input', 'Enter the date the refund was paid out, as on the bank statement (YYYY-MM-DD).')
  }
  if (input.paidOutOn > today) throw new BackOfficeError('invalid-input', 'The date paid out cannot be later than today.')
  const bankReference = singleLine(String(input.bankReference ?? '')).toUpperCase()
  if (bankReference === '') throw new BackOfficeError('invalid-input', 'Enter the bank’s reference of the refund payment.')
  if (bankReference.length > MAX_BANK_REFERENCE_LENGTH) {
    throw new BackOfficeError('invalid-input', `The bank reference is too long (at most ${MAX_BANK_REFERENCE_LENGTH} characters).`)
  }
  const at = wallClock(context)
  return context.db.writeTransaction(async (transaction) => {
    const registration = await findRegistration(transaction, input.reference, false)
    const row = await transaction
      .selectFrom('refunds')
      .selectAll()
      .where('id', '=', String(input.refundId))
      .where('registration_id', '=', registration.id)
      .$if(context.db.dialect === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst()
    if (!row) throw new BackOfficeError('not-found', `Registration ${registration.reference} has no such refund.`)
    if (row.status !== 'awaiting-payout' && row.status !== 'refused') {
      throw new BackOfficeError('invalid-input', `This refund is ${row.status === 'paid-out' ? 'already recorded as paid out' : 'made by card'}; there is nothing to record.`)
    }
    const updated = await transaction
      .updateTable('refunds')
      .set({
        method: 'bank-transfer',
        status: 'paid-out',
        paid_out_on: input.paidOutOn,
        bank_reference: bankReference,
        recorded_by_id: staff.id,
        recorded_by_name: staff.name,
        updated_at: at.toISOString(),
      })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    const recorded = { registrationId: registration.id, reference: registration.reference, before: refundOf(row), after: refundOf(updated) }
    await auditInTransaction(transaction, staff, { action: 'refund-paid-out', subjectType: 'registration', subjectId: registration.reference, before: recorded.before, after: recorded.after })
    return recorded
  })
}
