import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { OutboxStatus } from '../db/tables/outbox-messages.ts'
import type { PaymentMethod } from '../submissions/choices.ts'
import { issuedInvoiceDownload, issuedInvoicesOf, type IssuedInvoice } from '../invoice/issued-invoices.ts'
import { paymentStateOf } from '../registration/payment-state.ts'
import { registrationStatement, type RegistrationStatement } from '../registration/statement.ts'
import { normaliseReference } from '../registration/reference.ts'
import { storedEventOf, type InvoiceDownload, type StoredEvent } from '../registration/model.ts'
import { bankPaymentOf, type BankPayment } from './bank-transfers.ts'
import type { BackOfficeContext } from './context.ts'
import type { RegistrationKey } from '../site-links.ts'
import { summariseMessage, type MessageSummary } from './emails.ts'
import { surplusRefundsOf } from './refunds-to-pay.ts'
import { discountUsedBy, type DiscountUsed } from '../discounts/codes.ts'

/** A registration as staff see it; its key makes the registrant's private link, to send again to one who lost it. */
export interface RegistrationDetail extends RegistrationKey {
  /** Its payment status; `cancelledAt` and `partCancelled` say whether it still stands. */
  status: string
  /** When it was cancelled as a whole (every delegate); null while any delegate attends. */
  cancelledAt: string | null
  /** True when some delegates were cancelled and others still attend. */
  partCancelled: boolean
  createdAt: string
  paidAt: string | null
  event: StoredEvent
  code: string
  company: { name: string; address: string; email: string; tel: string; vatNumber: string; purchaseOrderNumber: string }
  /** The quotation the registration was made from (Q-000042); empty for none. */
  quotationNumber: string
  attendanceOption: { key: string; label: string }
  paymentMethod: PaymentMethod
  /** Every delegate in the order registered; a cancelled one stays listed, marked. */
  delegates: Array<{ name: string; position: string; email: string; attendance: 'venue' | 'online'; cancelled: boolean }>
  amounts: {
    unitAmountCents: number
    subtotalCents: number
    vatRate: number
    vatCents: number
    totalCents: number
    currency: string
    paidCents: number
    outstandingCents: number
  }
  /** Its invoice, credit notes, payments and refunds as one statement, whose lines add up to what is outstanding or owed back. */
  statement: RegistrationStatement
  invoice?: { number: string; issuedAt: string }
  /** Every tax invoice it was issued, oldest first, the replaced ones naming what replaced them. */
  invoices: IssuedInvoice[]
  bankPayments: BankPayment[]
  /** What transfers paid beyond what was owed: credits owed back to the registrant, or paid out. */
  surplusRefunds: Array<{ amountCents: number; status: 'awaiting-payout' | 'paid-out'; paidOutOn: string | null; bankReference: string | null }>
  emails: RegistrationEmail[]
  /** The discount code it used, if any: a sponsor's complimentary seat is marked as such. */
  discount?: DiscountUsed | undefined
}

export interface RegistrationEmail extends MessageSummary {
  status: OutboxStatus
  nextAttemptAt: string
  sentAt: string | null
}

/** Everything the back office shows about one registration, by its reference; undefined when there is none. */
export async function getRegistrationDetail(context: BackOfficeContext, referenceInput: string): Promise<RegistrationDetail | undefined> {
  const { db } = context
  const reference = normaliseReference(String(referenceInput))
  if (!reference) return undefined
  const kysely: Kysely<Database> = db.kysely
  const row = await kysely.selectFrom('registrations').selectAll().where('reference', '=', reference).executeTakeFirst()
  if (!row) return undefined
  const [delegates, invoices, bankPayments, messages, payment, surplusRefunds, statement] = await Promise.all([
    kysely
      .selectFrom('registration_delegates')
      .select(['name', 'position', 'email', 'attendance', 'cancellation_id'])
      .where('registration_id', '=', row.id)
      .orderBy('ordinal')
      .execute(),
    issuedInvoicesOf(kysely, [row.id]).then((byRegistration) => byRegistration.get(row.id) ?? []),
    kysely.selectFrom('bank_payments').selectAll().where('registration_id', '=', row.id).orderBy('recorded_at').orderBy('id').execute(),
    kysely.selectFrom('outbox_messages').selectAll().where('source_id', '=', row.id).orderBy('created_at').orderBy('id').execute(),
    paymentStateOf(kysely, row),
    surplusRefundsOf(context, row.id),
    registrationStatement(kysely, row),
  ])
  const discount = await discountUsedBy(kysely, row.id)
  const invoice = invoices.at(-1)
  const emails = await Promise.all(
    messages.map(async (message): Promise<RegistrationEmail> => ({
      ...(await summariseMessage(db, message)),
      status: message.status,
      nextAttemptAt: message.next_attempt_at,
      sentAt: message.sent_at,
    })),
  )
  return {
    reference: row.reference,
    secret: row.secret,
    status: row.status,
    cancelledAt: row.cancelled_at,
    partCancelled: row.cancelled_at === null && delegates.some((delegate) => delegate.cancellation_id !== null),
    createdAt: row.created_at,
    paidAt: row.paid_at,
    event: storedEventOf(row),
    code: row.submitted_code,
    company: {
      name: row.company_name,
      address: row.address,
      email: row.email,
      tel: row.tel,
      vatNumber: row.vat_number,
      purchaseOrderNumber: row.purchase_order_number,
    },
    quotationNumber: row.quotation_number,
    attendanceOption: { key: row.attendance_option, label: row.attendance_option_label },
    paymentMethod: row.payment_method,
    delegates: delegates.map(({ cancellation_id: cancellationId, ...delegate }) => ({ ...delegate, cancelled: cancellationId !== null })),
    amounts: {
      unitAmountCents: row.unit_amount_cents,
      subtotalCents: row.subtotal_cents,
      vatRate: row.vat_rate,
      vatCents: row.vat_cents,
      totalCents: row.total_cents,
      currency: row.currency,
      paidCents: payment.paidCents,
      outstandingCents: statement.outstandingCents,
    },
    statement,
    ...(invoice ? { invoice } : {}),
    invoices,
    bankPayments: bankPayments.map(bankPaymentOf),
    surplusRefunds,
    emails,
    ...(discount ? { discount } : {}),
  }
}

/**
 * One of a registration's tax invoices as a PDF by its reference alone (by the invoice's number; the current one
 * without), for staff; undefined when there is no such invoice.
 */
export async function registrationInvoicePdf(context: BackOfficeContext, referenceInput: string, invoiceNumber?: string): Promise<InvoiceDownload | undefined> {
  const { db } = context
  const reference = normaliseReference(String(referenceInput))
  if (!reference) return undefined
  const registration = await db.kysely.selectFrom('registrations').select('id').where('reference', '=', reference).executeTakeFirst()
  return registration ? issuedInvoiceDownload(db, registration.id, invoiceNumber) : undefined
}
