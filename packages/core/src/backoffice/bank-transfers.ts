import { TIME_ZONE } from '@events/pricing'
import type { Kysely, Transaction } from 'kysely'
import { DateTime } from 'luxon'
import type { SiteSettingsForMail } from '../catalog.ts'
import type { Database } from '../db/database.ts'
import type { BankPaymentRow } from '../db/tables/bank-payments.ts'
import { newId } from '../ids.ts'
import { invoiceAttachment } from '../invoice/issue-invoice.ts'
import { formatInvoiceNumber } from '../invoice/invoice-number.ts'
import { paymentReceiptMail } from '../mail/payment-mails.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { registrantAddressErased } from '../registration/model.ts'
import { markRegistrationPaid, paymentStateOf, type PaymentState } from '../registration/payment-state.ts'
import { normaliseReference } from '../registration/reference.ts'
import { singleLine } from '../validation/fields.ts'
import { businessClock, wallClock, type ActingStaff, type BackOfficeContext } from './context.ts'
import { recordSurplus } from './refunds-to-pay.ts'
import { BackOfficeError } from './errors.ts'

const MAX_BANK_REFERENCE_LENGTH = 100
const MAX_NOTE_LENGTH = 1000

export interface BankTransferInput {
  /** The registration's reference, as staff typed it. */
  reference: string
  amountCents: number
  /** The date on the bank statement, YYYY-MM-DD. */
  receivedOn: string
  /** The bank's reference of the transfer; the same one is never recorded twice. */
  bankReference: string
  note?: string | undefined
}

export interface BankPayment {
  id: string
  amountCents: number
  receivedOn: string
  bankReference: string
  note: string
  recordedBy: ActingStaff
  recordedAt: string
}

export interface RecordedBankTransfer {
  registrationId: string
  reference: string
  payment: BankPayment
  before: PaymentState
  after: PaymentState
  /** True when this transfer paid the registration in full and its receipt was queued. */
  receiptQueued: boolean
  /** What the transfer paid beyond what was owed: a credit owed back to the registrant (0 when none). */
  surplusCents: number
}

/** A stored bank payment as the back office shows it. */
export function bankPaymentOf(row: BankPaymentRow): BankPayment {
  return {
    id: row.id,
    amountCents: row.amount_cents,
    receivedOn: row.received_on,
    bankReference: row.bank_reference,
    note: row.note,
    recordedBy: { id: row.recorded_by_id, name: row.recorded_by_name },
    recordedAt: row.recorded_at,
  }
}

/** A bank reference as stored and compared: surrounding spaces dropped, inner runs made one, upper case. */
export function normaliseBankReference(input: string): string {
  return singleLine(input).toUpperCase()
}

function readInput(input: BankTransferInput, today: string): Required<BankTransferInput> {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
    throw new BackOfficeError('invalid-input', 'Enter the amount received, more than R 0.00.', 'amountCents')
  }
  const receivedOn = DateTime.fromISO(String(input.receivedOn), { zone: TIME_ZONE })
  if (!/^\d{4}-\d{2}-\d{2}$/.test(String(input.receivedOn)) || !receivedOn.isValid) {
    throw new BackOfficeError('invalid-input', 'Enter the date the transfer was received, as on the bank statement (YYYY-MM-DD).', 'receivedOn')
  }
  if (input.receivedOn > today) throw new BackOfficeError('invalid-input', 'The date received cannot be later than today.', 'receivedOn')
  const bankReference = normaliseBankReference(String(input.bankReference ?? ''))
  if (bankReference === '') throw new BackOfficeError('invalid-input', "Enter the bank's reference of the transfer.", 'bankReference')
  if (bankReference.length > MAX_BANK_REFERENCE_LENGTH) {
    throw new BackOfficeError('invalid-input', `The bank reference is too long (at most ${MAX_BANK_REFERENCE_LENGTH} characters).`, 'bankReference')
  }
  const note = String(input.note ?? '').trim()
  if (note.length > MAX_NOTE_LENGTH) throw new BackOfficeError('invalid-input', `The note is too long (at most ${MAX_NOTE_LENGTH} characters).`, 'note')
  return { reference: input.reference, amountCents: input.amountCents, receivedOn: input.receivedOn, bankReference, note }
}

function isUniqueViolation(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return code === '23505' || (typeof message === 'string' && message.includes('UNIQUE constraint failed'))
}

/** The refusal of a bank reference already recorded, naming where; undefined when it is new. */
async function duplicateReferenceError(queries: Kysely<Database>, bankReference: string): Promise<BackOfficeError | undefined> {
  const earlier = await queries
    .selectFrom('bank_payments')
    .innerJoin('registrations', 'registrations.id', 'bank_payments.registration_id')
    .select(['registrations.reference', 'bank_payments.received_on'])
    .where('bank_payments.bank_reference', '=', bankReference)
    .executeTakeFirst()
  if (!earlier) return undefined
  return new BackOfficeError(
    'duplicate-bank-reference',
    `Bank reference ${bankReference} was already recorded (registration ${earlier.reference}, received ${earlier.received_on}). A transfer is recorded once.`,
    'bankReference',
  )
}

/**
 * Records a bank transfer against a registration, in full: the outstanding amount or more marks it paid and queues
 * the receipt with the tax invoice, and what it paid beyond the outstanding amount is recorded as a surplus owed back
 * (`surplus_refunds`); less leaves it part-paid. A registration with nothing outstanding, or a bank reference already
 * recorded, is refused.
 */
export async function recordBankTransfer(context: BackOfficeContext, input: BankTransferInput, staff: ActingStaff): Promise<RecordedBankTransfer> {
  const transfer = readInput(input, businessToday(context))
  const settings = await context.catalog.getSettings()
  try {
    return await context.db.writeTransaction((transaction) => recordTransferIn(transaction, context, transfer, settings, staff))
  } catch (error) {
    // Two recordings of one bank reference for different registrations at once: the unique index refuses the second.
    const duplicate = isUniqueViolation(error) ? await duplicateReferenceError(context.db.kysely, transfer.bankReference) : undefined
    if (duplicate) throw duplicate
    throw error
  }
}

function businessToday(context: BackOfficeContext): string {
  return DateTime.fromJSDate(businessClock(context), { zone: TIME_ZONE }).toISODate()!
}

/**
 * Records several transfers in one transaction (the parts of one statement line paying several registrations): each
 * as `recordBankTransfer` would, all or none.
 */
export async function recordBankTransfers(
  context: BackOfficeContext,
  inputs: readonly BankTransferInput[],
  staff: ActingStaff,
  alongside: (transaction: Transaction<Database>, recorded: RecordedBankTransfer[]) => Promise<void> = async () => {},
): Promise<RecordedBankTransfer[]> {
  const today = businessToday(context)
  const transfers = inputs.map((input) => readInput(input, today))
  const settings = await context.catalog.getSettings()
  try {
    return await context.db.writeTransaction(async (transaction) => {
      const recorded: RecordedBankTransfer[] = []
      for (const transfer of transfers) recorded.push(await recordTransferIn(transaction, context, transfer, settings, staff))
      await alongside(transaction, recorded)
      return recorded
    })
  } catch (error) {
    for (const transfer of transfers) {
      const duplicate = isUniqueViolation(error) ? await duplicateReferenceError(context.db.kysely, transfer.bankReference) : undefined
      if (duplicate) throw duplicate
    }
    throw error
  }
}

async function hasBankPayments(queries: Kysely<Database>, registrationId: string): Promise<boolean> {
  return (await queries.selectFrom('bank_payments').select('id').where('registration_id', '=', registrationId).limit(1).executeTakeFirst()) !== undefined
}

async function recordTransferIn(
  transaction: Transaction<Database>,
  context: BackOfficeContext,
  transfer: Required<BankTransferInput>,
  settings: SiteSettingsForMail,
  staff: ActingStaff,
): Promise<RecordedBankTransfer> {
  const { db } = context
  const reference = normaliseReference(String(transfer.reference))
  const at = wallClock(context)
  const paidAt = businessClock(context)
  // The row lock makes a second recording for the same registration wait for this one, so the outstanding
  // amount it reads already counts this payment. SQLite's write transactions run one at a time anyway.
  const registration = await transaction
    .selectFrom('registrations')
    .selectAll()
    .where('reference', '=', reference ?? '')
    .$if(db.dialect === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst()
  if (!registration) throw new BackOfficeError('not-found', `No registration has the reference ${String(transfer.reference).trim()}.`)
  const duplicate = await duplicateReferenceError(transaction, transfer.bankReference)
  if (duplicate) throw duplicate
  const before = await paymentStateOf(transaction, registration)
  // A registration paid by card has its card payment as its one payment (paidCentsOf): a transfer cannot join it.
  // Any other transfer is recorded in full, a second payment of a paid registration as a surplus owed back.
  if (registration.status === 'paid' && before.outstandingCents === 0 && !(await hasBankPayments(transaction, registration.id))) {
    throw new BackOfficeError(
      'already-paid',
      `Registration ${registration.reference} was paid by card; nothing is outstanding. Pay a second payment back to whoever sent it rather than recording it here.`,
    )
  }
  const payment: BankPayment = {
    id: newId(),
    amountCents: transfer.amountCents,
    receivedOn: transfer.receivedOn,
    bankReference: transfer.bankReference,
    note: transfer.note,
    recordedBy: { id: staff.id, name: staff.name },
    recordedAt: at.toISOString(),
  }
  await transaction
    .insertInto('bank_payments')
    .values({
      id: payment.id,
      registration_id: registration.id,
      amount_cents: payment.amountCents,
      received_on: payment.receivedOn,
      bank_reference: payment.bankReference,
      note: payment.note,
      recorded_by_id: staff.id,
      recorded_by_name: staff.name,
      recorded_at: payment.recordedAt,
    })
    .execute()
  // Only a transfer that settles what was outstanding marks the registration paid and sends the receipt; one that
  // arrives when nothing was outstanding is all surplus and leaves the registration as it was.
  const paidInFull = before.outstandingCents > 0 && transfer.amountCents >= before.outstandingCents
  // What arrived is recorded in full; what it paid beyond the amount owed is owed back to the registrant.
  const surplusCents = Math.max(0, transfer.amountCents - before.outstandingCents)
  if (surplusCents > 0) await recordSurplus(transaction, { registrationId: registration.id, bankPaymentId: payment.id, amountCents: surplusCents, at })
  if (paidInFull) {
    await markRegistrationPaid(transaction, registration.id, at)
    const invoice = await transaction.selectFrom('invoices').select(['id', 'number']).where('registration_id', '=', registration.id).executeTakeFirst()
    const invoiceNumber = invoice ? formatInvoiceNumber(Number(invoice.number)) : undefined
    const receipt = paymentReceiptMail({
      registration: {
        reference: registration.reference,
        eventTitle: registration.event_title,
        eventStart: registration.event_start,
        eventEnd: registration.event_end,
        companyName: registration.company_name,
        email: registration.email,
        totalCents: registration.total_cents,
        currency: registration.currency,
        statusUrl: context.links.registrationStatus(registration),
      },
      paidAt,
      paymentId: transfer.bankReference,
      invoiceNumber,
      testMode: false,
      settings,
      method: 'bank-transfer',
      invoiceAttachment: invoice && invoiceNumber ? invoiceAttachment({ id: invoice.id, number: invoiceNumber }) : undefined,
    })
    if (!registrantAddressErased(registration)) await enqueueMails(transaction, registration.id, [{ topic: 'payment.receipt', mail: receipt }], at)
  } else if (before.outstandingCents > 0 && registration.status !== 'part-paid') {
    await transaction.updateTable('registrations').set({ status: 'part-paid', updated_at: at.toISOString() }).where('id', '=', registration.id).execute()
  }
  const paidCents = before.paidCents + transfer.amountCents
  const after: PaymentState = paidInFull
    ? { status: 'paid', paidCents, outstandingCents: 0 }
    : before.outstandingCents === 0
      ? { status: registration.status, paidCents, outstandingCents: 0 }
      : { status: 'part-paid', paidCents, outstandingCents: before.outstandingCents - transfer.amountCents }
  return { registrationId: registration.id, reference: registration.reference, payment, before, after, receiptQueued: paidInFull, surplusCents }
}
