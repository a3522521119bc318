import { createHash, randomBytes } from 'node:crypto'
import type { StaffKysely } from './db/database.ts'

/** A browser keeps its device cookie for 400 days, the longest a browser keeps any cookie. */
export const DEVICE_COOKIE_SECONDS = 400 * 24 * 60 * 60

/** A new browser's id: 32 random bytes, in the cookie as they are and in the database only as a hash. */
export function newDeviceId(): string {
  return randomBytes(32).toString('base64url')
}

function deviceHash(deviceId: string): string {
  return createHash('sha256').update(deviceId).digest('base64url')
}

/**
 * Remembers that the member signed in from this browser; true when the browser is new to an account that had
 * signed in from another one before (the first browser an account uses is no news to its member).
 */
export async function rememberDevice(kysely: StaffKysely, userId: string, deviceId: string, now: Date): Promise<boolean> {
  const seenAt = now.toISOString()
  const hash = deviceHash(deviceId)
  const inserted = await kysely
    .insertInto('staff_devices')
    .values({ user_id: userId, device_hash: hash, first_seen_at: seenAt, last_seen_at: seenAt })
    .onConflict((conflict) => conflict.columns(['user_id', 'device_hash']).doNothing())
    .executeTakeFirst()
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    await kysely.updateTable('staff_devices').set({ last_seen_at: seenAt }).where('user_id', '=', userId).where('device_hash', '=', hash).execute()
    return false
  }
  const others = await kysely
    .selectFrom('staff_devices')
    .select('device_hash')
    .where('user_id', '=', userId)
    .where('device_hash', '!=', hash)
    .executeTakeFirst()
  return others !== undefined
}
