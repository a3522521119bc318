import { formatRand } from '@events/pricing'
import { stringify } from 'csv-stringify/sync'
import type { Transaction } from 'kysely'
import * as z from 'zod/mini'
import type { Database } from '../db/database.ts'
import { refundPaidOutHandler } from '../cancellation/cancel.ts'
import { formatCreditNoteNumber } from '../cancellation/credit-note.ts'
import { normaliseReference } from '../registration/reference.ts'
import { ownFields, requiredLine } from '../submissions/fields.ts'
import { normaliseBankReference, singleLine } from '../validation/fields.ts'
import { staffCommand, type CommandOutcome } from './command.ts'
import { businessClock, wallClock, type BackOfficeContext } from './context.ts'
import { BackOfficeError } from './errors.ts'
import { dayIn, fieldRefusal, isoDay, referenceField } from './fields.ts'

/** The account a registrant's refunds go to. */
export interface RefundBankDetails {
  accountHolder: string
  bankName: string
  branchCode: string
  accountNumber: string
}

/** A refund owed by bank transfer: a cancellation's credit, or a transfer's surplus (a registration's or a sponsorship deal's). */
export interface RefundToPay {
  /** `cancellation:{refund id}`, `surplus:{surplus id}` or `sponsorship-surplus:{surplus id}`: what `recordRefundPayout` takes. */
  id: string
  kind: 'cancellation' | 'surplus'
  /** The registration's reference, or the sponsorship deal's. */
  registrationReference: string
  /** The sponsorship deal's id when the refund is owed to a sponsor; undefined for a registration's. */
  dealId?: string | undefined
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

function bankDetailsOf(row: {
  account_holder: string | null
  bank_name: string | null
  branch_code: string | null
  account_number: string | null
}): RefundBankDetails | null {
  if (row.account_holder === null) return null
  return { accountHolder: row.account_holder, bankName: row.bank_name ?? '', branchCode: row.branch_code ?? '', accountNumber: row.account_number ?? '' }
}

async function refundRows(context: BackOfficeContext, paidOut: boolean) {
  const { kysely } = context.db
  const [cancellationRefunds, surpluses, dealSurpluses] = await Promise.all([
    kysely
      .selectFrom('refunds')
      .innerJoin('registrations', 'registrations.id', 'refunds.registration_id')
      .leftJoin('credit_notes', 'credit_notes.cancellation_id', 'refunds.cancellation_id')
      .leftJoin('refund_bank_details', 'refund_bank_details.registration_id', 'refunds.registration_id')
      .select([
        'refunds.id',
        'refunds.amount_cents',
        'refunds.status',
        'refunds.created_at',
        'refunds.paid_out_on',
        'refunds.bank_reference',
        'credit_notes.number as credit_note_number',
      ])
      .select(['registrations.reference', 'registrations.company_name', 'registrations.email'])
      .select(['refund_bank_details.account_holder', 'refund_bank_details.bank_name', 'refund_bank_details.branch_code', 'refund_bank_details.account_number'])
      // A bank refund waits for staff, and so does a card refund the provider refused: it is paid by transfer.
      .$if(!paidOut, (query) =>
        query.where((eb) =>
          eb.or([eb.and([eb('refunds.method', '=', 'bank-transfer'), eb('refunds.status', '=', 'awaiting-payout')]), eb('refunds.status', '=', 'refused')]),
        ),
      )
      .$if(paidOut, (query) => query.where('refunds.status', '=', 'paid-out'))
      .execute(),
    kysely
      .selectFrom('surplus_refunds')
      .innerJoin('registrations', 'registrations.id', 'surplus_refunds.registration_id')
      .innerJoin('bank_payments', 'bank_payments.id', 'surplus_refunds.bank_payment_id')
      .leftJoin('refund_bank_details', 'refund_bank_details.registration_id', 'surplus_refunds.registration_id')
      .select([
        'surplus_refunds.id',
        'surplus_refunds.amount_cents',
        'surplus_refunds.created_at',
        'surplus_refunds.paid_out_on',
        'surplus_refunds.bank_reference',
      ])
      .select(['bank_payments.amount_cents as transfer_cents', 'bank_payments.received_on', 'bank_payments.bank_reference as transfer_reference'])
      .select(['registrations.reference', 'registrations.company_name', 'registrations.email'])
      .select(['refund_bank_details.account_holder', 'refund_bank_details.bank_name', 'refund_bank_details.branch_code', 'refund_bank_details.account_number'])
      .where('surplus_refunds.status', '=', paidOut ? 'paid-out' : 'awaiting-payout')
      .execute(),
    kysely
      .selectFrom('sponsorship_surplus_refunds')
      .innerJoin('sponsorship_deals', 'sponsorship_deals.id', 'sponsorship_surplus_refunds.deal_id')
      .innerJoin('sponsorship_payments', 'sponsorship_payments.id', 'sponsorship_surplus_refunds.payment_id')
      .leftJoin('sponsorship_refund_bank_details', 'sponsorship_refund_bank_details.deal_id', 'sponsorship_surplus_refunds.deal_id')
      .select([
        'sponsorship_surplus_refunds.id',
        'sponsorship_surplus_refunds.amount_cents',
        'sponsorship_surplus_refunds.created_at',
        'sponsorship_surplus_refunds.paid_out_on',
        'sponsorship_surplus_refunds.bank_reference',
      ])
      .select([
        'sponsorship_payments.amount_cents as transfer_cents',
        'sponsorship_payments.received_on',
        'sponsorship_payments.bank_reference as transfer_reference',
      ])
      .select(['sponsorship_deals.id as deal_id', 'sponsorship_deals.reference', 'sponsorship_deals.company_name', 'sponsorship_deals.contact_email'])
      .select([
        'sponsorship_refund_bank_details.account_holder',
        'sponsorship_refund_bank_details.bank_name',
        'sponsorship_refund_bank_details.branch_code',
        'sponsorship_refund_bank_details.account_number',
      ])
      .where('sponsorship_surplus_refunds.status', '=', paidOut ? 'paid-out' : 'awaiting-payout')
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
    ...dealSurpluses.map((row) => ({
      id: `sponsorship-surplus:${row.id}`,
      kind: 'surplus' as const,
      registrationReference: row.reference,
      dealId: row.deal_id,
      companyName: row.company_name,
      email: row.contact_email,
      amountCents: row.amount_cents,
      reason: `Sponsorship overpaid: a transfer of ${formatRand(row.transfer_cents)} received ${row.received_on} (${row.transfer_reference})`,
      owedSince: row.created_at,
      bankDetails: bankDetailsOf(row),
      paidOutOn: row.paid_out_on ?? '',
      bankReference: row.bank_reference ?? '',
    })),
  ].sort((a, b) => a.owedSince.localeCompare(b.owedSince) || a.id.localeCompare(b.id))
}

/** Every refund owed by bank transfer (cancellation credits, transfers' surpluses, sponsors' too), oldest first, with the account to pay. */
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
export async function surplusRefundsOf(
  context: BackOfficeContext,
  registrationId: string,
): Promise<Array<{ amountCents: number; status: 'awaiting-payout' | 'paid-out'; paidOutOn: string | null; bankReference: string | null }>> {
  const rows = await context.db.kysely.selectFrom('surplus_refunds').selectAll().where('registration_id', '=', registrationId).orderBy('created_at').execute()
  return rows.map((row) => ({ amountCents: row.amount_cents, status: row.status, paidOutOn: row.paid_out_on, bankReference: row.bank_reference }))
}

/** The account a registrant's refunds are paid into, as the form sends it. */
export const refundBankDetailsSchema = z.pipe(
  ownFields,
  z.object({
    reference: referenceField,
    accountHolder: requiredLine(100),
    bankName: requiredLine(60),
    // Universal branch codes are 6 digits as well (e.g. 250655).
    branchCode: z.pipe(
      z.transform((value: unknown) => singleLine(value).replace(/\s+/g, '')),
      z.string().check(z.minLength(1, 'required'), z.regex(/^\d{6}$/, 'invalid-branch-code')),
    ),
    accountNumber: z.pipe(
      z.transform((value: unknown) => singleLine(value).replace(/[\s-]+/g, '')),
      z.string().check(z.minLength(1, 'required'), z.regex(/^\d{6,16}$/, 'invalid-account-number')),
    ),
  }),
)

export type RefundBankDetailsInput = z.input<typeof refundBankDetailsSchema>

/** Keeps the account a registration's (or a sponsorship deal's) refunds are paid into (replacing an earlier one), with its audit row. */
export const saveRefundBankDetails = staffCommand(refundBankDetailsSchema, async (context, input, staff) => {
  const { reference: typed, ...details } = input
  const at = wallClock(context).toISOString()
  return async (transaction): Promise<CommandOutcome<RefundBankDetails>> => {
    const reference = normaliseReference(typed) ?? ''
    const registration = await transaction.selectFrom('registrations').select(['id', 'reference']).where('reference', '=', reference).executeTakeFirst()
    const row = {
      account_holder: details.accountHolder,
      bank_name: details.bankName,
      branch_code: details.branchCode,
      account_number: details.accountNumber,
      updated_by_name: staff.name,
      updated_at: at,
    }
    if (!registration) {
      // A sponsor owed a deal's surplus gives the account the same way, by the deal's reference.
      const deal = await transaction.selectFrom('sponsorship_deals').select(['id', 'reference']).where('reference', '=', reference).executeTakeFirst()
      if (!deal) throw new BackOfficeError('not-found', { missing: 'registration', reference: typed })
      const earlier = await transaction.selectFrom('sponsorship_refund_bank_details').selectAll().where('deal_id', '=', deal.id).executeTakeFirst()
      await transaction
        .insertInto('sponsorship_refund_bank_details')
        .values({ deal_id: deal.id, ...row })
        .onConflict((conflict) => conflict.column('deal_id').doUpdateSet(row))
        .execute()
      return {
        result: details,
        audit: [
          {
            action: 'refund-bank-details-saved',
            subjectType: 'sponsorship-deal',
            subjectId: deal.reference,
            before: earlier ? bankDetailsOf(earlier) : null,
            after: details,
          },
        ],
      }
    }
    const earlier = await transaction.selectFrom('refund_bank_details').selectAll().where('registration_id', '=', registration.id).executeTakeFirst()
    await transaction
      .insertInto('refund_bank_details')
      .values({ registration_id: registration.id, ...row })
      .onConflict((conflict) => conflict.column('registration_id').doUpdateSet(row))
      .execute()
    return {
      result: details,
      audit: [
        {
          action: 'refund-bank-details-saved',
          subjectType: 'registration',
          subjectId: registration.reference,
          before: earlier ? bankDetailsOf(earlier) : null,
          after: details,
        },
      ],
    }
  }
})

const MAX_BANK_REFERENCE_LENGTH = 100

/** A refund of the list paid out, as the form sends it: which refund, the day it left the account and the bank's reference. */
export const refundListPayoutSchema = z.pipe(
  ownFields,
  z.object({
    refundId: z.pipe(
      z.transform(singleLine),
      z.string().check(z.minLength(1, 'required'), z.regex(/^(cancellation|surplus|sponsorship-surplus):.+$/, 'invalid-choice')),
    ),
    paidOutOn: isoDay,
    bankReference: z.pipe(
      z.transform(normaliseBankReference),
      z.string().check(z.minLength(1, 'required'), z.maxLength(MAX_BANK_REFERENCE_LENGTH, 'too-long')),
    ),
  }),
)

export type RefundListPayoutInput = z.input<typeof refundListPayoutSchema>

/**
 * Records a refund of the list as paid out (the date and the bank's reference of the payment), with its audit row in
 * the same transaction. A cancellation's refund is recorded as the cancel page records it (`recordRefundPaidOut`'s
 * handler), a surplus here.
 */
export const recordRefundPayout = staffCommand(
  refundListPayoutSchema,
  async (context, input, staff) => {
    const { refundId, paidOutOn, bankReference } = input
    const [kind, id] = [refundId.slice(0, refundId.indexOf(':')), refundId.slice(refundId.indexOf(':') + 1)]
    if (kind === 'cancellation') {
      const refund = await context.db.kysely
        .selectFrom('refunds')
        .innerJoin('registrations', 'registrations.id', 'refunds.registration_id')
        .select(['registrations.reference', 'refunds.amount_cents'])
        .where('refunds.id', '=', id)
        .executeTakeFirst()
      if (!refund) throw new BackOfficeError('not-found', { missing: 'refund' })
      const change = await refundPaidOutHandler(context, { reference: refund.reference, refundId: id, paidOutOn, bankReference }, staff)
      return async (transaction): Promise<CommandOutcome<RecordedListPayout>> => {
        const outcome = await change(transaction)
        return { ...outcome, result: { reference: outcome.result.reference, amountCents: outcome.result.after.amountCents } }
      }
    }
    if (paidOutOn > dayIn(businessClock(context))) throw fieldRefusal('paidOutOn', 'date-in-future')
    const at = wallClock(context).toISOString()
    if (kind === 'sponsorship-surplus') return dealSurplusPayout(context, { id, paidOutOn, bankReference, at }, staff)
    return async (transaction): Promise<CommandOutcome<RecordedListPayout>> => {
      const row = await transaction
        .selectFrom('surplus_refunds')
        .innerJoin('registrations', 'registrations.id', 'surplus_refunds.registration_id')
        .innerJoin('bank_payments', 'bank_payments.id', 'surplus_refunds.bank_payment_id')
        .select(['surplus_refunds.id', 'surplus_refunds.status', 'surplus_refunds.amount_cents', 'registrations.reference', 'bank_payments.received_on'])
        .where('surplus_refunds.id', '=', id)
        .$if(context.db.dialect === 'postgres', (query) => query.forUpdate('surplus_refunds'))
        .executeTakeFirst()
      if (!row) throw new BackOfficeError('not-found', { missing: 'refund' })
      if (row.status === 'paid-out') throw new BackOfficeError('nothing-to-pay-out', { status: row.status })
      // A surplus is owed from the day its transfer arrived; it cannot have been paid back before.
      if (paidOutOn < row.received_on) throw fieldRefusal('paidOutOn', 'date-before-transfer')
      await transaction
        .updateTable('surplus_refunds')
        .set({ status: 'paid-out', paid_out_on: paidOutOn, bank_reference: bankReference, paid_out_by_name: staff.name, updated_at: at })
        .where('id', '=', row.id)
        .execute()
      return {
        result: { reference: row.reference, amountCents: row.amount_cents },
        audit: [
          {
            action: 'refund-paid-out',
            subjectType: 'surplus-refund',
            subjectId: row.id,
            before: { refund: 'surplus', registration: row.reference, amountCents: row.amount_cents, status: 'awaiting-payout' },
            after: { refund: 'surplus', registration: row.reference, amountCents: row.amount_cents, status: 'paid-out', paidOutOn, bankReference },
          },
        ],
      }
    }
  },
  { role: 'manager' },
)

/** The change recording a sponsorship deal's surplus as paid out, as a registration's is. */
function dealSurplusPayout(
  context: BackOfficeContext,
  payout: { id: string; paidOutOn: string; bankReference: string; at: string },
  staff: { name: string },
): (transaction: Transaction<Database>) => Promise<CommandOutcome<RecordedListPayout>> {
  return async (transaction) => {
    const row = await transaction
      .selectFrom('sponsorship_surplus_refunds')
      .innerJoin('sponsorship_deals', 'sponsorship_deals.id', 'sponsorship_surplus_refunds.deal_id')
      .innerJoin('sponsorship_payments', 'sponsorship_payments.id', 'sponsorship_surplus_refunds.payment_id')
      .select([
        'sponsorship_surplus_refunds.id',
        'sponsorship_surplus_refunds.status',
        'sponsorship_surplus_refunds.amount_cents',
        'sponsorship_deals.reference',
        'sponsorship_payments.received_on',
      ])
      .where('sponsorship_surplus_refunds.id', '=', payout.id)
      .$if(context.db.dialect === 'postgres', (query) => query.forUpdate('sponsorship_surplus_refunds'))
      .executeTakeFirst()
    if (!row) throw new BackOfficeError('not-found', { missing: 'refund' })
    if (row.status === 'paid-out') throw new BackOfficeError('nothing-to-pay-out', { status: row.status })
    if (payout.paidOutOn < row.received_on) throw fieldRefusal('paidOutOn', 'date-before-transfer')
    await transaction
      .updateTable('sponsorship_surplus_refunds')
      .set({ status: 'paid-out', paid_out_on: payout.paidOutOn, bank_reference: payout.bankReference, paid_out_by_name: staff.name, updated_at: payout.at })
      .where('id', '=', row.id)
      .execute()
    const refund = { refund: 'sponsorship-surplus', deal: row.reference, amountCents: row.amount_cents }
    return {
      result: { reference: row.reference, amountCents: row.amount_cents },
      audit: [
        {
          action: 'refund-paid-out',
          subjectType: 'sponsorship-surplus-refund',
          subjectId: row.id,
          before: { ...refund, status: 'awaiting-payout' },
          after: { ...refund, status: 'paid-out', paidOutOn: payout.paidOutOn, bankReference: payout.bankReference },
        },
      ],
    }
  }
}

/** A refund of the list recorded as paid out: whose, and how much. */
export interface RecordedListPayout {
  reference: string
  amountCents: number
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
