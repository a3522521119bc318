import { errorMessage, requiredFieldMessage, ValidationError, type ErrorCode } from '../errors.ts'

export type InputRecord = Readonly<Record<string, unknown>>

/** Whether a value is a plain JSON-like object (not null, not an array). */
export function isRecord(value: unknown): value is InputRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Reads an own property only, so '__proto__' and inherited names never count as submitted fields. */
export function field(source: InputRecord, key: string): unknown {
  return Object.hasOwn(source, key) ? source[key] : undefined
}

// Control characters (CR and LF above all) never survive in a one-line value, so no value can start a new header line.
const LINE_BREAKS_AND_CONTROLS = /[\p{Cc}\u2028\u2029]+/gu
const CONTROLS_EXCEPT_NEWLINE_AND_TAB = /(?![\n\t])[\p{Cc}\u2028\u2029]/gu

/** A one-line text value: non-strings read as empty, line breaks and runs of white space become one space. */
export function singleLine(value: unknown): string {
  if (typeof value !== 'string') return ''
  return value.replace(LINE_BREAKS_AND_CONTROLS, ' ').replace(/\s+/g, ' ').trim()
}

/** A multi-line text value: newlines normalised to \n, other control characters removed. */
export function multiLine(value: unknown): string {
  if (typeof value !== 'string') return ''
  return value.replace(/\r\n?/g, '\n').replace(CONTROLS_EXCEPT_NEWLINE_AND_TAB, '').trim()
}

// The syntax browsers accept for <input type="email"> (WHATWG), plus a dot in the domain so the address is deliverable.
const EMAIL_SYNTAX =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/

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

interface Issue {
  path: string
  code: ErrorCode
  message: string
}

/** Collects every problem of a submission, then reports them as one ValidationError. */
export class Issues {
  readonly #issues: Issue[] = []

  add(path: string, code: ErrorCode, message = errorMessage(code)): void {
    this.#issues.push({ path, code, message })
  }

  has(path: string): boolean {
    return this.#issues.some((issue) => issue.path === path)
  }

  /** Records a missing field with its own message, e.g. 'Phone is required'. */
  addMissing(path: string, label: string): void {
    this.add(path, 'missing-fields', requiredFieldMessage(label))
  }

  /**
   * Throws when there is any issue. A missing field leads with the specification's required-fields sentence,
   * otherwise the first issue's message; every field keeps its own message.
   */
  throwIfAny(): void {
    const missing = this.#issues.some((issue) => issue.code === 'missing-fields')
    const first = this.#issues[0]
    if (!first) return
    const fields: Record<string, string> = {}
    for (const issue of this.#issues) fields[issue.path] ??= issue.message
    if (missing) throw new ValidationError('missing-fields', fields)
    throw new ValidationError(first.code, fields, first.message)
  }
}

/** Checks a required one-line or multi-line value for presence and length; `label` names it when it is missing. */
export function requireText(issues: Issues, path: string, value: string, maxLength: number, label: string): void {
  if (value === '') issues.addMissing(path, label)
  else if (value.length > maxLength) issues.add(path, 'too-long', `Please keep this to at most ${maxLength} characters.`)
}

/** Checks an optional value's length. */
export function limitText(issues: Issues, path: string, value: string, maxLength: number): void {
  if (value.length > maxLength) issues.add(path, 'too-long', `Please keep this to at most ${maxLength} characters.`)
}

/** Checks a required e-mail address for presence and syntax; `label` names it when it is missing. */
export function requireEmail(issues: Issues, path: string, value: string, label: string): void {
  if (value === '') issues.addMissing(path, label)
  else if (!isEmailAddress(value)) issues.add(path, 'invalid-email')
}
