/** Why a back-office action was refused. */
export type BackOfficeErrorCode =
  | 'not-found'
  | 'invalid-input'
  | 'already-paid'
  | 'overpayment'
  | 'duplicate-bank-reference'
  | 'event-started'
  | 'not-retryable'
  | 'already-cancelled'

/** A refused back-office action; `message` is written for staff and may be shown as it is. */
export class BackOfficeError extends Error {
  readonly code: BackOfficeErrorCode

  constructor(code: BackOfficeErrorCode, message: string) {
    super(message)
    this.name = 'BackOfficeError'
    this.code = code
  }
}

/** True for a BackOfficeError, e.g. to answer a form with its message. */
export function isBackOfficeError(error: unknown): error is BackOfficeError {
  return error instanceof BackOfficeError
}
