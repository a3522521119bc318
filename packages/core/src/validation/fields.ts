import { isValidPhoneNumber } from 'libphonenumber-js/max'

export type InputRecord = Readonly<Record<string, unknown>>

/** Whether a value is a plain JSON-like object (not null, not an array). */
export function isRecord(value: unknown): value is InputRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// Control characters (CR and LF above all) never survive in a one-line value, so no value can start a new header line.
const LINE_BREAKS_AND_CONTROLS = /[\p{Cc}\u2028\u2029]+/gu
const CONTROLS_EXCEPT_NEWLINE_AND_TAB = /(?![\n\t])[\p{Cc}\u2028\u2029]/gu
/**
 * Invisible formatting characters, removed from every value: bidirectional embeddings, overrides and isolates
 * (U+202A-U+202E, U+2066-U+2069), the left-to-right, right-to-left and Arabic letter marks (U+200E, U+200F, U+061C),
 * zero-width space, non-joiner and joiner (U+200B-U+200D) and the byte-order mark (U+FEFF). Stored, they let a name or
 * a note display as other text than it is ("Invoice\u202Egpj.exe" shows as "Invoiceexe.jpg"), or two values that
 * look the same differ, in the back office, exports, e-mails and PDFs.
 */
const INVISIBLE_FORMATTING = /[\u061C\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g

/** A one-line text value: non-strings read as empty, line breaks and runs of white space become one space, invisible formatting characters go. */
export function singleLine(value: unknown): string {
  if (typeof value !== 'string') return ''
  return value.replace(INVISIBLE_FORMATTING, '').replace(LINE_BREAKS_AND_CONTROLS, ' ').replace(/\s+/g, ' ').trim()
}

/** A multi-line text value: newlines normalised to \n, invisible formatting and control characters removed. */
export function multiLine(value: unknown): string {
  if (typeof value !== 'string') return ''
  return value.replace(INVISIBLE_FORMATTING, '').replace(/\r\n?/g, '\n').replace(CONTROLS_EXCEPT_NEWLINE_AND_TAB, '').trim()
}

/**
 * Whether a value is a telephone number that can be dialled, by libphonenumber-js's full metadata: a South African
 * number with or without its +27, or any other country's with its + and country code.
 */
export function isTelephoneNumber(value: string): boolean {
  return isValidPhoneNumber(value, 'ZA')
}

// The syntax browsers accept for <input type="email"> (WHATWG), plus a dot in the domain so the address is deliverable.
const EMAIL_SYNTAX = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/

export const MAX_EMAIL_LENGTH = 254

/** Whether a string is a syntactically valid, deliverable-looking e-mail address. */
export function isEmailAddress(value: string): boolean {
  if (value.length > MAX_EMAIL_LENGTH) return false
  const at = value.lastIndexOf('@')
  if (at < 1 || at > 64) return false
  return EMAIL_SYNTAX.test(value)
}

/** Interprets a checkbox as submitted by JSON (true) or by an HTML form ('on', 'true'). */
export function isTicked(value: unknown): boolean {
  return value === true || value === 'on' || value === 'true' || value === '1' || value === 1
}

/** A bank reference as stored and compared: surrounding spaces dropped, inner runs made one, upper case. */
export function normaliseBankReference(input: unknown): string {
  return singleLine(input).toUpperCase()
}
