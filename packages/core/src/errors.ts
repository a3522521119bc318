import type { FieldIssue, FieldIssueCode, MissingFieldCode } from './submissions/fields.ts'

/** Stable codes of everything a visitor can be told is wrong with a submission: a field's own refusal, or the whole one's. */
export type ErrorCode = 'invalid-request' | 'missing-fields' | Exclude<FieldIssueCode, MissingFieldCode> | 'idempotency-conflict' | 'rate-limited'

/**
 * The one kind of error a submission can cause: a stable code and each offending field's issue (its dotted path,
 * e.g. 'delegates.0.email', and code). The site words them for the visitor and picks the HTTP status.
 */
export class ValidationError extends Error {
  readonly code: ErrorCode
  readonly issues: readonly FieldIssue[]

  constructor(code: ErrorCode, issues: readonly FieldIssue[] = []) {
    super(`Submission refused: ${code}${issues.length > 0 ? ` (${issues.map((issue) => `${issue.path}: ${issue.code}`).join(', ')})` : ''}`)
    this.name = 'ValidationError'
    this.code = code
    this.issues = issues
  }
}

/** Whether a value is the core's typed validation error. */
export function isValidationError(error: unknown): error is ValidationError {
  return error instanceof ValidationError
}
