import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { RefundRow } from '../db/tables/cancellations.ts'

/** Where a card refund stands: what `@events/payments` reads before asking the provider and records after. */
export type CardRefundState = Pick<RefundRow, 'status' | 'attempts' | 'provider_refund_id' | 'outcome_message'>

/** A cancellation's card refund, with the checkout whose payment it gives back. */
export type CardRefund = RefundRow & { method: 'card'; checkout_id: string }

/** A card refund by its id; undefined for an unknown id or a bank refund. */
export async function findCardRefund(queries: Kysely<Database>, refundId: string): Promise<CardRefund | undefined> {
  const refund = await queries.selectFrom('refunds').selectAll().where('id', '=', refundId).executeTakeFirst()
  if (!refund || refund.method !== 'card' || refund.checkout_id === null) return undefined
  return { ...refund, method: 'card', checkout_id: refund.checkout_id }
}

/**
 * Records the provider's answer to a card refund, only if the refund is still as it was read, so two staff pressing at
 * once record one answer; answers the refund's state afterwards, whichever answer was recorded.
 */
export async function recordCardRefundAnswer(queries: Kysely<Database>, refund: CardRefund, answer: CardRefundState, at: Date): Promise<CardRefundState> {
  const stored = await queries
    .updateTable('refunds')
    .set({ ...answer, updated_at: at.toISOString() })
    .where('id', '=', refund.id)
    .where('status', '=', refund.status)
    .where('attempts', '=', refund.attempts)
    .returning(['status', 'attempts', 'provider_refund_id', 'outcome_message'])
    .executeTakeFirst()
  return (
    stored ??
    queries.selectFrom('refunds').select(['status', 'attempts', 'provider_refund_id', 'outcome_message']).where('id', '=', refund.id).executeTakeFirstOrThrow()
  )
}
