import { formatRand } from '@events/pricing'
import type { Kysely } from 'kysely'
import * as z from 'zod/mini'
import type { Database } from '../db/database.ts'
import type { BankPaymentRow } from '../db/tables/bank-payments.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'
import { newId } from '../ids.ts'
import { invoiceAttachment } from '../invoice/issue-invoice.ts'
import { formatInvoiceNumber } from '../invoice/invoice-number.ts'
import { paymentReceiptMail } from '../mail/payment-mails.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { registrantAddressErased } from '../registration/model.ts'
import { markRegistrationPaid, paymentStateOf, type PaymentState } from '../registration/payment-state.ts'
import { normaliseReference } from '../registration/reference.ts'
import { optionalText, ownFields } from '../submissions/fields.ts'
import { singleLine } from '../validation/fields.ts'
import { staffCommand } from './command.ts'
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
      bankReference: z.pipe(z.transform(normaliseBankReference), z.string().check(z.minLength(1, 'required'), z.maxLength(MAX_BANK_REFERENCE_LENGTH, 'too-long'))),
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
  registrationId: string
  reference: string
  payment: BankPayment
  before: PaymentState
  after: PaymentState
  /** True when this transfer paid the registration in full and its receipt was queued. */
  receiptQueued: boolean
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
export function normaliseBankReference(input: unknown): string {
  return singleLine(input).toUpperCase()
}

/** The day a registration was made by the business clock: its tax invoice's date, issued with it. */
async function registeredOn(queries: Kysely<Database>, registration: RegistrationRow): Promise<string> {
  const invoice = await queries.selectFrom('invoices').select('issued_at').where('registration_id', '=', registration.id).executeTakeFirst()
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
  if (!earlier) return undefined
  return new BackOfficeError(
    'duplicate-bank-reference',
    `Bank reference ${bankReference} was already recorded (registration ${earlier.reference}, received ${earlier.received_on}). A transfer is recorded once.`,
    'bankReference',
    { reference: earlier.reference, receivedOn: earlier.received_on },
  )
}

/**
 * Records a bank transfer against a registration: the full outstanding amount marks it paid and queues the receipt
 * with the tax invoice; less leaves it part-paid. More than is outstanding, a bank reference already recorded, or a
 * date before the registration was made or after today (business clock) is refused.
 */
export const recordBankTransfer = staffCommand(bankTransferSchema, async (context, transfer, staff) => {
  const { db } = context
  const today = dayIn(businessClock(context))
  if (transfer.receivedOn > today) throw fieldRefusal('receivedOn', 'date-in-future')
  const settings = await context.catalog.getSettings()
  const at = wallClock(context)
  const paidAt = businessClock(context)
  return async (transaction) => {
    // The row lock makes a second recording for the same registration wait for this one, so the outstanding
    // amount it reads already counts this payment. SQLite's write transactions run one at a time anyway.
    const registration = await transaction
      .selectFrom('registrations')
      .selectAll()
      .where('reference', '=', normaliseReference(transfer.reference) ?? '')
      .$if(db.dialect === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst()
    if (!registration) throw new BackOfficeError('not-found', `No registration has the reference ${transfer.reference}.`)
    if (transfer.receivedOn < (await registeredOn(transaction, registration))) throw fieldRefusal('receivedOn', 'date-before-registration')
    const duplicate = await duplicateReferenceError(transaction, transfer.bankReference)
    if (duplicate) throw duplicate
    const before = await paymentStateOf(transaction, registration)
    if (before.outstandingCents === 0) {
      throw new BackOfficeError('already-paid', `Registration ${registration.reference} is already paid in full; nothing is outstanding.`)
    }
    if (transfer.amountCents > before.outstandingCents) {
      throw new BackOfficeError(
        'overpayment',
        `${formatRand(transfer.amountCents)} is more than the ${formatRand(before.outstandingCents)} outstanding on registration ${registration.reference}. Record at most the outstanding amount.`,
        'amount',
        { amountCents: transfer.amountCents, outstandingCents: before.outstandingCents, reference: registration.reference },
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
    const paidInFull = transfer.amountCents === before.outstandingCents
    let receiptQueued = false
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
      if (!registrantAddressErased(registration)) {
        await enqueueMails(transaction, registration.id, [{ topic: 'payment.receipt', mail: receipt }], at)
        receiptQueued = true
      }
    } else if (registration.status !== 'part-paid') {
      await transaction.updateTable('registrations').set({ status: 'part-paid', updated_at: at.toISOString() }).where('id', '=', registration.id).execute()
    }
    const after: PaymentState = paidInFull
      ? { status: 'paid', paidCents: before.paidCents + transfer.amountCents, outstandingCents: 0 }
      : { status: 'part-paid', paidCents: before.paidCents + transfer.amountCents, outstandingCents: before.outstandingCents - transfer.amountCents }
    const result: RecordedBankTransfer = { registrationId: registration.id, reference: registration.reference, payment, before, after, receiptQueued: paidInFull }
    return {
      result,
      mailQueued: receiptQueued,
      audit: [
        {
          action: 'registration-payment-recorded',
          subjectType: 'registration',
          subjectId: registration.reference,
          before,
          after: { ...after, bankTransfer: { amountCents: payment.amountCents, receivedOn: payment.receivedOn, bankReference: payment.bankReference } },
        },
      ],
    }
  }
}, {
  // Two recordings of one bank reference for different registrations at once: the unique index refuses the second.
  explainFailure: async (error, transfer, context) => (isUniqueViolation(error) ? await duplicateReferenceError(context.db.kysely, transfer.bankReference) : undefined),
})
