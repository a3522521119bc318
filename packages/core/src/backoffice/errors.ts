import { CodedError } from '../errors.ts'

/** Why a back-office action was refused. */
export type BackOfficeErrorCode =
  | 'not-found'
  | 'invalid-input'
  | 'already-paid'
  | 'duplicate-bank-reference'
  | 'event-started'
  | 'not-retryable'
  | 'already-cancelled'
  | 'personal-data-erased'
  | 'delegate-not-attending'
  | 'table-cancelled-in-part'
  | 'nothing-to-pay-out'
  | 'registration-cancelled'
  | 'no-receipt'
  | 'role-required'
  | 'request-pending'
  | 'statement-line-settled'
  | 'split-does-not-add-up'
  | 'nothing-owed'
  | 'invoice-up-to-date'
  | 'not-enough-seats'
  | 'entry-closed'
  | 'unknown-pass'
  | 'already-checked-in'
  | 'not-checked-in'
  | 'not-an-event-day'
  | 'not-today'
  | 'pass-cancelled'
  | 'pass-of-another-event'
  | 'event-not-started'
  | 'event-over'
  | 'past-day-reason-required'
  | 'invalid-meeting-link'
  | 'event-not-ended'
  | 'certificate-revoked'
  | 'certificate-replaced'
  | 'deal-already-approved'
  | 'deal-not-approved'
  | 'statement-row-cells'
  | 'statement-amount-unreadable'
  | 'statement-balance-broken'

/**
 * A refused back-office action; `message` is written for staff and may be shown as it is. `field` names the input
 * at fault (e.g. `bankReference`), so a form can show the message beside it; absent when no one field is.
 */
export class BackOfficeError extends CodedError<BackOfficeErrorCode> {
  readonly field: string | undefined
  /** The figures the refusal names (e.g. `outstandingCents`), for the site's wording. */
  readonly details: Readonly<Record<string, string | number>>

  constructor(code: BackOfficeErrorCode, message: string, field?: string, details: Readonly<Record<string, string | number>> = {}) {
    super('BackOfficeError', code, message)
    this.field = field
    this.details = details
  }
}

/** True for a BackOfficeError, e.g. to answer a form with its message. */
export function isBackOfficeError(error: unknown): error is BackOfficeError {
  return error instanceof BackOfficeError
}
