import { formatRand, TIME_ZONE } from '@events/pricing'
import { stringify } from 'csv-stringify/sync'
import type { Kysely, Transaction } from 'kysely'
import { DateTime } from 'luxon'
import { z } from 'zod'
import { recordRefundPaidOut } from '../cancellation/cancel.ts'
import { formatCreditNoteNumber } from '../cancellation/credit-note.ts'
import type { Database } from '../db/database.ts'
import { newId } from '../ids.ts'
import { normaliseReference } from '../registration/reference.ts'
import { singleLine } from '../validation/fields.ts'
import { businessClock, wallClock, type BackOfficeContext } from './context.ts'
import { BackOfficeError } from './errors.ts'
import { auditInTransaction, type CommandStaff } from './staff-command.ts'

/** Records, in a bank transfer's transaction, what it paid beyond what its registration owed: a credit owed back. */
export async function recordSurplus(
  transaction: Transaction<Database>,
  surplus: { registrationId: string; bankPaymentId: string; amountCents: number; at: Date },
): Promise<void> {
  const at = surplus.at.toISOString()
  await transaction
    .insertInto('surplus_refunds')
    .values({
      id: newId(),
      registration_id: surplus.registrationId,
      bank_payment_id: surplus.bankPaymentId,
      amount_cents: surplus.amountCents,
      status: 'awaiting-payout',
      paid_out_on: null,
      bank_reference: null,
      paid_out_by_name: null,
      created_at: at,
      updated_at: at,
    })
    .execute()
}

/** What a registration's transfers paid beyond what it owed, paid out or not: money that is not the registration's. */
export async function surplusCentsOf(queries: Kysely<Database>, registrationId: string): Promise<number> {
  const { surplus } = await queries
    .selectFrom('surplus_refunds')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount_cents'), eb.lit(0)).as('surplus'))
    .where('registration_id', '=', registrationId)
    .executeTakeFirstOrThrow()
  return Number(surplus)
}

/** The account a registrant's refunds go to. */
export interface RefundBankDetails {
  accountHolder: string
  bankName: string
  branchCode: string
  accountNumber: string
}

/** A refund owed by bank transfer: a cancellation's credit, or a transfer's surplus. */
export interface RefundToPay {
  /** `cancellation:{refund id}` or `surplus:{surplus id}`: what `recordRefundPayout` takes. */
  id: string
  kind: 'cancellation' | 'surplus'
  registrationReference: string
  companyName: string
  email: string
  amountCents: number
  /** Why it is owed, in staff's words. */
  reason: string
  owedSince: string
  bankDetails: RefundBankDetails | null
}

/** A refund paid out, as the list of paid refunds shows it. */
export interface RefundPaidOut extends Omit<RefundToPay, 'bankDetails'> {
  paidOutOn: string
  bankReference: string
}

function bankDetailsOf(row: { account_holder: string | null; bank_name: string | null; branch_code: string | null; account_number: string | null }): RefundBankDetails | null {
  if (row.account_holder === null) return null
  return { accountHolder: row.account_holder, bankName: row.bank_name ?? '', branchCode: row.branch_code ?? '', accountNumber: row.account_number ?? '' }
}

async function refundRows(context: BackOfficeContext, paidOut: boolean) {
  const { kysely } = context.db
  const [cancellationRefunds, surpluses] = await Promise.all([
    kysely
      .selectFrom('refunds')
      .innerJoin('registrations', 'registrations.id', 'refunds.registration_id')
      .leftJoin('credit_notes', 'credit_notes.cancellation_id', 'refunds.cancellation_id')
      .leftJoin('refund_bank_details', 'refund_bank_details.registration_id', 'refunds.registration_id')
      .select(['refunds.id', 'refunds.amount_cents', 'refunds.status', 'refunds.created_at', 'refunds.paid_out_on', 'refunds.bank_reference', 'credit_notes.number as credit_note_number'])
      .select(['registrations.reference', 'registrations.company_name', 'registrations.email'])
      .select(['refund_bank_details.account_holder', 'refund_bank_details.bank_name', 'refund_bank_details.branch_code', 'refund_bank_details.account_number'])
      // A bank refund waits for staff, and so does a card refund the provider refused: it is paid by transfer.
      .$if(!paidOut, (query) => query.where((eb) => eb.or([eb.and([eb('refunds.method', '=', 'bank-transfer'), eb('refunds.status', '=', 'awaiting-payout')]), eb('refunds.status', '=', 'refused')])))
      .$if(paidOut, (query) => query.where('refunds.status', '=', 'paid-out'))
      .execute(),
    kysely
      .selectFrom('surplus_refunds')
      .innerJoin('registrations', 'registrations.id', 'surplus_refunds.registration_id')
      .innerJoin('bank_payments', 'bank_payments.id', 'surplus_refunds.bank_payment_id')
      .leftJoin('refund_bank_details', 'refund_bank_details.registration_id', 'surplus_refunds.registration_id')
      .select(['surplus_refunds.id', 'surplus_refunds.amount_cents', 'surplus_refunds.created_at', 'surplus_refunds.paid_out_on', 'surplus_refunds.bank_reference'])
      .select(['bank_payments.amount_cents as transfer_cents', 'bank_payments.received_on', 'bank_payments.bank_reference as transfer_reference'])
      .select(['registrations.reference', 'registrations.company_name', 'registrations.email'])
      .select(['refund_bank_details.account_holder', 'refund_bank_details.bank_name', 'refund_bank_details.branch_code', 'refund_bank_details.account_number'])
      .where('surplus_refunds.status', '=', paidOut ? 'paid-out' : 'awaiting-payout')
      .execute(),
  ])
  return [
    ...cancellationRefunds.map((row) => ({
      id: `cancellation:${row.id}`,
      kind: 'cancellation' as const,
      registrationReference: row.reference,
      companyName: row.company_name,
      email: row.email,
      amountCents: row.amount_cents,
      reason:
        row.status === 'refused'
          ? 'Card refund refused by the card provider: refund by transfer'
          : `Cancellation credit${row.credit_note_number === null ? '' : ` (credit note ${formatCreditNoteNumber(Number(row.credit_note_number))})`}`,
      owedSince: row.created_at,
      bankDetails: bankDetailsOf(row),
      paidOutOn: row.paid_out_on ?? '',
      bankReference: row.bank_reference ?? '',
    })),
    ...surpluses.map((row) => ({
      id: `surplus:${row.id}`,
      kind: 'surplus' as const,
      registrationReference: row.reference,
      companyName: row.company_name,
      email: row.email,
      amountCents: row.amount_cents,
      reason: `Overpaid: a transfer of ${formatRand(row.transfer_cents)} received ${row.received_on} (${row.transfer_reference})`,
      owedSince: row.created_at,
      bankDetails: bankDetailsOf(row),
      paidOutOn: row.paid_out_on ?? '',
      bankReference: row.bank_reference ?? '',
    })),
  ].sort((a, b) => a.owedSince.localeCompare(b.owedSince) || a.id.localeCompare(b.id))
}

/** Every refund owed by bank transfer (cancellation credits, transfers' surpluses), oldest first, with the account to pay. */
export async function refundsToPay(context: BackOfficeContext): Promise<RefundToPay[]> {
  return (await refundRows(context, false)).map(({ paidOutOn: _paidOutOn, bankReference: _bankReference, ...refund }) => refund)
}

/** The refunds paid out by bank transfer, newest payout first. */
export async function refundsPaidOut(context: BackOfficeContext): Promise<RefundPaidOut[]> {
  return (await refundRows(context, true))
    .map(({ bankDetails: _bankDetails, ...refund }) => refund)
    .sort((a, b) => b.paidOutOn.localeCompare(a.paidOutOn) || a.id.localeCompare(b.id))
}

/** Registrations' surplus credits as their page shows them. */
export async function surplusRefundsOf(context: BackOfficeContext, registrationId: string): Promise<Array<{ amountCents: number; status: 'awaiting-payout' | 'paid-out'; paidOutOn: string | null; bankReference: string | null }>> {
  const rows = await context.db.kysely.selectFrom('surplus_refunds').selectAll().where('registration_id', '=', registrationId).orderBy('created_at').execute()
  return rows.map((row) => ({ amountCents: row.amount_cents, status: row.status, paidOutOn: row.paid_out_on, bankReference: row.bank_reference }))
}

const text = (label: string, max: number) =>
  z
    .string()
    .transform((value) => singleLine(value))
    .pipe(z.string().min(1, { error: `Enter the ${label}.` }).max(max, { error: `The ${label} is too long (at most ${max} characters).` }))

/** The account a registrant's refunds are paid into, as the form sends it. */
export const refundBankDetailsSchema = z.object({
  reference: z.string(),
  accountHolder: text('account holder’s name', 100),
  bankName: text('bank’s name', 60),
  branchCode: z
    .string()
    .transform((value) => value.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, { error: 'Enter the branch code: 6 digits (universal branch codes too, e.g. 250655).' })),
  accountNumber: z
    .string()
    .transform((value) => value.replace(/[\s-]+/g, ''))
    .pipe(z.string().regex(/^\d{6,16}$/, { error: 'Enter the account number: 6 to 16 digits.' })),
})

export type RefundBankDetailsInput = z.input<typeof refundBankDetailsSchema>

/** A zod refusal as the back office refuses: the first issue's message, naming its field. */
function refusalOf(error: z.ZodError): BackOfficeError {
  const issue = error.issues[0]!
  return new BackOfficeError('invalid-input', issue.message, String(issue.path[0] ?? ''))
}

/** Keeps the account a registration's refunds are paid into (replacing an earlier one), with its audit row. */
export async function saveRefundBankDetails(context: BackOfficeContext, input: RefundBankDetailsInput, staff: CommandStaff): Promise<RefundBankDetails> {
  const parsed = refundBankDetailsSchema.safeParse(input)
  if (!parsed.success) throw refusalOf(parsed.error)
  const { reference: typed, ...details } = parsed.data
  const at = wallClock(context).toISOString()
  return context.db.writeTransaction(async (transaction) => {
    const registration = await transaction.selectFrom('registrations').select(['id', 'reference']).where('reference', '=', normaliseReference(typed) ?? '').executeTakeFirst()
    if (!registration) throw new BackOfficeError('not-found', `No registration has the reference ${typed.trim()}.`)
    const earlier = await transaction.selectFrom('refund_bank_details').selectAll().where('registration_id', '=', registration.id).executeTakeFirst()
    const row = {
      account_holder: details.accountHolder,
      bank_name: details.bankName,
      branch_code: details.branchCode,
      account_number: details.accountNumber,
      updated_by_name: staff.name,
      updated_at: at,
    }
    await transaction
      .insertInto('refund_bank_details')
      .values({ registration_id: registration.id, ...row })
      .onConflict((conflict) => conflict.column('registration_id').doUpdateSet(row))
      .execute()
    await auditInTransaction(transaction, staff, {
      action: 'refund-bank-details-saved',
      subjectType: 'registration',
      subjectId: registration.reference,
      before: earlier ? bankDetailsOf(earlier) : null,
      after: details,
    })
    return details
  })
}

/** A refund paid out, as the form sends it. */
export const refundPayoutSchema = z.object({
  refundId: z.string().regex(/^(cancellation|surplus):.+$/, { error: 'Choose the refund paid out.' }),
  paidOutOn: z.iso.date({ error: 'Enter the date the refund was paid out, as on the bank statement (YYYY-MM-DD).' }),
  bankReference: text('bank’s reference of the refund payment', 100).transform((value) => value.toUpperCase()),
})

export type RefundPayoutCommand = z.input<typeof refundPayoutSchema>

/**
 * Records a refund of the list as paid out (the date and the bank's reference of the payment), with its audit row in
 * the same transaction. A cancellation's refund is recorded by `recordRefundPaidOut`, a surplus here.
 */
export async function recordRefundPayout(context: BackOfficeContext, input: RefundPayoutCommand, staff: CommandStaff): Promise<{ reference: string; amountCents: number }> {
  const parsed = refundPayoutSchema.safeParse(input)
  if (!parsed.success) throw refusalOf(parsed.error)
  const { refundId, paidOutOn, bankReference } = parsed.data
  const today = DateTime.fromJSDate(businessClock(context), { zone: TIME_ZONE }).toISODate()!
  if (paidOutOn > today) throw new BackOfficeError('invalid-input', 'The date paid out cannot be later than today.', 'paidOutOn')
  const [kind, id] = [refundId.slice(0, refundId.indexOf(':')), refundId.slice(refundId.indexOf(':') + 1)]
  if (kind === 'cancellation') {
    const refund = await context.db.kysely
      .selectFrom('refunds')
      .innerJoin('registrations', 'registrations.id', 'refunds.registration_id')
      .select(['registrations.reference', 'refunds.amount_cents'])
      .where('refunds.id', '=', id)
      .executeTakeFirst()
    if (!refund) throw new BackOfficeError('not-found', 'That refund does not exist. Reload the list.')
    await recordRefundPaidOut(context, { reference: refund.reference, refundId: id, paidOutOn, bankReference }, staff)
    return { reference: refund.reference, amountCents: refund.amount_cents }
  }
  const at = wallClock(context).toISOString()
  return context.db.writeTransaction(async (transaction) => {
    const row = await transaction
      .selectFrom('surplus_refunds')
      .innerJoin('registrations', 'registrations.id', 'surplus_refunds.registration_id')
      .select(['surplus_refunds.id', 'surplus_refunds.status', 'surplus_refunds.amount_cents', 'registrations.reference'])
      .where('surplus_refunds.id', '=', id)
      .$if(context.db.dialect === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst()
    if (!row) throw new BackOfficeError('not-found', 'That refund does not exist. Reload the list.')
    if (row.status === 'paid-out') throw new BackOfficeError('invalid-input', 'This refund is already recorded as paid out; there is nothing to record.')
    await transaction
      .updateTable('surplus_refunds')
      .set({ status: 'paid-out', paid_out_on: paidOutOn, bank_reference: bankReference, paid_out_by_name: staff.name, updated_at: at })
      .where('id', '=', row.id)
      .execute()
    await auditInTransaction(transaction, staff, {
      action: 'refund-paid-out',
      subjectType: 'registration',
      subjectId: row.reference,
      before: { refund: 'surplus', amountCents: row.amount_cents, status: 'awaiting-payout' },
      after: { refund: 'surplus', amountCents: row.amount_cents, status: 'paid-out', paidOutOn, bankReference },
    })
    return { reference: row.reference, amountCents: row.amount_cents }
  })
}

/**
 * The refunds owed that have an account to pay into, as CSV for a bank's bulk payment upload: beneficiary, bank,
 * branch code, account number, amount (rands with a decimal point) and the references both statements will show.
 * Text that could run as a spreadsheet formula is prefixed with '.
 */
export function refundsToPayCsv(refunds: readonly RefundToPay[]): string {
  const rows = refunds.flatMap((refund) =>
    refund.bankDetails
      ? [
          [
            refund.bankDetails.accountHolder,
            refund.bankDetails.bankName,
            refund.bankDetails.branchCode,
            refund.bankDetails.accountNumber,
            (refund.amountCents / 100).toFixed(2),
            `REFUND ${refund.registrationReference}`,
            `REFUND ${refund.registrationReference}`,
          ],
        ]
      : [],
  )
  return stringify(rows, {
    header: true,
    columns: ['Beneficiary name', 'Bank', 'Branch code', 'Account number', 'Amount', 'Beneficiary reference', 'Own reference'],
    record_delimiter: 'windows',
    escape_formulas: true,
    bom: true,
  })
}
