import { timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { RegistrationRow } from '../db/tables/registrations.ts'
import { sha256Hex } from '../ids.ts'
import { normaliseReference } from './reference.ts'

/** Compares a registration's secret with one from a URL in constant time. */
export function sameSecret(expected: string, given: string): boolean {
  // Compare digests so the comparison takes the same time whatever the lengths.
  return timingSafeEqual(Buffer.from(sha256Hex(expected), 'hex'), Buffer.from(sha256Hex(given), 'hex'))
}

/** The registration a private link names: its reference (in any case or spacing) and the secret that matches it. */
export async function findRegistrationByReferenceAndSecret(queries: Kysely<Database>, referenceInput: string, secret: string): Promise<RegistrationRow | undefined> {
  const reference = normaliseReference(String(referenceInput))
  if (!reference || typeof secret !== 'string' || secret === '') return undefined
  const row = await queries.selectFrom('registrations').selectAll().where('reference', '=', reference).executeTakeFirst()
  return row && sameSecret(row.secret, secret) ? row : undefined
}

/** A registration by its id, for a payment record (a checkout) that points at it. */
export async function findRegistrationById(queries: Kysely<Database>, registrationId: string): Promise<RegistrationRow | undefined> {
  return queries.selectFrom('registrations').selectAll().where('id', '=', registrationId).executeTakeFirst()
}
