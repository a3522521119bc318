import type { Kysely, Transaction } from 'kysely'
import * as z from 'zod/mini'
import type { SiteSettingsForMail } from '../catalog.ts'
import type { Database } from '../db/database.ts'
import type { BankPaymentRow } from '../db/tables/bank-payments.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'
import { newId } from '../ids.ts'
import { invoiceAttachment } from '../invoice/issue-invoice.ts'
import { formatInvoiceNumber } from '../invoice/invoice-number.ts'
import { bankTransferMail } from '../mail/payment-mails.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { bankDescriptionsOf } from '../registration/bank-descriptions.ts'
import { registrantAddressErased } from '../registration/model.ts'
import { issueCertificatesOfPaidRegistration } from '../event-days/certificates.ts'
import { markRegistrationPaid, paymentStateOf, type PaymentState } from '../registration/payment-state.ts'
import { normaliseReference } from '../registration/reference.ts'
import { optionalText, ownFields } from '../submissions/fields.ts'
import { recordSurplus } from '../invoice/surplus.ts'
import { recordDealPayment } from '../sponsorship/deal-payments.ts'
import { normaliseBankReference } from '../validation/fields.ts'
import { staffCommand, type AuditedChange, type CommandChange, type StaffCommandContext } from './command.ts'
import { businessClock, wallClock, type ActingStaff } from './context.ts'
import { BackOfficeError } from './errors.ts'
import { dayIn, fieldRefusal, isoDay, randAmount, referenceField } from './fields.ts'

const MAX_BANK_REFERENCE_LENGTH = 100
const MAX_NOTE_LENGTH = 1000

/** A bank transfer as the record-a-transfer form sends it: the amount in rand, the date as on the statement. */
export const bankTransferSchema = z.pipe(
  ownFields,
  z.pipe(
    z.object({
      reference: referenceField,
      amount: randAmount,
      receivedOn: isoDay,
      bankReference: z.pipe(
        z.transform(normaliseBankReference),
        z.string().check(z.minLength(1, 'required'), z.maxLength(MAX_BANK_REFERENCE_LENGTH, 'too-long')),
      ),
      note: optionalText(MAX_NOTE_LENGTH),
    }),
    z.transform(({ amount, ...rest }) => ({ ...rest, amountCents: amount })),
  ),
)
/** The form's fields as sent (`amount` in rand, e.g. "8 990.00"). */
export interface BankTransferForm {
  reference: string
  amount: string
  /** The date on the bank statement, YYYY-MM-DD. */
  receivedOn: string
  bankReference: string
  note?: string | undefined
}
/** A parsed transfer: the amount in cents, the bank reference normalised. */
export type BankTransferInput = z.output<typeof bankTransferSchema>

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
  /** What the transfer paid: a registration, or a sponsorship deal's invoice (named by the deal's reference). */
  payer: 'registration' | 'sponsorship-deal'
  /** The registration's id, or the deal's. */
  registrationId: string
  reference: string
  payment: BankPayment
  before: PaymentState
  after: PaymentState
  /** True when this transfer paid the registration in full and its receipt was queued. */
  receiptQueued: boolean
  /** True when this transfer paid part of what was outstanding and its acknowledgement was queued. */
  acknowledgementQueued: boolean
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

/** The day a registration was made by the business clock: its first tax invoice's date, issued with it. */
async function registeredOn(queries: Kysely<Database>, registration: RegistrationRow): Promise<string> {
  const invoice = await queries.selectFrom('invoices').select('issued_at').where('registration_id', '=', registration.id).orderBy('number').executeTakeFirst()
  return dayIn(new Date(invoice?.issued_at ?? registration.created_at))
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
  const earlierForDeal =
    earlier ??
    (await queries
      .selectFrom('sponsorship_payments')
      .innerJoin('sponsorship_deals', 'sponsorship_deals.id', 'sponsorship_payments.deal_id')
      .select(['sponsorship_deals.reference', 'sponsorship_payments.received_on'])
      .where('sponsorship_payments.bank_reference', '=', bankReference)
      .executeTakeFirst())
  if (!earlierForDeal) return undefined
  return new BackOfficeError('duplicate-bank-reference', { reference: earlierForDeal.reference, receivedOn: earlierForDeal.received_on }, 'bankReference')
}

async function hasBankPayments(queries: Kysely<Database>, registrationId: string): Promise<boolean> {
  return (await queries.selectFrom('bank_payments').select('id').where('registration_id', '=', registrationId).limit(1).executeTakeFirst()) !== undefined
}

/**
 * The change of recording transfers (each a parsed `bankTransferSchema`), all in the command's one transaction: the
 * parts of one statement line paying several registrations are recorded all or none. Dates after today (business
 * clock) are refused before the transaction.
 */
export async function bankTransfersChange(
  context: StaffCommandContext,
  transfers: readonly BankTransferInput[],
  staff: ActingStaff,
): Promise<CommandChange<RecordedBankTransfer[]>> {
  const today = dayIn(businessClock(context))
  if (transfers.some((transfer) => transfer.receivedOn > today)) throw fieldRefusal('receivedOn', 'date-in-future')
  const settings = await context.catalog.getSettings()
  return async (transaction) => {
    const result: RecordedBankTransfer[] = []
    const audit: AuditedChange[] = []
    let mailQueued = false
    for (const transfer of transfers) {
      const { mailQueued: queued, ...recorded } = await recordTransferIn(transaction, context, transfer, settings, staff)
      mailQueued ||= queued
      result.push(recorded)
      audit.push({
        action: recorded.payer === 'registration' ? 'registration-payment-recorded' : 'sponsorship-payment-recorded',
        subjectType: recorded.payer,
        subjectId: recorded.reference,
        before: recorded.before,
        after: {
          ...recorded.after,
          bankTransfer: { amountCents: recorded.payment.amountCents, receivedOn: recorded.payment.receivedOn, bankReference: recorded.payment.bankReference },
          surplusCents: recorded.surplusCents,
        },
      })
    }
    // A registration these transfers paid in full releases the certificates its delegates were waiting for.
    const paid = result.filter((recorded) => recorded.payer === 'registration' && recorded.before.status !== 'paid' && recorded.after.status === 'paid')
    const afterCommit = async () => {
      let issued = 0
      for (const recorded of paid) issued += await issueCertificatesOfPaidRegistration(context, recorded.registrationId)
      if (issued > 0) context.onMailQueued?.()
    }
    return { result, audit, mailQueued, afterCommit: paid.length > 0 ? afterCommit : undefined }
  }
}

/**
 * The refusal a failed transfer transaction means: a bank reference another recording took meanwhile (the unique
 * index refuses the second of two at once), else undefined.
 */
export async function explainTransferFailure(
  error: unknown,
  transfers: readonly BankTransferInput[],
  context: StaffCommandContext,
): Promise<BackOfficeError | undefined> {
  if (!isUniqueViolation(error)) return undefined
  for (const transfer of transfers) {
    const duplicate = await duplicateReferenceError(context.db.kysely, transfer.bankReference)
    if (duplicate) return duplicate
  }
  return undefined
}

/**
 * Records a bank transfer against a registration, in full: the outstanding amount or more marks it paid and queues
 * the receipt with the tax invoice, and what it paid beyond the outstanding amount is recorded as a surplus owed back
 * (`surplus_refunds`); less leaves it part-paid. A registration paid by card, a bank reference already recorded, or a
 * date before the registration was made or after today (business clock) is refused.
 */
export const recordBankTransfer = staffCommand(
  bankTransferSchema,
  async (context, transfer, staff) => {
    const change = await bankTransfersChange(context, [transfer], staff)
    return async (transaction) => {
      const outcome = await change(transaction)
      return { ...outcome, result: outcome.result[0]! }
    }
  },
  { explainFailure: (error, transfer, context) => explainTransferFailure(error, [transfer], context) },
)

async function recordTransferIn(
  transaction: Transaction<Database>,
  context: StaffCommandContext,
  transfer: BankTransferInput,
  settings: SiteSettingsForMail,
  staff: ActingStaff,
): Promise<RecordedBankTransfer & { mailQueued: boolean }> {
  const { db } = context
  const at = wallClock(context)
  // The row lock makes a second recording for the same registration wait for this one, so the outstanding
  // amount it reads already counts this payment. SQLite's write transactions run one at a time anyway.
  const registration = await transaction
    .selectFrom('registrations')
    .selectAll()
    .where('reference', '=', normaliseReference(transfer.reference) ?? '')
    .$if(db.dialect === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst()
  if (!registration) return recordDealTransferIn(transaction, context, transfer, settings, staff)
  if (transfer.receivedOn < (await registeredOn(transaction, registration))) throw fieldRefusal('receivedOn', 'date-before-registration')
  const duplicate = await duplicateReferenceError(transaction, transfer.bankReference)
  if (duplicate) throw duplicate
  const before = await paymentStateOf(transaction, registration)
  // A registration paid by card has its card payment as its one payment (paidCentsOf): a transfer cannot join it.
  // Any other transfer is recorded in full, a second payment of a paid registration as a surplus owed back.
  if (registration.status === 'paid' && before.outstandingCents === 0 && !(await hasBankPayments(transaction, registration.id))) {
    throw new BackOfficeError('already-paid', { reference: registration.reference })
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
  } else if (before.outstandingCents > 0 && registration.status !== 'part-paid') {
    await transaction.updateTable('registrations').set({ status: 'part-paid', updated_at: at.toISOString() }).where('id', '=', registration.id).execute()
  }
  // A transfer that arrives when nothing was outstanding is all surplus: the staff's list of refunds to pay shows it.
  let mailQueued = false
  if (before.outstandingCents > 0 && !registrantAddressErased(registration)) {
    const invoice = await transaction
      .selectFrom('invoices')
      .select(['id', 'number'])
      .where('registration_id', '=', registration.id)
      .orderBy('number', 'desc')
      .executeTakeFirst()
    const invoiceNumber = invoice ? formatInvoiceNumber(Number(invoice.number)) : undefined
    const descriptions = await bankDescriptionsOf(transaction, [transfer.bankReference])
    const mail = bankTransferMail({
      registration: {
        reference: registration.reference,
        eventTitle: registration.event_title,
        eventStart: registration.event_start,
        eventEnd: registration.event_end,
        companyName: registration.company_name,
        purchaseOrderNumber: registration.purchase_order_number,
        email: registration.email,
        totalCents: registration.total_cents,
        currency: registration.currency,
        statusUrl: context.links.registrationStatus(registration),
      },
      transfer: {
        amountCents: transfer.amountCents,
        receivedOn: transfer.receivedOn,
        bankDescription: descriptions.get(transfer.bankReference) ?? transfer.bankReference,
        settledCents: Math.min(transfer.amountCents, before.outstandingCents),
        remainingCents: Math.max(0, before.outstandingCents - transfer.amountCents),
        surplusCents,
      },
      invoiceNumber,
      settings,
      invoiceAttachment: invoice && invoiceNumber ? invoiceAttachment({ id: invoice.id, number: invoiceNumber }) : undefined,
    })
    await enqueueMails(transaction, registration.id, [{ topic: paidInFull ? 'payment.receipt' : 'payment.part-payment', mail }], at)
    mailQueued = true
  }
  const paidCents = before.paidCents + transfer.amountCents
  const after: PaymentState = paidInFull
    ? { status: 'paid', paidCents, outstandingCents: 0 }
    : before.outstandingCents === 0
      ? { status: registration.status, paidCents, outstandingCents: 0 }
      : { status: 'part-paid', paidCents, outstandingCents: before.outstandingCents - transfer.amountCents }
  return {
    payer: 'registration',
    registrationId: registration.id,
    reference: registration.reference,
    payment,
    before,
    after,
    receiptQueued: paidInFull && mailQueued,
    acknowledgementQueued: !paidInFull && mailQueued,
    surplusCents,
    mailQueued,
  }
}

/**
 * A transfer whose reference is a sponsorship deal's, with the same checks as a registration's: the deal must be
 * invoiced, the date not before its invoice, the bank reference new. Paid in full, a deal whose codes wait for the
 * payment has them e-mailed (recordDealPayment).
 */
async function recordDealTransferIn(
  transaction: Transaction<Database>,
  context: StaffCommandContext,
  transfer: BankTransferInput,
  settings: SiteSettingsForMail,
  staff: ActingStaff,
): Promise<RecordedBankTransfer & { mailQueued: boolean }> {
  const deal = await transaction
    .selectFrom('sponsorship_deals')
    .selectAll()
    .where('reference', '=', normaliseReference(transfer.reference) ?? '')
    .$if(context.db.dialect === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst()
  if (!deal) throw new BackOfficeError('not-found', { missing: 'registration', reference: transfer.reference })
  const invoice = await transaction.selectFrom('sponsorship_invoices').select('issued_at').where('deal_id', '=', deal.id).executeTakeFirst()
  if (!invoice) throw new BackOfficeError('deal-not-approved')
  if (transfer.receivedOn < dayIn(new Date(invoice.issued_at))) throw fieldRefusal('receivedOn', 'date-before-registration')
  const duplicate = await duplicateReferenceError(transaction, transfer.bankReference)
  if (duplicate) throw duplicate
  const at = wallClock(context)
  const event = await context.catalog.getEvent(deal.event_slug)
  const recorded = await recordDealPayment(transaction, deal, transfer, staff, { at, eventUrl: event?.url ?? '', settings })
  return {
    payer: 'sponsorship-deal',
    registrationId: deal.id,
    reference: deal.reference,
    payment: {
      id: recorded.paymentId,
      amountCents: transfer.amountCents,
      receivedOn: transfer.receivedOn,
      bankReference: transfer.bankReference,
      note: transfer.note,
      recordedBy: { id: staff.id, name: staff.name },
      recordedAt: at.toISOString(),
    },
    before: recorded.before,
    after: recorded.after,
    receiptQueued: false,
    acknowledgementQueued: false,
    surplusCents: recorded.surplusCents,
    mailQueued: recorded.mailQueued,
  }
}
