import * as z from 'zod/mini'
import { isEmailAddress, isRecord, isTelephoneNumber, isTicked, multiLine, singleLine } from '../validation/fields.ts'

/**
 * Stable codes of what can be wrong with one field of a submission. Each schema check carries its code as its
 * message, so a failed parse reads as codes and field paths; the wording is chosen where the issue is shown.
 */
export const FIELD_ISSUE_CODES = [
  'required',
  'not-accepted',
  'invalid-email',
  'invalid-phone',
  'too-long',
  'invalid-choice',
  'no-delegates',
  'too-many-delegates',
  'delegate-cap',
  'option-not-offered',
  'option-unavailable',
  'registration-closed',
  'unknown-event',
  'invalid-amount',
  'invalid-date',
  'date-in-future',
  'date-before-registration',
  'date-before-cancellation',
  'invalid-percentage',
  'reason-required',
  'date-before-transfer',
  'invalid-branch-code',
  'invalid-account-number',
  'too-few-parts',
  'too-many-parts',
  'repeated-registration',
  'invalid-vat-number',
  'invalid-delegate-count',
  'sold-out',
  'table-venue-only',
  'attendance-unavailable',
  'invalid-seats',
  'not-sold-out',
  'offer-expired',
  'offer-used',
  'invalid-cpd-hours',
  'registration-number-not-asked',
  'registration-number-closed',
  'quotation-unknown',
  'quotation-other-event',
  'discount-code-unknown',
  'discount-code-other-event',
  'discount-code-not-yet-valid',
  'discount-code-expired',
  'discount-code-option-excluded',
  'discount-code-one-delegate',
  'discount-code-spent',
  'discount-code-taken',
  'invalid-discount-code',
  'invalid-discount-percent',
  'invalid-discount-uses',
  'discount-dates-reversed',
  'unknown-sponsor-package',
  'too-many-words',
  'invalid-account-code',
  'invalid-ledger-account',
] as const
export type FieldIssueCode = (typeof FIELD_ISSUE_CODES)[number]

/** The field issues that count as a field left empty: the specification counts the legal agreement among them. */
export type MissingFieldCode = 'required' | 'not-accepted'

/** One problem of a submission: its code, the field's dotted path ('delegates.0.email') and the limit it names. */
export interface FieldIssue {
  path: string
  code: FieldIssueCode
  /** The most characters the field takes (too-long). */
  maximum?: number
  /** The most delegates the chosen option admits (delegate-cap). */
  cap?: number
  /** The seats of the chosen kind still free, where they are, and how many the submission asked for (sold-out). */
  seatsLeft?: number
  seatKind?: 'venue' | 'online'
  seatsWanted?: number
  /** The words a text has (too-many-words; `maximum` is the most allowed). */
  words?: number
}

/** A required one-line value (line breaks and runs of white space become one space); non-strings read as empty. */
export function requiredLine(maxLength: number) {
  return z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'), z.maxLength(maxLength, 'too-long')))
}

/** An optional one-line value, empty when not given. */
export function optionalLine(maxLength: number) {
  return z.pipe(z.transform(singleLine), z.string().check(z.maxLength(maxLength, 'too-long')))
}

/** An optional choice among `values`: empty when not given, anything else not listed is 'invalid-choice'. */
export function optionalChoice<const Values extends readonly string[]>(values: Values) {
  return z.pipe(z.transform(singleLine), z.enum(['', ...values] as const, 'invalid-choice'))
}

/** A required multi-line value: newlines normalised to \n, other control characters removed. */
export function requiredText(maxLength: number) {
  return z.pipe(z.transform(multiLine), z.string().check(z.minLength(1, 'required'), z.maxLength(maxLength, 'too-long')))
}

/** An optional multi-line value, empty when not given. */
export function optionalText(maxLength: number) {
  return z.pipe(z.transform(multiLine), z.string().check(z.maxLength(maxLength, 'too-long')))
}

/** A required e-mail address in the syntax browsers accept for <input type="email">, with a dot in its domain. */
export const requiredEmail = z.pipe(
  z.transform(singleLine),
  z.string().check(
    z.minLength(1, 'required'),
    z.refine((value) => value === '' || isEmailAddress(value), 'invalid-email'),
  ),
)

/** A required telephone number: a South African one, or another country's with its + and country code. */
export function requiredPhone(maxLength: number) {
  return z.pipe(
    z.transform(singleLine),
    z.string().check(
      z.minLength(1, 'required'),
      z.maxLength(maxLength, 'too-long'),
      z.refine((value) => value === '' || value.length > maxLength || isTelephoneNumber(value), 'invalid-phone'),
    ),
  )
}

/**
 * A required choice among `values`: empty is 'required', anything else not listed is 'invalid-choice'. `read`
 * turns the submitted value into the text compared (by default a one-line value).
 */
export function requiredChoice<const Values extends readonly string[]>(values: Values, read: (value: unknown) => string = singleLine) {
  return z.pipe(z.transform(read), z.pipe(z.string().check(z.minLength(1, 'required')), z.enum(values, 'invalid-choice')))
}

/** A checkbox that must be ticked, as JSON (true) or an HTML form ('on') sends it. */
export const ticked = z.pipe(z.transform(isTicked), z.literal(true, 'not-accepted'))

/**
 * A nested record's own properties only, so '__proto__' and inherited names never count as submitted fields;
 * anything else reads as an empty record (every field then missing).
 */
export const ownFields = z.transform((value: unknown): Record<string, unknown> => (isRecord(value) ? Object.fromEntries(Object.entries(value)) : {}))
