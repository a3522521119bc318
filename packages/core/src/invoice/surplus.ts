import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import { newId } from '../ids.ts'

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
