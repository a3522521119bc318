import { CodedError } from '../errors.ts'

/** Every code a back-office refusal can carry; the site words each (a test holds it to that). */
export const BACK_OFFICE_ERROR_CODES = [
  'not-found',
  'invalid-input',
  'already-paid',
  'duplicate-bank-reference',
  'event-started',
  'not-retryable',
  'not-uncertain',
  'already-cancelled',
  'personal-data-erased',
  'delegate-not-attending',
  'table-cancelled-in-part',
  'nothing-to-pay-out',
  'registration-cancelled',
  'no-receipt',
  'role-required',
  'request-pending',
  'statement-line-settled',
  'statement-line-unmatched',
  'split-does-not-add-up',
  'nothing-owed',
  'invoice-up-to-date',
  'not-enough-seats',
  'entry-closed',
  'unknown-pass',
  'already-checked-in',
  'not-checked-in',
  'already-left',
  'left-without-check-in',
  'not-an-event-day',
  'not-today',
  'pass-cancelled',
  'pass-of-another-event',
  'event-not-started',
  'event-over',
  'past-day-reason-required',
  'invalid-meeting-link',
  'event-not-ended',
  'certificate-revoked',
  'certificate-replaced',
  'cpd-hours-beyond-day',
  'deal-already-approved',
  'deal-not-approved',
  'statement-row-cells',
  'statement-amount-unreadable',
  'statement-balance-broken',
] as const

/** Why a back-office action was refused. */
export type BackOfficeErrorCode = (typeof BACK_OFFICE_ERROR_CODES)[number]

/** Everything a `not-found` refusal can name as missing. */
export const MISSING_THINGS = [
  'registration',
  'company',
  'tax-invoice',
  'waiting-list-entry',
  'sponsorship-deal',
  'published-event',
  'event-registrations',
  'certificate',
  'reachable-delegate',
  'delegate',
  'discount-code',
  'email',
  'enquiry',
  'refund',
  'column-mapping',
  'statement-line',
  'cancellation-request',
] as const

/** What a `not-found` refusal could not find: the site words each. */
export type MissingThing = (typeof MISSING_THINGS)[number]

/** Everything an `invalid-input` refusal can name as wrong with the input. */
export const INPUT_PROBLEMS = [
  'message-incomplete',
  'no-recipients',
  'message-not-confirmed',
  'message-recipients-changed',
  'date-format',
  'whole-number',
  'list-status',
  'payment-method',
  'email-address',
  'period-reversed',
  'csv-unreadable',
  'csv-heading-missing',
  'csv-date',
  'mapping-text-missing',
  'mapping-text-too-long',
  'mapping-delimiter',
  'mapping-date-format',
  'mapping-decimal-separator',
  'mapping-amount-missing',
  'mapping-amount-twice',
  'mapping-missing',
  'bank-preset',
  'mapping-name-taken',
  'statement-file-missing',
  'not-a-statement',
  'statement-no-money-in',
  'registration-reference',
  'statement-too-long',
  'ofx-unreadable',
  'ofx-no-statement',
  'ofx-currency',
  'ofx-date',
  'ofx-amount',
  'accounting-settings-missing',
] as const

/** What is wrong with the input of an `invalid-input` refusal: the site words each. */
export type InputProblem = (typeof INPUT_PROBLEMS)[number]

/** The figures and names a refusal carries for the site's wording (never words of its own). */
export type RefusalDetails = Readonly<Record<string, string | number>>

/**
 * A refused back-office action: a stable code and the figures that explain it (`details`), worded for staff by the
 * site (apps/site/app/lib/refusals.ts); the `message` only names the code and details for logs. `field` names the
 * input at fault (e.g. `bankReference`), so a form can show its message beside it; absent when no one field is.
 */
export class BackOfficeError extends CodedError<BackOfficeErrorCode> {
  readonly field: string | undefined
  readonly details: RefusalDetails

  constructor(code: 'not-found', details: RefusalDetails & { missing: MissingThing }, field?: string)
  constructor(code: 'invalid-input', details: RefusalDetails & { problem: InputProblem }, field?: string)
  constructor(code: Exclude<BackOfficeErrorCode, 'not-found' | 'invalid-input'>, details?: RefusalDetails, field?: string)
  constructor(code: BackOfficeErrorCode, details: RefusalDetails = {}, field?: string) {
    super('BackOfficeError', code, Object.keys(details).length > 0 ? `${code} ${JSON.stringify(details)}` : code)
    this.field = field
    this.details = details
  }
}

/** True for a BackOfficeError, e.g. to answer a form with its wording. */
export function isBackOfficeError(error: unknown): error is BackOfficeError {
  return error instanceof BackOfficeError
}
