import { capMessage } from '@events/pricing'
import type { FieldIssue, FieldIssueCode, MissingFieldCode } from './submissions/fields.ts'

/** Stable codes of everything a visitor can be told is wrong with a submission: a field's own refusal, or the whole one's. */
export type ErrorCode =
  | 'invalid-request'
  | 'missing-fields'
  | Exclude<FieldIssueCode, MissingFieldCode>
  | 'unknown-event'
  | 'idempotency-conflict'
  | 'rate-limited'

interface ErrorDescription {
  status: number
  message: string
}

// The visitor wording for every code, in one place: the specification's words where it has them.
const ERRORS: Record<ErrorCode, ErrorDescription> = {
  'invalid-request': { status: 400, message: 'The submission could not be read. Please try again.' },
  'missing-fields': { status: 422, message: 'Please fill in all required fields before submitting.' },
  'invalid-email': { status: 422, message: 'Please enter a valid e-mail address.' },
  'too-long': { status: 422, message: 'This entry is too long.' },
  'invalid-choice': { status: 422, message: 'Please choose one of the options offered.' },
  'no-delegates': { status: 422, message: 'Please add at least one delegate.' },
  'too-many-delegates': { status: 422, message: 'Too many delegates for one registration. Please split it into several registrations.' },
  'delegate-cap': { status: 422, message: 'You can only add up to {n} delegates for this option.' },
  'unknown-event': { status: 404, message: 'This event does not exist or is no longer open for registration.' },
  'registration-closed': { status: 409, message: 'Registration for this event has closed.' },
  'option-not-offered': { status: 422, message: 'This attendance option is not offered for this event.' },
  'option-unavailable': { status: 409, message: 'This attendance option is no longer available. Please choose another option.' },
  'idempotency-conflict': { status: 409, message: 'This submission was already received with different details. Please reload the form and submit again.' },
  'rate-limited': { status: 429, message: 'Too many submissions from your connection. Please wait a minute and try again.' },
}

/** The visitor-facing message for an error code. */
export function errorMessage(code: ErrorCode): string {
  return ERRORS[code].message
}

/**
 * The message shown beside one field: a missing one named as its label does ('Company name is required'), the
 * legal agreement saying what to do, a limit or cap with its number, otherwise the code's own message.
 */
export function fieldIssueMessage(issue: FieldIssue, label: string): string {
  switch (issue.code) {
    case 'required':
      return `${label} is required`
    case 'not-accepted':
      return 'Please accept the terms and conditions before submitting.'
    case 'too-long':
      return `Please keep this to at most ${issue.maximum} characters.`
    case 'delegate-cap':
      return issue.cap === undefined ? errorMessage(issue.code) : capMessage(issue.cap)
    default:
      return errorMessage(issue.code)
  }
}

/** The HTTP status that answers an error code. */
export function errorStatus(code: ErrorCode): number {
  return ERRORS[code].status
}

/**
 * The one kind of error a submission can cause. `fields` maps each offending field path
 * (e.g. 'delegates.0.email') to its message.
 */
export class ValidationError extends Error {
  readonly code: ErrorCode
  readonly fields: Readonly<Record<string, string>>

  constructor(code: ErrorCode, fields: Record<string, string> = {}, message = errorMessage(code)) {
    super(message)
    this.name = 'ValidationError'
    this.code = code
    this.fields = fields
  }

  get status(): number {
    return errorStatus(this.code)
  }
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; fields: Record<string, string> }
}

/** The JSON body of a 4xx answer: { error: { code, message, fields } }. */
export function errorBody(error: ValidationError): ErrorBody {
  return { error: { code: error.code, message: error.message, fields: { ...error.fields } } }
}

/** Whether a value is the core's typed validation error. */
export function isValidationError(error: unknown): error is ValidationError {
  return error instanceof ValidationError
}
