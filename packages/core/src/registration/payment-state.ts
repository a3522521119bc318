import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import type { RegistrationRow, RegistrationStatus } from '../db/tables/registrations.ts'

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
  status: RegistrationStatus
  paidCents: number
  outstandingCents: number
}

/**
 * How much of a registration is paid (its bank transfers, or all of it once paid by card) and what is outstanding: its
 * total less what its cancellations' credit notes credited, less what was paid.
 */
export async function paymentStateOf(queries: Kysely<Database>, registration: Pick<RegistrationRow, 'id' | 'status' | 'total_cents'>): Promise<PaymentState> {
  const [{ received }, { credited }] = await Promise.all([
    queries
      .selectFrom('bank_payments')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount_cents'), eb.lit(0)).as('received'))
      .where('registration_id', '=', registration.id)
      .executeTakeFirstOrThrow(),
    queries
      .selectFrom('cancellations')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('credited_total_cents'), eb.lit(0)).as('credited'))
      .where('registration_id', '=', registration.id)
      .executeTakeFirstOrThrow(),
  ])
  const paidCents = paidCentsOf(registration, Number(received))
  return { status: registration.status, paidCents, outstandingCents: Math.max(0, registration.total_cents - Number(credited) - paidCents) }
}

/**
 * What a registration has paid: its bank transfers; or, paid without any, by card, which always charges the whole
 * total (a card checkout is refused once a cancellation has credited part of it, so what remains is paid by transfer).
 */
export function paidCentsOf(registration: Pick<RegistrationRow, 'status' | 'total_cents'>, bankTransfersCents: number): number {
  return registration.status === 'paid' && bankTransfersCents === 0 ? registration.total_cents : bankTransfersCents
}
