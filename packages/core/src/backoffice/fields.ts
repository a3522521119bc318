import { parseRandAmount, TIME_ZONE } from '@events/pricing'
import { DateTime } from 'luxon'
import * as z from 'zod/mini'
import { ValidationError } from '../errors.ts'
import type { FieldIssueCode, MissingFieldCode } from '../submissions/fields.ts'
import { singleLine } from '../validation/fields.ts'

/** An amount in rand as staff type it ("8 990.00", "R 8,990.50"), read into whole cents; more than R 0.00. */
export const randAmount = z.pipe(
  z.transform(singleLine),
  z.pipe(
    z.string().check(z.minLength(1, 'required')),
    z.pipe(
      z.transform((text: string) => parseRandAmount(text) ?? Number.NaN),
      z.number('invalid-amount').check(z.refine((cents) => Number.isSafeInteger(cents) && cents > 0, 'invalid-amount')),
    ),
  ),
)

/** A calendar day as a date field sends it (YYYY-MM-DD), a real day in Johannesburg. */
export const isoDay = z.pipe(
  z.transform(singleLine),
  z.string().check(
    z.minLength(1, 'required'),
    z.refine((day) => day === '' || (/^\d{4}-\d{2}-\d{2}$/.test(day) && DateTime.fromISO(day, { zone: TIME_ZONE }).isValid), 'invalid-date'),
  ),
)

/** A whole percentage from 0 to 100, or undefined when the field was left empty. */
export const optionalPercentage = z.pipe(
  z.transform((value: unknown) => (typeof value === 'number' ? String(value) : singleLine(value))),
  z.pipe(
    z.transform((text: string) => (text === '' ? undefined : /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN)),
    z.optional(z.number('invalid-percentage').check(z.refine((value) => Number.isInteger(value) && value >= 0 && value <= 100, 'invalid-percentage'))),
  ),
)

/** A registration's reference as typed or taken from the page's address. */
export const referenceField = z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required')))

/** A delegate's place in a registration as its page's address or a form gives it: 1 is the first listed. */
export const delegateNumber = z.pipe(
  z.transform((value: unknown) => (typeof value === 'number' ? String(value) : singleLine(value))),
  z.pipe(
    z.string().check(z.minLength(1, 'required')),
    z.pipe(
      z.transform((text: string) => (/^[1-9]\d{0,2}$/.test(text) ? Number(text) : Number.NaN)),
      z.number('invalid-choice'),
    ),
  ),
)

/** Today's date in Johannesburg by the business clock, YYYY-MM-DD. */
export function dayIn(at: Date): string {
  return DateTime.fromJSDate(at, { zone: TIME_ZONE }).toISODate()!
}

/**
 * A refusal of one field that only the stored data can show (a date before the registration existed): the same
 * `ValidationError` a schema throws, so the form shows it beside the field.
 */
export function fieldRefusal(path: string, code: Exclude<FieldIssueCode, MissingFieldCode>): ValidationError {
  return new ValidationError(code, [{ path, code }])
}
