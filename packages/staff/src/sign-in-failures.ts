import { sql } from 'kysely'
import type { StaffKysely } from './db/database.ts'

export interface SignInLimit {
  max: number
  windowSeconds: number
}

/** Whether an e-mail address has had `limit.max` failed sign-ins within the current window. */
export async function accountLocked(kysely: StaffKysely, email: string, limit: SignInLimit, now: Date): Promise<boolean> {
  const row = await kysely.selectFrom('staff_sign_in_failures').selectAll().where('email', '=', email).executeTakeFirst()
  if (!row) return false
  const windowOpen = now.getTime() - Date.parse(row.window_start) < limit.windowSeconds * 1000
  return windowOpen && row.failures >= limit.max
}

/** Counts a failed sign-in for the address, starting a new window when the last one has passed. */
export async function recordSignInFailure(kysely: StaffKysely, email: string, limit: SignInLimit, now: Date): Promise<void> {
  const nowText = now.toISOString()
  const windowStartedBefore = new Date(now.getTime() - limit.windowSeconds * 1000).toISOString()
  // Guessed addresses leave rows too; once their window has passed they count for nothing.
  await kysely.deleteFrom('staff_sign_in_failures').where('window_start', '<=', windowStartedBefore).where('email', '!=', email).execute()
  await kysely
    .insertInto('staff_sign_in_failures')
    .values({ email, failures: 1, window_start: nowText })
    .onConflict((conflict) =>
      conflict.column('email').doUpdateSet({
        failures: sql<number>`case when staff_sign_in_failures.window_start <= ${windowStartedBefore} then 1 else staff_sign_in_failures.failures + 1 end`,
        window_start: sql<string>`case when staff_sign_in_failures.window_start <= ${windowStartedBefore} then ${nowText} else staff_sign_in_failures.window_start end`,
      }),
    )
    .execute()
}

/** Forgets an address's failures after it signed in with the right password. */
export async function clearSignInFailures(kysely: StaffKysely, email: string): Promise<void> {
  await kysely.deleteFrom('staff_sign_in_failures').where('email', '=', email).execute()
}
