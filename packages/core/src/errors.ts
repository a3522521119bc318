import type { FieldIssue, FieldIssueCode, MissingFieldCode } from './submissions/fields.ts'

/** Stable codes of everything a visitor can be told is wrong with a submission: a field's own refusal, or the whole one's. */
export type ErrorCode = 'invalid-request' | 'missing-fields' | Exclude<FieldIssueCode, MissingFieldCode> | 'idempotency-conflict' | 'rate-limited'

/**
 * An error its catcher tells apart by a stable code rather than by its message, which is written for people. Each
 * package's refusals (back office, payments, staff accounts) are one of these, with the codes of their own.
 */
export class CodedError<Code extends string> extends Error {
  readonly code: Code

  constructor(name: string, code: Code, message: string) {
    super(message)
    this.name = name
    this.code = code
  }
}

/**
 * The one kind of error a submission can cause: a stable code and each offending field's issue (its dotted path,
 * e.g. 'delegates.0.email', and code). The site words them for the visitor and picks the HTTP status.
 */
export class ValidationError extends CodedError<ErrorCode> {
  readonly issues: readonly FieldIssue[]

  constructor(code: ErrorCode, issues: readonly FieldIssue[] = []) {
    super(
      'ValidationError',
      code,
      `Submission refused: ${code}${issues.length > 0 ? ` (${issues.map((issue) => `${issue.path}: ${issue.code}`).join(', ')})` : ''}`,
    )
    this.issues = issues
  }
}

/** Whether a value is the core's typed validation error. */
export function isValidationError(error: unknown): error is ValidationError {
  return error instanceof ValidationError
}
