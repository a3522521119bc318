import type {
  BackOfficeError,
  BackOfficeErrorCode,
  ErrorCode,
  FieldIssue,
  FieldIssueCode,
  InputProblem,
  MissingThing,
  RefusalDetails,
  ValidationError,
} from '@events/core'
import { capMessage, formatRand, TIME_ZONE } from '@events/pricing'

/** Every code a refusal of the site answers with: the core's, and those of the HTTP layer before a service is called. */
export type RefusalCode =
  | ErrorCode
  | 'malformed-address'
  | 'method-not-allowed'
  | 'cross-site-post'
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

/** A date refused for lying before what it follows from. */
function dateNotBefore(what: string): string {
  return `The date cannot be before ${what}.`
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
  'invalid-amount': { status: 422, message: 'Enter the amount in rand as on the bank statement, e.g. 8 990.00.' },
  'invalid-date': { status: 422, message: 'Enter the date as on the bank statement (YYYY-MM-DD).' },
  'date-in-future': { status: 422, message: 'The date cannot be later than today.' },
  'date-before-registration': { status: 422, message: dateNotBefore('the registration was made') },
  'date-before-cancellation': { status: 422, message: dateNotBefore('the cancellation that owes the refund') },
  'invalid-percentage': { status: 422, message: 'Enter the fee as a whole percentage from 0 to 100.' },
  'reason-required': { status: 422, message: 'The fee differs from what the terms propose: say why (for example, what was agreed in writing).' },
  'date-before-transfer': { status: 422, message: dateNotBefore('the transfer that paid too much arrived') },
  'invalid-branch-code': { status: 422, message: 'Enter the branch code: 6 digits (universal branch codes too, e.g. 250655).' },
  'invalid-account-number': { status: 422, message: 'Enter the account number: 6 to 16 digits.' },
  'too-few-parts': { status: 422, message: 'A split needs at least two registrations; for one, record the line against it.' },
  'too-many-parts': { status: 422, message: 'A line is split across at most 20 registrations.' },
  'repeated-registration': { status: 422, message: 'Each registration is named once; add its amounts together.' },
  'invalid-delegate-count': { status: 422, message: 'Please enter the number of delegates: a whole number from 1.' },
  'invalid-vat-number': { status: 422, message: 'Please enter the VAT number as SARS issued it: 10 digits starting with 4, e.g. 4123456789.' },
  'sold-out': { status: 409, message: 'Sorry, this event is sold out.' },
  'table-venue-only': {
    status: 422,
    message: 'A table is at the venue: every delegate at a table attends in person. Choose a per-delegate option to send some online.',
  },
  'attendance-unavailable': { status: 422, message: 'This event does not offer this way of attending. Please choose venue or online as the event offers.' },
  'invalid-seats': { status: 422, message: 'Please enter the number of seats: a whole number from 1 to 10.' },
  'not-sold-out': { status: 409, message: 'Seats are still available for this event: please register instead of joining the waiting list.' },
  'offer-expired': {
    status: 409,
    message: 'This waiting-list offer is no longer valid: its time ran out or it was withdrawn, and its seats went to the next person waiting.',
  },
  'offer-used': { status: 409, message: 'This waiting-list offer was already used to register. Your registration’s page is in the confirmation e-mail.' },
  'registration-number-not-asked': { status: 422, message: 'This event is not accredited for CPD: it asks for no professional registration number.' },
  'registration-number-closed': {
    status: 409,
    message: 'The event has ended: its certificates print the professional registration number given by then, so it can no longer be changed.',
  },
  'invalid-cpd-hours': { status: 422, message: 'Enter the CPD hours of the day in half hours, e.g. 6 or 6.5, or leave it empty to count the agenda.' },
  'quotation-unknown': { status: 422, message: 'We have no quotation with this number. Please check it (e.g. Q-000042), or register without it.' },
  'quotation-other-event': { status: 422, message: 'This quotation is for another event.' },
  'discount-code-unknown': { status: 422, message: 'This code is not valid. Please check it, or register without it.' },
  'discount-code-other-event': { status: 422, message: 'This code is for another event.' },
  'discount-code-not-yet-valid': { status: 422, message: 'This code cannot be used yet.' },
  'discount-code-expired': { status: 422, message: 'This code has expired.' },
  'discount-code-option-excluded': { status: 422, message: 'This code does not apply to the attendance option chosen. Please choose another option.' },
  'discount-code-one-delegate': { status: 422, message: 'A complimentary seat is for one delegate: please register the others separately.' },
  'discount-code-spent': { status: 409, message: 'This code has already been used as many times as it allows.' },
  'discount-code-taken': { status: 422, message: 'Another discount code already has this code: choose another, or leave it empty for one to be made up.' },
  'invalid-discount-code': { status: 422, message: 'Use 4 to 40 letters, digits or dashes for the code.' },
  'invalid-discount-percent': { status: 422, message: 'Enter the discount as a whole percentage from 1 to 100.' },
  'invalid-discount-uses': { status: 422, message: 'Enter the number of uses as a whole number from 1, or leave it empty for no limit.' },
  'discount-dates-reversed': { status: 422, message: 'The last day cannot be before the first.' },
  'unknown-sponsor-package': { status: 422, message: 'Choose one of the sponsor packages the Studio publishes.' },
  'too-many-words': { status: 422, message: 'The promotional text has more words than the package allows.' },
  'invalid-account-code': { status: 422, message: 'Enter the account code as Xero shows it: up to 10 letters or digits, e.g. 200.' },
  'invalid-ledger-account': { status: 422, message: 'Enter the ledger account’s nominal code as Sage shows it: up to 8 digits, e.g. 1000.' },
  'malformed-address': { status: 400, message: 'This address is not valid. Please check the link and try again.' },
  'method-not-allowed': { status: 405, message: 'This address does not answer that kind of request.' },
  'cross-site-post': { status: 403, message: 'This form was sent from another site, so nothing was done. Open the page on this site and send it from there.' },
  'payload-too-large': { status: 413, message: 'The submission is too large. Please shorten it and try again.' },
  'unsupported-media-type': { status: 415, message: 'The submission was sent in a format this address does not accept.' },
  'length-required': { status: 411, message: 'The submission must state its length.' },
  'not-found': { status: 404, message: 'No registration was found at this address.' },
  unavailable: { status: 503, message: 'Our service is unavailable just now. Please try again in a few minutes.' },
  'internal-error': { status: 500, message: 'Something went wrong on our side. Please try again later.' },
}

/** The submissions whose fields a refusal can name; each names a missing field its own way. */
export type SubmissionKind = 'registration' | 'contact' | 'training' | 'waiting-list' | 'back-office'

// The names a missing field's message gives it ('Company name is required'), by the last part of its path.
const FIELD_NAMES: Record<SubmissionKind, Readonly<Record<string, string>>> = {
  registration: {
    code: 'Code',
    companyName: 'Company name',
    address: 'Address',
    email: 'E-mail',
    tel: 'Telephone',
    vatNumber: 'VAT number',
    vatRegistered: 'Registered for VAT',
    purchaseOrderNumber: 'Purchase order number',
    name: 'Name',
    position: 'Position',
    attendanceOption: 'Attendance option',
    paymentMethod: 'Payment method',
    discountCode: 'Discount code',
    quotationNumber: 'Quotation number',
  },
  contact: { fullName: 'Full name', email: 'Email', phone: 'Phone', interest: 'Interest', message: 'Message' },
  training: { name: 'Name', email: 'Email', phone: 'Phone', organization: 'Organization', message: 'Message' },
  'waiting-list': {
    event: 'Event',
    name: 'Name',
    companyName: 'Company name',
    email: 'E-mail',
    tel: 'Telephone',
    seats: 'Seats wanted',
    attendance: 'Attendance',
  },
  'back-office': {
    companyName: 'Company name',
    address: 'Address',
    email: 'E-mail',
    tel: 'Telephone',
    vatNumber: 'VAT number',
    purchaseOrderNumber: 'Purchase order number',
    name: 'Name',
    position: 'Position',
    reference: 'The registration’s reference',
    amount: 'The amount received',
    receivedOn: 'The date received',
    paidOutOn: 'The date paid out',
    bankReference: 'The bank reference',
    status: 'The status',
    note: 'The note',
    text: 'The reply',
    mail: 'The e-mail to send',
    messageId: 'The e-mail',
    enquiryId: 'The enquiry',
    refundId: 'The refund',
    lineId: 'The statement line',
    parts: 'The registrations and amounts',
    reason: 'The reason',
    accountHolder: 'The account holder’s name',
    bankName: 'The bank’s name',
    branchCode: 'The branch code',
    accountNumber: 'The account number',
  },
}

// Where the back office means something else by a field issue than the public forms do.
const BACK_OFFICE_FIELD_MESSAGES: Partial<Record<FieldIssueCode, string>> = {
  'no-delegates': 'Choose the delegates to cancel, or cancel the whole registration.',
}

/** A visitor's message as staff read it: the same words, without the "Please" visitors are asked with. */
function staffWording(message: string): string {
  return message.replace(/^Please (\w)/, (_, first: string) => first.toUpperCase())
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
      // The public forms' one tick box is the terms; the back office's confirm what cannot be undone.
      return kind === 'back-office' ? 'Tick the box to confirm first.' : 'Please accept the terms and conditions before submitting.'
    case 'too-long':
      return issue.maximum === undefined ? REFUSALS['too-long'].message : `Please keep this to at most ${issue.maximum} characters.`
    case 'delegate-cap':
      return issue.cap === undefined ? REFUSALS['delegate-cap'].message : capMessage(issue.cap)
    case 'sold-out':
      return soldOutMessage(issue)
    case 'not-sold-out':
      return notSoldOutMessage(issue)
    case 'too-many-words':
      return issue.maximum === undefined || issue.words === undefined
        ? REFUSALS['too-many-words'].message
        : `The promotional text has ${issue.words} words; the package allows ${issue.maximum}. Shorten it, or ask the sponsor for a shorter one.`
    default:
      if (kind !== 'back-office') return REFUSALS[issue.code].message
      return BACK_OFFICE_FIELD_MESSAGES[issue.code] ?? staffWording(REFUSALS[issue.code].message)
  }
}

/**
 * Why a registration found too few seats: none left of its kind, or fewer than it needs, saying how many remain so
 * the visitor can register fewer delegates (or attend online) instead.
 */
function soldOutMessage({ seatsLeft, seatKind, seatsWanted }: FieldIssue): string {
  if (seatsLeft === undefined || seatKind === undefined) return REFUSALS['sold-out'].message
  const where = seatKind === 'venue' ? 'at the venue' : 'online'
  if (seatsLeft === 0) return `Sorry, this event is sold out ${where}.`
  const seats = seatsLeft === 1 ? '1 seat is' : `${seatsLeft} seats are`
  return `Sorry, only ${seats} left ${where}; this registration needs ${seatsWanted ?? 'more'}. Please register fewer delegates.`
}

/** Why the waiting list refused a visitor: the seats they want are still free, so they register instead. */
function notSoldOutMessage({ seatsLeft, seatKind }: FieldIssue): string {
  if (seatsLeft === undefined || seatKind === undefined) return REFUSALS['not-sold-out'].message
  const where = seatKind === 'venue' ? 'at the venue' : 'online'
  return `${seatsLeft === 1 ? '1 seat is' : `${seatsLeft} seats are`} still free ${where}: please register instead of joining the waiting list.`
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

type Wording = (details: RefusalDetails) => string

/** What staff read when something a back-office action names is not there (a `not-found` refusal). */
const MISSING_THINGS: Record<MissingThing, Wording> = {
  registration: ({ reference }) => `No registration has the reference ${reference}.`,
  company: ({ companyName }) => `No registration or invoiced sponsorship deal names the company ${companyName}.`,
  'tax-invoice': ({ reference }) => `Registration ${reference} has no tax invoice to correct.`,
  'waiting-list-entry': () => 'This waiting-list entry (or its event) no longer exists. Reload the waiting list.',
  'sponsorship-deal': () => 'No such sponsorship deal. Reload the list of deals.',
  'published-event': () => 'The deal’s event is no longer published.',
  'event-registrations': () => 'This event has no registrations.',
  certificate: ({ number }) => `No certificate has the number ${number}.`,
  'reachable-delegate': ({ reference }) => `Registration ${reference} has no delegate there who can be written to: cancelled, or their address was erased.`,
  delegate: ({ reference, number }) => `Registration ${reference} has no delegate ${number}.`,
  'discount-code': () => 'No such discount code. Reload the list of codes.',
  email: () => 'That e-mail does not exist (any more). Reload the list of e-mails.',
  enquiry: () => 'That enquiry does not exist (any more).',
  refund: ({ reference }) => (reference ? `Registration ${reference} has no such refund.` : 'That refund does not exist. Reload the list.'),
  'column-mapping': () => 'That column mapping no longer exists. Choose another, or describe a new one.',
  'statement-line': () => 'That statement line does not exist. Import the statement again.',
  'cancellation-request': () => 'That cancellation request has been decided already or does not exist.',
}

/** The words of each column a bank statement's mapping names, as the form asks for it. */
const MAPPING_COLUMNS: Record<string, string> = {
  name: 'the name of the bank (or account) for the new mapping',
  amountColumn: 'the heading of the amount column',
  moneyInColumn: 'the heading of the money-in column',
  moneyOutColumn: 'the heading of the money-out column',
  dateColumn: 'the heading of the date column',
  descriptionColumn: 'the heading of the description column',
  feeColumn: 'the heading of the charges column',
  balanceColumn: 'the heading of the balance column',
  referenceColumn: 'the heading of the reference column',
}

const delegatesCount = (count: string | number | undefined) => `${count} ${Number(count) === 1 ? 'delegate' : 'delegates'}`

function mappingColumn(column: string | number | undefined): string {
  return MAPPING_COLUMNS[String(column)] ?? 'this heading'
}

/** What staff read when what they typed or uploaded cannot be used (an `invalid-input` refusal). */
const INPUT_PROBLEMS: Record<InputProblem, Wording> = {
  'message-incomplete': () => 'Fill in the subject and the text of the message.',
  'no-recipients': () => 'No delegate matches these filters: nothing was sent.',
  'message-not-confirmed': () => 'Preview the message first, then send it to the number of delegates the preview names.',
  'message-recipients-changed': ({ confirmed, now }) =>
    `The message now goes to ${delegatesCount(now)}, not the ${delegatesCount(confirmed)} you confirmed: nothing was sent. Check the preview and send again.`,
  'date-format': ({ field }) => `Enter the ${field} date as YYYY-MM-DD.`,
  'period-reversed': () => 'The period ends before it starts.',
  'whole-number': ({ field, max }) => `The ${field === 'pageSize' ? 'page size' : 'page number'} must be a whole number from 1 to ${max}.`,
  'list-status': ({ choices }) => `Choose a status from: ${choices}.`,
  'payment-method': ({ choices }) => `Choose a payment method from: ${choices}.`,
  'email-address': () => 'Enter the e-mail address the request is about, e.g. name@example.com.',
  'csv-unreadable': ({ reason }) => `The file could not be read as CSV (${reason}). Export the statement again from the bank.`,
  'csv-heading-missing': ({ columns, firstRow }) =>
    `The file has no heading row with the columns ${columns}.${firstRow ? ` Its first row reads: ${firstRow}.` : ''} Check the mapping (and its separator) against the file.`,
  'csv-date': ({ row, date, format }) => `Row ${row}: the date “${date}” is not in the form ${format}. Check the mapping's date format.`,
  'mapping-text-missing': ({ column }) => `Enter ${mappingColumn(column)}.`,
  'mapping-text-too-long': ({ column, max }) => {
    const what = mappingColumn(column)
    return `${what[0]!.toUpperCase()}${what.slice(1)} is too long (at most ${max} characters).`
  },
  'mapping-delimiter': () => 'Choose how the columns are separated: comma, semicolon or tab.',
  'mapping-date-format': () => 'Choose how the dates are written.',
  'mapping-decimal-separator': () => 'Choose the decimal separator of the amounts: a point or a comma.',
  'mapping-amount-missing': () => 'Enter the heading of the amount column, or of both the money-in and money-out columns.',
  'mapping-amount-twice': () => 'Enter either the amount column or the money-in and money-out columns, not both.',
  'mapping-missing': () => "Choose the bank's column mapping, or describe a new one, to read a CSV statement.",
  'bank-preset': () => 'Choose the bank the statement comes from.',
  'mapping-name-taken': ({ name }) => `A mapping named “${name}” already exists. Choose it from the list, or give the new one another name.`,
  'statement-file-missing': () => 'Choose the statement file exported from the bank (CSV or OFX).',
  'not-a-statement': ({ fileName }) => `“${fileName}” is not a bank statement. Export the statement from the bank as CSV or OFX.`,
  'statement-no-money-in': ({ paymentsOut }) =>
    `The statement lists no money received${Number(paymentsOut) > 0 ? ` (only ${paymentsOut} payments out)` : ''}, so there is nothing to match.`,
  'registration-reference': ({ length }) => `Enter the registration's reference: ${length} letters and digits, e.g. 7KQ2M9XA.`,
  'statement-too-long': ({ count, max }) => `The statement has ${count} lines; import at most ${max} at a time (a shorter period).`,
  'ofx-unreadable': ({ reason }) => `The file could not be read as OFX (${reason}). Export the statement again from the bank.`,
  'ofx-no-statement': () => 'The OFX file holds no bank statement (no STMTRS). Export a bank account statement.',
  'ofx-currency': ({ currency }) => `The statement is of an account kept in ${currency}; only statements of the rand (ZAR) account can be imported.`,
  'ofx-date': ({ transaction, date }) => `Transaction ${transaction}: the date “${date}” is not an OFX date.`,
  'ofx-amount': ({ transaction, amount }) => `Transaction ${transaction}: the amount “${amount}” is not an amount.`,
  'accounting-settings-missing': () =>
    'Set the account code and tax-rate name of each accounting package first (Accounting export settings, a manager’s), so the imports post to the right accounts.',
}

/** How the back office answers a refused staff command: its HTTP status and staff's wording, with the figures it names. */
const BACK_OFFICE_REFUSALS: Record<BackOfficeErrorCode, { status: number; message: (details: Readonly<Record<string, string | number>>) => string }> = {
  'not-found': { status: 404, message: (details) => MISSING_THINGS[details.missing as MissingThing](details) },
  'invalid-input': { status: 400, message: (details) => INPUT_PROBLEMS[details.problem as InputProblem](details) },
  'already-paid': {
    status: 409,
    message: () => 'This registration was paid by card; nothing is outstanding. Pay a second payment back to whoever sent it rather than recording it here.',
  },
  'duplicate-bank-reference': {
    status: 409,
    message: ({ reference, receivedOn }) =>
      `This bank reference was already recorded (registration ${reference}, received ${receivedOn}). A transfer is recorded once.`,
  },
  'event-started': {
    status: 409,
    message: ({ allowed }) =>
      allowed === 'name-and-position'
        ? 'The event has started: only the name and position of a delegate can still be corrected.'
        : 'The event has started; this registration can no longer be changed.',
  },
  'not-retryable': {
    status: 409,
    message: ({ status }) => `Only an e-mail that failed can be sent again; this one is ${status === 'sent' ? 'already sent' : 'still waiting to be sent'}.`,
  },
  'not-uncertain': {
    status: 409,
    message: ({ status }) =>
      `Only an e-mail whose delivery is uncertain can be marked as arrived or sent again; this one is ${status === 'sent' ? 'already sent' : status === 'failed' ? 'failed (use Retry)' : 'waiting to be sent'}. Reload the page to see where it stands.`,
  },
  'already-cancelled': {
    status: 409,
    message: ({ what }) => (what === 'deal' ? 'This deal is cancelled already.' : 'This registration is already cancelled.'),
  },
  'personal-data-erased': {
    status: 409,
    message: ({ whose }) =>
      `The ${whose === 'company' ? 'company’s' : whose === 'delegate' ? 'delegate’s' : whose === 'sponsor-contact' ? 'sponsor contact’s' : 'registrant’s'} e-mail address was erased at their request; there is no one to send it to.`,
  },
  'delegate-not-attending': { status: 409, message: () => 'That delegate is cancelled or no longer on this registration. Reload the page and choose again.' },
  'table-cancelled-in-part': { status: 409, message: () => 'A table is priced as a whole: cancel the whole registration, or substitute delegates instead.' },
  'nothing-to-pay-out': {
    status: 409,
    message: ({ status }) => `This refund is ${status === 'paid-out' ? 'already recorded as paid out' : 'made by card'}; there is nothing to record.`,
  },
  'registration-cancelled': {
    status: 409,
    message: ({ refused }) =>
      refused === 'invoice-correction'
        ? 'This registration has a cancellation: its invoice is corrected by hand.'
        : 'This registration is cancelled: its confirmation is not sent again. The credit note was e-mailed with the cancellation.',
  },
  'no-receipt': { status: 409, message: () => 'There is no receipt to send: the registration is not paid in full yet.' },
  'invoice-up-to-date': { status: 409, message: () => 'The tax invoice already names these company details: correct the details first, then the invoice.' },
  'nothing-owed': {
    status: 409,
    message: ({ what }) =>
      what === 'deal'
        ? 'This deal owes nothing on a tax invoice (it is paid, cancelled or not approved yet), so no reminder was sent.'
        : 'This registration owes nothing on its tax invoice, so no reminder was sent.',
  },
  'unknown-pass': { status: 422, message: () => 'No delegate of this event has this pass code. Check the code, or search by name.' },
  'already-checked-in': { status: 409, message: ({ name, at, byName }) => `${name}: already checked in at ${clockTime(String(at))} by ${byName}.` },
  'not-checked-in': { status: 409, message: ({ name }) => `${name} is not checked in on this day; there is nothing to undo.` },
  'already-left': { status: 409, message: ({ name, at, byName }) => `${name}: already recorded as leaving at ${clockTime(String(at))} by ${byName}.` },
  'left-without-check-in': { status: 409, message: ({ name }) => `${name} is not checked in on this day: check them in before recording that they left.` },
  'not-an-event-day': { status: 422, message: () => 'That is not a day of this event. Choose one of its days.' },
  'pass-cancelled': { status: 409, message: ({ name }) => `Not admitted: ${name}'s registration was cancelled; their pass no longer admits.` },
  'pass-of-another-event': { status: 422, message: ({ name, title }) => `Not admitted here: this is ${name}'s pass for ${title}, another event.` },
  'not-today': {
    status: 409,
    message: ({ day, today }) =>
      `Nothing recorded: this screen was on ${eventDay(String(day))}, but today is ${eventDay(String(today))}. The screen now records today: scan again.`,
  },
  'event-not-started': {
    status: 409,
    message: ({ title, firstDay }) => `Nothing recorded: ${title} starts on ${eventDay(String(firstDay))}. Check-in opens that morning.`,
  },
  'event-over': {
    status: 409,
    message: ({ title, lastDay }) => `Nothing recorded: ${title} ended on ${eventDay(String(lastDay))}. Only a manager may record a past day, with a reason.`,
  },
  'past-day-reason-required': {
    status: 422,
    message: ({ day }) => `Say why ${eventDay(String(day))} is recorded afterwards (for example “signed the paper register”).`,
  },
  'invalid-meeting-link': { status: 422, message: () => 'Paste the meeting’s web address, starting with https://, or leave it empty.' },
  'event-not-ended': { status: 409, message: () => 'This event has not ended yet: certificates are issued after its last day.' },
  'certificate-revoked': { status: 409, message: () => 'This certificate was revoked: it is not sent again.' },
  'certificate-replaced': { status: 409, message: () => 'This certificate was replaced by a newer one: use that one instead.' },
  'cpd-hours-beyond-day': {
    status: 422,
    message: ({ day, hours }) => `${day}'s programme gives at most ${hours} from its first session to its last: enter no more than that.`,
  },
  'statement-row-cells': {
    status: 400,
    message: ({ row, cells, headingCells, content }) =>
      `Row ${row} of the file has ${cells} cells where its heading has ${headingCells}, so its amount cannot be read with certainty: “${content}”. Export the statement again (or put that row's description in quotes); nothing was imported.`,
  },
  'statement-amount-unreadable': {
    status: 400,
    message: ({ row, amount, decimalSeparator }) =>
      `Row ${row}: “${amount}” is not an amount written with a decimal ${decimalSeparator === ',' ? 'comma' : 'point'}. Check the mapping's amount column and decimal separator; nothing was imported.`,
  },
  'statement-balance-broken': {
    status: 400,
    message: ({ row, balanceCents, expectedCents, content }) =>
      `Row ${row}: the bank's balance ${formatRand(Number(balanceCents))} does not follow from the row before it and the amount (${formatRand(Number(expectedCents))} expected): “${content}”. A line is missing or misread, so nothing was imported.`,
  },
  'role-required': {
    status: 403,
    message: ({ role }) =>
      role === 'owner'
        ? 'Refused: this needs the owner role, and your account does not have it. Ask an owner to do it.'
        : 'Refused: this needs the manager or owner role, and your account has the staff role. Ask a manager to do it.',
  },
  'request-pending': { status: 409, message: () => 'A cancellation of this registration is already waiting for a manager’s approval.' },
  'statement-line-settled': { status: 409, message: settledLineMessage },
  'statement-line-unmatched': { status: 409, message: unmatchedLineMessage },
  'not-enough-seats': {
    status: 409,
    message: ({ seatsLeft, seatsWanted }) => `Only ${seatsLeft} of the ${seatsWanted} seats this entry wants are free; it cannot be offered them yet.`,
  },
  'entry-closed': { status: 409, message: ({ state }) => `This entry is ${state}: reload the waiting list to see where it stands.` },
  'split-does-not-add-up': {
    status: 422,
    message: ({ totalCents, lineCents }) =>
      `The parts add up to ${formatRand(Number(totalCents))}; the line is ${formatRand(Number(lineCents))}. Make them add up to the line.`,
  },
  'deal-already-approved': { status: 409, message: () => 'This deal is approved already: its invoice and codes were issued.' },
  'deal-not-approved': { status: 409, message: () => 'This deal is not approved yet, so it has no codes to send.' },
}

/** An event day (YYYY-MM-DD) as staff read it: "Friday 4 July". */
function eventDay(isoDate: string): string {
  return new Intl.DateTimeFormat('en-ZA', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${isoDate}T00:00:00Z`))
}

/** A moment's time of day in Johannesburg ("08:12"); the formatter is made when needed, so public pages' bundles stay without it. */
function clockTime(iso: string): string {
  return new Intl.DateTimeFormat('en-ZA', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: TIME_ZONE }).format(new Date(iso))
}

/** Why a statement line cannot be settled again: recorded, dismissed, or the same money as an earlier file's line. */
function settledLineMessage(details: Readonly<Record<string, string | number>>): string {
  const { state, registrationReference, dismissedBy, reason } = details
  if (state === 'recorded') return `${statementLineName(details)} is already recorded (registration ${registrationReference}).`
  if (state === 'same-as') return `${statementLineName(details)} is ${sameAsWording(details)}; it is not recorded twice.`
  return dismissedBy ? `${statementLineName(details)} was dismissed by ${dismissedBy} (${reason}).` : `${statementLineName(details)} was dismissed meanwhile.`
}

function unmatchedLineMessage(details: Readonly<Record<string, string | number>>): string {
  const { state, registrationReference, registrationReferences } = details
  if (state === 'already-paid')
    return `${statementLineName(details)} names registration ${registrationReference}, which was paid by card; it is not recorded. Pay it back to whoever sent it, then dismiss the line.`
  if (state === 'several-references') return `${statementLineName(details)} names several registrations (${registrationReferences}); assign it by hand.`
  return `${statementLineName(details)} names no registration; assign it by hand.`
}

/** "The line of R 20 677.00 on 2025-02-21": a bank statement's line as staff find it in the file. */
function statementLineName({ amountCents, postedOn }: Readonly<Record<string, string | number | undefined>>): string {
  return `The line of ${formatRand(Number(amountCents))} on ${postedOn}`
}

/** "already recorded on 5 February from march.ofx (registration 7KQ2M9XA)": the earlier file's line a line repeats. */
export function sameAsWording({ earlierPostedOn, fileName, registrationReference }: Readonly<Record<string, string | number | null | undefined>>): string {
  const day = new Intl.DateTimeFormat('en-ZA', { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${earlierPostedOn}T00:00:00Z`))
  return `already ${registrationReference ? 'recorded' : 'imported'} on ${day} from ${fileName}${registrationReference ? ` (registration ${registrationReference})` : ''}`
}

/** A refused staff command in staff's words: the status, the message, and the field it names when one is at fault. */
export function backOfficeRefusal(error: BackOfficeError): { status: number; message: string; field: string | undefined } {
  const refusal = BACK_OFFICE_REFUSALS[error.code]
  return { status: refusal.status, message: refusal.message(error.details), field: error.field }
}

/**
 * Why a ticked bank statement line was not recorded, in staff's words: the line's own refusal names the line; a
 * refusal of the payment it would have recorded is said of that line.
 */
export function statementLineRefusal(refused: { amountCents: number; postedOn: string; error: BackOfficeError | ValidationError }): string {
  const { error } = refused
  if (error.name === 'BackOfficeError') {
    const backOfficeError = error as BackOfficeError
    const { message } = backOfficeRefusal(backOfficeError)
    if (backOfficeError.code === 'statement-line-settled' || backOfficeError.code === 'statement-line-unmatched') return message
    return `${statementLineName({ amountCents: refused.amountCents, postedOn: refused.postedOn })}: ${message}`
  }
  const { body } = validationRefusal(error as ValidationError, 'back-office')
  return `${statementLineName({ amountCents: refused.amountCents, postedOn: refused.postedOn })}: ${Object.values(body.error.fields)[0] ?? body.error.message}`
}

/** The refusal of a post whose intent needs a role the member does not hold, before core's command refuses it too. */
export function roleRefusal(required: 'owner' | 'manager'): { status: number; message: string } {
  const refusal = BACK_OFFICE_REFUSALS['role-required']
  return { status: refusal.status, message: refusal.message({ role: required }) }
}

/** What the Register tab says when a quotation request was refused with `code` (none for an unknown one). */
export function quoteRefusalMessage(code: string | null): string | null {
  if (!code || !Object.hasOwn(REFUSALS, code)) return null
  return REFUSALS[code as RefusalCode].message.replace('{n}', 'the allowed number of')
}
