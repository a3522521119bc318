import type { Kysely, Transaction } from 'kysely'
import type { ActingStaff } from '../backoffice/context.ts'
import type { SiteSettingsForMail } from '../catalog.ts'
import type { Database } from '../db/database.ts'
import type { SponsorshipDealRow } from '../db/tables/sponsorship-deals.ts'
import { newId } from '../ids.ts'
import type { PaymentState } from '../registration/payment-state.ts'
import { sendCodesOncePaid } from './deals.ts'

/** What a deal has been paid, and what of its invoice is still owed (nothing once it is cancelled and credited). */
export async function dealPaymentState(queries: Kysely<Database>, deal: SponsorshipDealRow): Promise<PaymentState> {
  const { received } = await queries
    .selectFrom('sponsorship_payments')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount_cents'), eb.lit(0)).as('received'))
    .where('deal_id', '=', deal.id)
    .executeTakeFirstOrThrow()
  const paidCents = Number(received)
  const owedCents = deal.status === 'approved' ? deal.total_cents : 0
  const outstandingCents = Math.max(0, owedCents - paidCents)
  return { status: deal.paid_at !== null ? 'paid' : paidCents > 0 ? 'part-paid' : 'awaiting-payment', paidCents, outstandingCents }
}

/** A transfer for a deal as recordBankTransfer has checked it: the amount in cents, the bank reference normalised. */
interface DealTransfer {
  amountCents: number
  receivedOn: string
  bankReference: string
  note: string
}

/**
 * Records a bank transfer against a deal (locked by the caller), in full: the one that settles what its invoice still
 * owes marks it paid and, for a deal whose codes wait for the payment, e-mails the codes to its contact. What it paid
 * beyond what was owed is recorded as a surplus owed back to the sponsor (`sponsorship_surplus_refunds`).
 */
export async function recordDealPayment(
  transaction: Transaction<Database>,
  deal: SponsorshipDealRow,
  transfer: DealTransfer,
  staff: ActingStaff,
  options: { at: Date; eventUrl: string; settings: SiteSettingsForMail },
): Promise<{ paymentId: string; before: PaymentState; after: PaymentState; paidInFull: boolean; surplusCents: number; mailQueued: boolean }> {
  const before = await dealPaymentState(transaction, deal)
  const paymentId = newId()
  await transaction
    .insertInto('sponsorship_payments')
    .values({
      id: paymentId,
      deal_id: deal.id,
      amount_cents: transfer.amountCents,
      received_on: transfer.receivedOn,
      bank_reference: transfer.bankReference,
      note: transfer.note,
      recorded_by_id: staff.id,
      recorded_by_name: staff.name,
      recorded_at: options.at.toISOString(),
    })
    .execute()
  const paidInFull = before.outstandingCents > 0 && transfer.amountCents >= before.outstandingCents
  const surplusCents = Math.max(0, transfer.amountCents - before.outstandingCents)
  // What it paid beyond the invoice is owed back to the sponsor: the list of refunds to pay shows it.
  if (surplusCents > 0) {
    const at = options.at.toISOString()
    await transaction
      .insertInto('sponsorship_surplus_refunds')
      .values({
        id: newId(),
        deal_id: deal.id,
        payment_id: paymentId,
        amount_cents: surplusCents,
        status: 'awaiting-payout',
        paid_out_on: null,
        bank_reference: null,
        paid_out_by_name: null,
        created_at: at,
        updated_at: at,
      })
      .execute()
  }
  let mailQueued = false
  if (paidInFull) {
    await transaction.updateTable('sponsorship_deals').set({ paid_at: options.at.toISOString() }).where('id', '=', deal.id).execute()
    mailQueued = await sendCodesOncePaid(transaction, deal, options.eventUrl, options.settings, options.at)
  }
  const paidCents = before.paidCents + transfer.amountCents
  const after: PaymentState = paidInFull
    ? { status: 'paid', paidCents, outstandingCents: 0 }
    : { status: before.status === 'paid' ? 'paid' : 'part-paid', paidCents, outstandingCents: Math.max(0, before.outstandingCents - transfer.amountCents) }
  return { paymentId, before, after, paidInFull, surplusCents, mailQueued }
}
