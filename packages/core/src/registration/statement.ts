import { bankDescriptionsOf } from './bank-descriptions.ts'
import type { Kysely } from 'kysely'
import { formatCreditNoteNumber } from '../cancellation/credit-note.ts'
import type { CreditNoteData } from '../cancellation/credit-note-pdf.ts'
import { johannesburgDay } from '../cancellation/fee-rules.ts'
import type { Database } from '../db/database.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'
import { formatInvoiceNumber } from '../invoice/invoice-number.ts'
import { paidCentsOf } from './payment-state.ts'

/**
 * What a statement line records. Documents: a tax invoice charges, a credit note credits. Money: a bank transfer or a
 * card payment received, and money given back (a card refund the provider made, a cancellation's refund or a
 * transfer's surplus paid out by bank transfer).
 */
export type StatementLineKind = 'invoice' | 'credit-note' | 'bank-transfer' | 'card-payment' | 'card-refund' | 'refund-paid-out' | 'surplus-paid-out'

/** One line of a registration's statement. */
export interface StatementLine {
  kind: StatementLineKind
  /** The Johannesburg calendar day it happened, YYYY-MM-DD. */
  on: string
  /** The document's number (INV-000001, CN-000001) or the bank's reference of a transfer; '' where there is none. */
  reference: string
  /** In cents incl. VAT: positive what it adds to what the registrant owes (a charge, money given back), negative what it takes off. */
  amountCents: number
}

/** A registration's account: its documents and money in the order they happened, and where they leave it. */
export interface RegistrationStatement {
  lines: StatementLine[]
  /** The sum of the lines: positive what the registrant owes, negative what is owed back to them. */
  balanceCents: number
  /** What the registrant still owes: the balance, never below nothing. */
  outstandingCents: number
  /** What is owed back to the registrant (a refund or a surplus not yet paid out): the balance's other side. */
  owedToRegistrantCents: number
}

/**
 * The order of lines on one day, as they follow each other: the invoice, the payment, a cancellation's credit note,
 * then the refund that credit made.
 */
const KIND_ORDER: readonly StatementLineKind[] = [
  'invoice',
  'bank-transfer',
  'card-payment',
  'credit-note',
  'card-refund',
  'refund-paid-out',
  'surplus-paid-out',
]

type StatementRegistration = Pick<RegistrationRow, 'id' | 'status' | 'total_cents' | 'created_at' | 'paid_at'>

/**
 * Reads one kind of line for a registration. Each source is independent; another kind of document is one more source.
 */
type StatementSource = (queries: Kysely<Database>, registration: StatementRegistration) => Promise<StatementLine[]>

/**
 * The tax invoices: each charges the registration's total as registered. A corrected invoice (correctInvoice) is
 * followed by its replacement for the same supply, so a registration whose invoice was corrected has one line each.
 */
const invoiceLines: StatementSource = async (queries, registration) => {
  const invoices = await queries
    .selectFrom('invoices')
    .select(['number', 'issued_at'])
    .where('registration_id', '=', registration.id)
    .orderBy('number')
    .execute()
  if (invoices.length === 0) return [{ kind: 'invoice', on: johannesburgDay(registration.created_at), reference: '', amountCents: registration.total_cents }]
  return invoices.map((invoice) => ({
    kind: 'invoice' as const,
    on: johannesburgDay(invoice.issued_at),
    reference: formatInvoiceNumber(Number(invoice.number)),
    amountCents: registration.total_cents,
  }))
}

/**
 * The credit notes: each cancellation's, crediting what the cancellation credited, and an invoice correction's,
 * crediting the corrected invoice in full.
 */
const creditNoteLines: StatementSource = async (queries, registration) => {
  const [cancellations, corrections] = await Promise.all([
    queries
      .selectFrom('cancellations')
      .leftJoin('credit_notes', 'credit_notes.cancellation_id', 'cancellations.id')
      .select(['cancellations.cancelled_on', 'cancellations.credited_total_cents', 'credit_notes.number'])
      .where('cancellations.registration_id', '=', registration.id)
      .orderBy('cancellations.cancelled_at')
      .execute(),
    queries
      .selectFrom('credit_notes')
      .select(['number', 'issued_at', 'data_json'])
      .where('registration_id', '=', registration.id)
      .where('cancellation_id', 'is', null)
      .orderBy('number')
      .execute(),
  ])
  return [
    ...cancellations.map((row) => ({
      kind: 'credit-note' as const,
      on: row.cancelled_on,
      reference: row.number === null ? '' : formatCreditNoteNumber(Number(row.number)),
      amountCents: -row.credited_total_cents,
    })),
    ...corrections.map((note) => ({
      kind: 'credit-note' as const,
      on: johannesburgDay(note.issued_at),
      reference: formatCreditNoteNumber(Number(note.number)),
      amountCents: -(JSON.parse(note.data_json) as Pick<CreditNoteData, 'creditedTotalCents'>).creditedTotalCents,
    })),
  ]
}

/**
 * What was received: its bank transfers (in full, a surplus included) and, paid without any transfer, the card
 * payment of the whole total, as `paidCentsOf` counts them.
 */
const paymentLines: StatementSource = async (queries, registration) => {
  const transfers = await queries
    .selectFrom('bank_payments')
    .select(['received_on', 'bank_reference', 'amount_cents'])
    .where('registration_id', '=', registration.id)
    .orderBy('received_on')
    .orderBy('recorded_at')
    .execute()
  const bankDescriptions = await bankDescriptionsOf(
    queries,
    transfers.map((transfer) => transfer.bank_reference),
  )
  const transferredCents = transfers.reduce((sum, transfer) => sum + transfer.amount_cents, 0)
  const cardCents = paidCentsOf(registration, transferredCents) - transferredCents
  return [
    ...transfers.map((transfer) => ({
      kind: 'bank-transfer' as const,
      on: transfer.received_on,
      reference: bankDescriptions.get(transfer.bank_reference) ?? transfer.bank_reference,
      amountCents: -transfer.amount_cents,
    })),
    ...(cardCents > 0
      ? [{ kind: 'card-payment' as const, on: johannesburgDay(registration.paid_at ?? registration.created_at), reference: '', amountCents: -cardCents }]
      : []),
  ]
}

/** Money given back: card refunds the provider made, refunds and surpluses paid out by transfer. Those still owed are the balance. */
const refundLines: StatementSource = async (queries, registration) => {
  const [refunds, surpluses] = await Promise.all([
    queries
      .selectFrom('refunds')
      .select(['status', 'amount_cents', 'paid_out_on', 'bank_reference', 'updated_at'])
      .where('registration_id', '=', registration.id)
      .where('status', 'in', ['succeeded', 'paid-out'])
      .execute(),
    queries
      .selectFrom('surplus_refunds')
      .select(['amount_cents', 'paid_out_on', 'bank_reference'])
      .where('registration_id', '=', registration.id)
      .where('status', '=', 'paid-out')
      .execute(),
  ])
  return [
    ...refunds.map((refund) =>
      refund.status === 'succeeded'
        ? { kind: 'card-refund' as const, on: johannesburgDay(refund.updated_at), reference: '', amountCents: refund.amount_cents }
        : {
            kind: 'refund-paid-out' as const,
            on: refund.paid_out_on ?? johannesburgDay(refund.updated_at),
            reference: refund.bank_reference ?? '',
            amountCents: refund.amount_cents,
          },
    ),
    ...surpluses.map((surplus) => ({
      kind: 'surplus-paid-out' as const,
      on: surplus.paid_out_on ?? '',
      reference: surplus.bank_reference ?? '',
      amountCents: surplus.amount_cents,
    })),
  ]
}

const STATEMENT_SOURCES: readonly StatementSource[] = [invoiceLines, creditNoteLines, paymentLines, refundLines]

/** A registration's statement: every line that moves its account, by day, and the balance they add up to. */
export async function registrationStatement(queries: Kysely<Database>, registration: StatementRegistration): Promise<RegistrationStatement> {
  const lines = (await Promise.all(STATEMENT_SOURCES.map((source) => source(queries, registration))))
    .flat()
    .sort((a, b) => a.on.localeCompare(b.on) || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind))
  const balanceCents = lines.reduce((sum, line) => sum + line.amountCents, 0)
  return { lines, balanceCents, outstandingCents: Math.max(0, balanceCents), owedToRegistrantCents: Math.max(0, -balanceCents) }
}
