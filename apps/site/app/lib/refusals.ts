import type { ErrorCode, FieldIssue, ValidationError } from '@events/core'
import { capMessage } from '@events/pricing'

/** Every code a refusal of the site answers with: the core's, and those of the HTTP layer before a service is called. */
export type RefusalCode =
  | ErrorCode
  | 'malformed-address'
  | 'method-not-allowed'
  | 'payload-too-large'
  | 'unsupported-media-type'
  | 'length-required'
  | 'not-found'
  | 'unavailable'
  | 'internal-error'

interface Refusal {
  status: number
  message: string
}

// The HTTP status and the visitor's wording of every refusal, in one place: the specification's words where it has them.
export const REFUSALS: Record<RefusalCode, Refusal> = {
  'invalid-request': { status: 400, message: 'The submission could not be read. Please try again.' },
  'missing-fields': { status: 422, message: 'Please fill in all required fields before submitting.' },
  'invalid-email': { status: 422, message: 'Please enter a valid e-mail address.' },
  'invalid-phone': { status: 422, message: 'Please enter a valid telephone number, e.g. 011 555 0100, or +44 20 7946 0958 from abroad.' },
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
  'malformed-address': { status: 400, message: 'This address is not valid. Please check the link and try again.' },
  'method-not-allowed': { status: 405, message: 'This address does not answer that kind of request.' },
  'payload-too-large': { status: 413, message: 'The submission is too large. Please shorten it and try again.' },
  'unsupported-media-type': { status: 415, message: 'The submission was sent in a format this address does not accept.' },
  'length-required': { status: 411, message: 'The submission must state its length.' },
  'not-found': { status: 404, message: 'No registration was found at this address.' },
  unavailable: { status: 503, message: 'Our service is unavailable just now. Please try again in a few minutes.' },
  'internal-error': { status: 500, message: 'Something went wrong on our side. Please try again later.' },
}

/** The submissions whose fields a refusal can name; each names a missing field its own way. */
export type SubmissionKind = 'registration' | 'contact' | 'training'

// The names a missing field's message gives it ('Company name is required'), by the last part of its path.
const FIELD_NAMES: Record<SubmissionKind, Readonly<Record<string, string>>> = {
  registration: {
    code: 'Code',
    companyName: 'Company name',
    address: 'Address',
    email: 'E-mail',
    tel: 'Telephone',
    vatNumber: 'VAT number',
    name: 'Name',
    position: 'Position',
    attendanceOption: 'Attendance option',
    paymentMethod: 'Payment method',
  },
  contact: { fullName: 'Full name', email: 'Email', phone: 'Phone', interest: 'Interest', message: 'Message' },
  training: { name: 'Name', email: 'Email', phone: 'Phone', organization: 'Organization', message: 'Message' },
}

/**
 * The message shown beside one field: a missing one named ('Company name is required'), the legal agreement saying
 * what to do, a limit or cap with its number, otherwise its code's own message.
 */
export function fieldMessage(issue: FieldIssue, kind: SubmissionKind): string {
  switch (issue.code) {
    case 'required':
      return `${FIELD_NAMES[kind][issue.path.split('.').at(-1) ?? ''] ?? issue.path} is required`
    case 'not-accepted':
      return 'Please accept the terms and conditions before submitting.'
    case 'too-long':
      return issue.maximum === undefined ? REFUSALS['too-long'].message : `Please keep this to at most ${issue.maximum} characters.`
    case 'delegate-cap':
      return issue.cap === undefined ? REFUSALS['delegate-cap'].message : capMessage(issue.cap)
    default:
      return REFUSALS[issue.code].message
  }
}

/** The JSON error body every refusal shares: { error: { code, message, fields } }. */
export interface RefusalBody {
  error: { code: RefusalCode; message: string; fields: Record<string, string> }
}

/** The body of a refusal the HTTP layer makes itself, naming no field. */
export function refusalBody(code: RefusalCode): RefusalBody {
  return { error: { code, message: REFUSALS[code].message, fields: {} } }
}

/**
 * A core refusal in the visitor's words: each field's message, and the summary: the first field's own message when
 * the refusal is that field's (a cap with its number), else the code's (the required-fields sentence when one is missing).
 */
export function validationRefusal(error: ValidationError, kind: SubmissionKind): { status: number; body: RefusalBody } {
  const fields: Record<string, string> = {}
  for (const issue of error.issues) fields[issue.path] ??= fieldMessage(issue, kind)
  const first = error.issues[0]
  const message = first && first.code === error.code ? (fields[first.path] ?? REFUSALS[error.code].message) : REFUSALS[error.code].message
  return { status: REFUSALS[error.code].status, body: { error: { code: error.code, message, fields } } }
}
