import type { CoreDatabase } from './db/database.ts'

/**
 * Records the keys of a webhook delivery (its id, its signature) in the database every instance shares, and says
 * whether none of them had been recorded: a delivery retried, or replayed to any instance, is then acted on once.
 * A key is forgotten `keepMs` after it was last seen; by then the delivery's signature is too old to be accepted.
 */
export async function recordFirstDelivery(db: CoreDatabase, keys: readonly string[], at: Date, keepMs: number): Promise<boolean> {
  const receivedAt = at.toISOString()
  return db.writeTransaction(async (transaction) => {
    await transaction
      .deleteFrom('webhook_deliveries')
      .where('received_at', '<', new Date(at.getTime() - keepMs).toISOString())
      .execute()
    let first = true
    for (const key of keys) {
      // Inserting is the test: of two instances given the same delivery at once, one finds the other's row.
      const inserted = await transaction
        .insertInto('webhook_deliveries')
        .values({ key, received_at: receivedAt })
        .onConflict((conflict) => conflict.column('key').doNothing())
        .executeTakeFirst()
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
        first = false
        await transaction.updateTable('webhook_deliveries').set({ received_at: receivedAt }).where('key', '=', key).execute()
      }
    }
    return first
  })
}
