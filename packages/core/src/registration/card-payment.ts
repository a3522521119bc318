import { invoiceAttachment } from '../invoice/issue-invoice.ts'
import type { MailAttachment } from '../mail/outgoing-mail.ts'
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'
import { formatInvoiceNumber } from '../invoice/invoice-number.ts'
import { markRegistrationPaid, paymentStateOf, type PaymentState } from './payment-state.ts'

/**
 * Whether a card charge is what a registration still owes. A card charge is always the whole total, so it is owed only
 * while nothing has been paid by transfer or credited by a cancellation; after either, the rest is paid by transfer.
 */
export type CardChargeStanding = 'owed' | 'paid' | 'not-owed'

export async function cardChargeStanding(
  queries: Kysely<Database>,
  registration: Pick<RegistrationRow, 'id' | 'status' | 'total_cents'>,
): Promise<CardChargeStanding> {
  return standingOf(registration, await paymentStateOf(queries, registration))
}

function standingOf(registration: Pick<RegistrationRow, 'status' | 'total_cents'>, state: PaymentState): CardChargeStanding {
  if (registration.status === 'paid') return 'paid'
  return state.outstandingCents === registration.total_cents ? 'owed' : 'not-owed'
}

/** A verified card payment of one of a registration's checkouts, as the provider reported it. */
export interface CardPaymentInput {
  registrationId: string
  amountCents: number | null
  currency: string | null
  at: Date
  /** Lock the registration row until the transaction ends (PostgreSQL), as a bank transfer's recording does. */
  lock: boolean
}

/**
 * What a card payment did to its registration:
 * - `paid`: it was owed and marked the registration paid;
 * - `amount-mismatch`: another amount or currency than the registration's total; nothing changed;
 * - `already-paid`: the registration was paid before; nothing changed;
 * - `not-owed`: the card total is no longer owed because bank transfers were recorded or a cancellation credited part
 *   of it after the checkout was opened; nothing changed, so nothing is counted twice, and the payment needs a refund.
 */
export type CardPaymentOutcome = 'paid' | 'amount-mismatch' | 'already-paid' | 'not-owed'

export interface RecordedCardPayment {
  outcome: CardPaymentOutcome
  registration: RegistrationRow
  /** What had been paid and what was outstanding before this payment. */
  paidCents: number
  outstandingCents: number
  invoiceNumber: string | undefined
  /** The tax invoice as a receipt attaches it (rendered when the e-mail is sent), as for a bank transfer. */
  invoiceAttachment: MailAttachment | undefined
}

/** Applies a verified card payment to its registration inside the caller's transaction; see `CardPaymentOutcome`. */
export async function recordCardPayment(transaction: Transaction<Database>, input: CardPaymentInput): Promise<RecordedCardPayment> {
  const registration = await transaction
    .selectFrom('registrations')
    .selectAll()
    .where('id', '=', input.registrationId)
    .$if(input.lock, (query) => query.forUpdate())
    .executeTakeFirstOrThrow()
  const [state, invoice] = await Promise.all([
    paymentStateOf(transaction, registration),
    transaction.selectFrom('invoices').select(['id', 'number']).where('registration_id', '=', registration.id).orderBy('number', 'desc').executeTakeFirst(),
  ])
  const answer = {
    registration,
    paidCents: state.paidCents,
    outstandingCents: state.outstandingCents,
    invoiceNumber: invoice ? formatInvoiceNumber(Number(invoice.number)) : undefined,
    invoiceAttachment: invoice ? invoiceAttachment({ id: invoice.id, number: formatInvoiceNumber(Number(invoice.number)) }) : undefined,
  }
  if (input.amountCents !== registration.total_cents || input.currency !== registration.currency) return { outcome: 'amount-mismatch', ...answer }
  const standing = standingOf(registration, state)
  if (standing === 'paid') return { outcome: 'already-paid', ...answer }
  if (standing === 'not-owed') return { outcome: 'not-owed', ...answer }
  await markRegistrationPaid(transaction, registration.id, input.at)
  return { outcome: 'paid', ...answer }
}
