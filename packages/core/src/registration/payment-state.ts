import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'

/** Marks a registration paid in full inside the caller's transaction, once; answers false when it already was. */
export async function markRegistrationPaid(transaction: Transaction<Database>, registrationId: string, at: Date): Promise<boolean> {
  const marked = await transaction
    .updateTable('registrations')
    .set({ status: 'paid', paid_at: at.toISOString(), updated_at: at.toISOString() })
    .where('id', '=', registrationId)
    .where('status', '<>', 'paid')
    .executeTakeFirst()
  return Number(marked.numUpdatedRows) > 0
}

/** Where a registration stands with its payment. */
export interface PaymentState {
  status: string
  paidCents: number
  outstandingCents: number
}

/** How much of a registration is paid (its bank transfers, or all of it once marked paid) and what is outstanding. */
export async function paymentStateOf(
  queries: Kysely<Database>,
  registration: Pick<RegistrationRow, 'id' | 'status' | 'total_cents'>,
): Promise<PaymentState> {
  const { received } = await queries
    .selectFrom('bank_payments')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount_cents'), eb.lit(0)).as('received'))
    .where('registration_id', '=', registration.id)
    .executeTakeFirstOrThrow()
  const paidCents = paidCentsOf(registration, Number(received))
  return { status: registration.status, paidCents, outstandingCents: Math.max(0, registration.total_cents - paidCents) }
}

/** What a registration has paid: all of it once marked paid (by card or bank), else its bank transfers so far. */
export function paidCentsOf(registration: Pick<RegistrationRow, 'status' | 'total_cents'>, bankTransfersCents: number): number {
  return registration.status === 'paid' ? registration.total_cents : bankTransfersCents
}
