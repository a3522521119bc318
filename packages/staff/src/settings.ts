import { randomBytes } from 'node:crypto'
import type { StaffKysely } from './db/database.ts'

const AUTH_SECRET = 'auth_secret'
export const REQUIRE_TWO_FACTOR = 'require_two_factor'

/** A setting's value, or undefined when it was never set. */
export async function readSetting(kysely: StaffKysely, key: string): Promise<unknown> {
  const row = await kysely.selectFrom('staff_settings').select('value_json').where('key', '=', key).executeTakeFirst()
  return row === undefined ? undefined : JSON.parse(row.value_json)
}

/** Stores a setting's value. */
export async function writeSetting(kysely: StaffKysely, key: string, value: unknown, now: Date): Promise<void> {
  const row = { key, value_json: JSON.stringify(value), updated_at: now.toISOString() }
  await kysely
    .insertInto('staff_settings')
    .values(row)
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value_json: row.value_json, updated_at: row.updated_at }))
    .execute()
}

/**
 * The key that signs the session cookies, made once per database so that every instance shares it and nobody has
 * to configure one. The first instance to start writes it; the others read the one that won.
 */
export async function authSecret(kysely: StaffKysely, now: Date): Promise<string> {
  await kysely
    .insertInto('staff_settings')
    .values({ key: AUTH_SECRET, value_json: JSON.stringify(randomBytes(32).toString('base64url')), updated_at: now.toISOString() })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute()
  return String(await readSetting(kysely, AUTH_SECRET))
}
