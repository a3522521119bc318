import * as z from 'zod/mini'
import type { EventCatalog } from '../catalog.ts'
import type { CoreDatabase } from '../db/database.ts'
import { ValidationError } from '../errors.ts'
import { optionalLine, ownFields } from '../submissions/fields.ts'
import { FIELD_LIMITS } from '../submissions/registration.ts'
import { parseSubmission } from '../submissions/parse.ts'
import { singleLine } from '../validation/fields.ts'
import { findRegistrationByReferenceAndSecret } from './queries.ts'

/** A delegate's professional registration number as the status page posts it: the delegate's number in the list (1, 2, …). */
const professionalRegistrationNumberSchema = z.pipe(
  ownFields,
  z.object({
    delegate: z.pipe(z.transform(singleLine), z.string().check(z.regex(/^\d{1,3}$/, 'invalid-choice'))),
    professionalRegistrationNumber: optionalLine(FIELD_LIMITS.professionalRegistrationNumber),
  }),
)

const FIELD = 'professionalRegistrationNumber'

/**
 * Sets (or, empty, clears) a delegate's professional registration number from the registration's private status page:
 * only for an event a CPD body accredits, and only until the event ends (by the business clock), since the
 * certificates issued after it print what was given. Answers the delegate's name, or undefined for a wrong link or a
 * delegate the registration does not have (cancelled ones included); refuses with a ValidationError naming the field.
 */
export async function saveProfessionalRegistrationNumber(
  context: { db: CoreDatabase; catalog: EventCatalog; siteNow?: () => Date },
  reference: string,
  secret: string,
  input: unknown,
): Promise<{ name: string; professionalRegistrationNumber: string } | undefined> {
  const registration = await findRegistrationByReferenceAndSecret(context.db.kysely, reference, secret)
  if (!registration) return undefined
  const { delegate, professionalRegistrationNumber } = parseSubmission(professionalRegistrationNumberSchema, input)
  const event = await context.catalog.getEvent(registration.event_slug)
  if (!event?.cpd) throw new ValidationError('registration-number-not-asked', [{ path: FIELD, code: 'registration-number-not-asked' }])
  if (eventEnded(context, registration.event_end)) {
    throw new ValidationError('registration-number-closed', [{ path: FIELD, code: 'registration-number-closed' }])
  }
  const row = await context.db.kysely
    .selectFrom('registration_delegates')
    .select(['id', 'name'])
    .where('registration_id', '=', registration.id)
    .where('ordinal', '=', Number(delegate) - 1)
    .where('cancellation_id', 'is', null)
    .executeTakeFirst()
  if (!row) return undefined
  await context.db.writeTransaction((transaction) =>
    transaction
      .updateTable('registration_delegates')
      .set({ professional_registration_number: professionalRegistrationNumber === '' ? null : professionalRegistrationNumber })
      .where('id', '=', row.id)
      .execute(),
  )
  return { name: row.name, professionalRegistrationNumber }
}

/**
 * The status page's professional registration numbers: each delegate still attending with the number they gave, for
 * an event a CPD body accredits; `open` until the event ends. Undefined for a wrong link or an event without accreditation.
 */
export async function professionalRegistrationNumbers(
  context: { db: CoreDatabase; catalog: EventCatalog; siteNow?: () => Date },
  reference: string,
  secret: string,
): Promise<{ open: boolean; delegates: Array<{ delegate: number; name: string; professionalRegistrationNumber: string }> } | undefined> {
  const registration = await findRegistrationByReferenceAndSecret(context.db.kysely, reference, secret)
  if (!registration || !(await context.catalog.getEvent(registration.event_slug))?.cpd) return undefined
  const rows = await context.db.kysely
    .selectFrom('registration_delegates')
    .select(['ordinal', 'name', 'professional_registration_number'])
    .where('registration_id', '=', registration.id)
    .where('cancellation_id', 'is', null)
    .where('email', '<>', '')
    .orderBy('ordinal')
    .execute()
  return {
    open: !eventEnded(context, registration.event_end),
    delegates: rows.map((row) => ({ delegate: row.ordinal + 1, name: row.name, professionalRegistrationNumber: row.professional_registration_number ?? '' })),
  }
}

function eventEnded(context: { siteNow?: () => Date }, eventEnd: string): boolean {
  return (context.siteNow ?? (() => new Date()))().getTime() >= new Date(eventEnd).getTime()
}
