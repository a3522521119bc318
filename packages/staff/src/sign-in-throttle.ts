import type { StaffKysely } from './db/database.ts'

/** How one kind of key (a client address, an account) is slowed down by its failed sign-ins. */
export interface ThrottleRule {
  /** Failures allowed before any delay. */
  freeFailures: number
  /** The longest wait one failure can impose: the delay doubles with each failure up to this. */
  maxDelaySeconds: number
}

export type ThrottleKey = `address:${string}` | `account:${string}` | `codes:${string}`

export function addressKey(address: string): ThrottleKey {
  return `address:${address}`
}

export function accountKey(email: string): ThrottleKey {
  return `account:${email}`
}

/** Wrong two-factor codes typed after an account's password: counted for the member's notice, never a lock. */
export function codesKey(userId: string): ThrottleKey {
  return `codes:${userId}`
}

/** The wait after the given number of failures: none for the free ones, then 1 s, 2 s, 4 s… up to the rule's maximum. */
function delaySeconds(failures: number, rule: ThrottleRule): number {
  if (failures <= rule.freeFailures) return 0
  return Math.min(rule.maxDelaySeconds, 2 ** (failures - rule.freeFailures - 1))
}

export interface ThrottleState {
  failures: number
  /** Until when a sign-in under this key waits; in the past when it need not. */
  blockedUntil: Date
}

/** The failures on record under each key, for the keys that have any. */
export async function throttleStates(kysely: StaffKysely, keys: readonly ThrottleKey[]): Promise<Map<ThrottleKey, ThrottleState>> {
  const rows = await kysely.selectFrom('staff_sign_in_throttle').selectAll().where('key', 'in', keys).execute()
  return new Map(rows.map((row) => [row.key as ThrottleKey, { failures: row.failures, blockedUntil: new Date(row.blocked_until) }]))
}

/** Counts one failure under a key and pushes its wait on; answers the failures now on record. */
export async function recordFailure(kysely: StaffKysely, key: ThrottleKey, rule: ThrottleRule, now: Date): Promise<number> {
  return kysely.transaction().execute(async (transaction) => {
    const row = await transaction.selectFrom('staff_sign_in_throttle').select('failures').where('key', '=', key).executeTakeFirst()
    const failures = (row?.failures ?? 0) + 1
    const values = {
      failures,
      last_failure_at: now.toISOString(),
      blocked_until: new Date(now.getTime() + delaySeconds(failures, rule) * 1000).toISOString(),
    }
    await transaction
      .insertInto('staff_sign_in_throttle')
      .values({ key, ...values })
      .onConflict((conflict) => conflict.column('key').doUpdateSet(values))
      .execute()
    return failures
  })
}

/** Forgets the failures under these keys (a successful sign-in). */
export async function clearFailures(kysely: StaffKysely, keys: readonly ThrottleKey[]): Promise<void> {
  await kysely.deleteFrom('staff_sign_in_throttle').where('key', 'in', keys).execute()
}

/** Drops what is older than a day: an address that failed once yesterday starts afresh. */
export async function forgetOldFailures(kysely: StaffKysely, now: Date): Promise<void> {
  await kysely
    .deleteFrom('staff_sign_in_throttle')
    .where('last_failure_at', '<', new Date(now.getTime() - 24 * 3600_000).toISOString())
    .execute()
}
