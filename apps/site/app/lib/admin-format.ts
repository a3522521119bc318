import type { EventSeatFigures } from '@events/core'
// How the back office words the core's codes and times, in one place for every /admin screen.
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '@events/core/choices'
import type { PaymentReminderKind, StatementLine, StatementLineKind } from '@events/core'
import { formatRand, TIME_ZONE } from '@events/pricing'

const timeFormat = new Intl.DateTimeFormat('en-ZA', { dateStyle: 'medium', timeStyle: 'medium', timeZone: TIME_ZONE })
const minuteFormat = new Intl.DateTimeFormat('en-ZA', { dateStyle: 'medium', timeStyle: 'short', timeZone: TIME_ZONE })
const dayFormat = new Intl.DateTimeFormat('en-ZA', { dateStyle: 'medium', timeZone: TIME_ZONE })

/** A moment as South African staff read it, e.g. "24 Nov 2026, 10:15:02". */
export function formatAdminTime(iso: string): string {
  return timeFormat.format(new Date(iso))
}

/** A moment to the minute, where the seconds do not matter (enquiries, imports), e.g. "24 Nov 2026, 10:15". */
export function formatAdminMinute(iso: string): string {
  return minuteFormat.format(new Date(iso))
}

const clockFormat = new Intl.DateTimeFormat('en-ZA', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: TIME_ZONE })

/** A moment's time of day in Johannesburg, as the door reads it: "08:12". */
export function formatAdminClock(iso: string): string {
  return clockFormat.format(new Date(iso))
}

const isoDayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' })

/** A moment's day in Johannesburg as a date field takes it, e.g. "2025-07-03". */
export function isoDayOf(iso: string): string {
  return isoDayFormat.format(new Date(iso))
}

/** A moment's day in Johannesburg, e.g. "3 Jul 2025". */
export function formatAdminDay(iso: string): string {
  return dayFormat.format(new Date(iso))
}

/** A payment reminder as a registration's or a deal's page lists it: "3 Jul 2025: R 20 677.00 owed, past the due date". */
export function paymentReminderText(reminder: { kind: PaymentReminderKind; businessDay: string; outstandingCents: number; sentByName: string | null }): string {
  const why =
    reminder.kind === 'overdue'
      ? 'past the due date'
      : reminder.kind === 'before-event'
        ? 'a week before the event'
        : `sent by ${reminder.sentByName ?? 'staff'}`
  return `${formatAdminDay(reminder.businessDay)}: ${formatRand(reminder.outstandingCents)} owed, ${why}`
}

const REGISTRATION_STATUS_NAMES: Record<string, string> = {
  'awaiting-payment': 'Awaiting payment',
  'part-paid': 'Part paid',
  paid: 'Paid',
  'part-cancelled': 'Part-cancelled',
  cancelled: 'Cancelled',
}

/** A registration's status in words (a payment status, or a filter's Cancelled and Part-cancelled). */
export function registrationStatusName(status: string): string {
  return REGISTRATION_STATUS_NAMES[status] ?? status
}

/**
 * Where a registration stands, in words: "Cancelled" once every delegate is, "Part-cancelled, paid" when some are,
 * else its payment status. A cancelled registration is never shown as paid.
 */
export function registrationStandingName(registration: { status: string; cancelledAt: string | null; partCancelled: boolean }): string {
  if (registration.cancelledAt !== null) return 'Cancelled'
  const payment = registrationStatusName(registration.status)
  return registration.partCancelled ? `Part-cancelled, ${payment.toLowerCase()}` : payment
}

/** A registration's payment method in words, as the registration form and the e-mails word it. */
export function paymentMethodName(method: PaymentMethod): string {
  return PAYMENT_METHOD_LABELS[method]
}

const STATEMENT_LINE_NAMES: Record<StatementLineKind, string> = {
  invoice: 'Tax invoice',
  'credit-note': 'Credit note',
  'bank-transfer': 'Bank transfer received',
  'card-payment': 'Card payment received',
  'card-refund': 'Refunded to the card',
  'refund-paid-out': 'Refund paid out by bank transfer',
  'surplus-paid-out': 'Surplus paid back by bank transfer',
}

/** A statement line in words: what it is, with its document's number or the bank's reference. */
export function statementLineName(line: Pick<StatementLine, 'kind' | 'reference'>): string {
  const name = STATEMENT_LINE_NAMES[line.kind]
  if (line.reference === '') return name
  return line.kind === 'invoice' || line.kind === 'credit-note' ? `${name} ${line.reference}` : `${name} (${line.reference})`
}

const OUTBOX_STATUS_NAMES: Record<string, string> = {
  pending: 'Waiting to be sent',
  sending: 'Being sent',
  sent: 'Sent',
  failed: 'Failed',
  uncertain: 'Not known whether it arrived',
}

/** Where an e-mail is in the outbox, in words. */
export function outboxStatusName(status: string): string {
  return OUTBOX_STATUS_NAMES[status] ?? status
}

const MAIL_TOPIC_NAMES: Record<string, string> = {
  'registration.registrant': 'Confirmation to the registrant',
  'registration.organiser': 'New registration, to the organiser',
  'registration.delegate': 'Notice to a delegate',
  'registration.self-service': 'Change asked from the private link',
  'payment.receipt': 'Payment receipt',
  'payment.receipt-again': 'Payment receipt, sent again',
  'payment.part-payment': 'Part payment acknowledged',
  'payment.card-refund': 'Card refund made',
  'payment.reminder': 'Payment reminder',
  'payment.problem': 'Payment problem, to the organiser',
  'cancellation.credit-note': 'Cancellation and credit note',
  'invoice.corrected': 'Corrected tax invoice',
  'statement.sent': 'Statement of account',
  'event.joining': 'Joining instructions, to a delegate',
  'event.message': 'Message to the delegates',
  certificate: 'Certificate of attendance',
  'sponsorship-codes': 'Sponsorship codes, to the sponsor',
  'sponsorship-invoice': 'Sponsorship invoice, to the sponsor (codes follow payment)',
  'sponsorship-credit-note': 'Sponsorship cancelled, credit note to the sponsor',
  'sponsorship-payment-reminder': 'Payment reminder, to the sponsor',
  'waiting-list.place': 'Waiting-list place',
  'waiting-list.offer': 'Waiting-list offer of seats',
  'waiting-list.expired': 'Waiting-list offer expired',
  'contact.organiser': 'Enquiry, to the organiser',
  'contact.acknowledgement': 'Enquiry acknowledgement',
  'training.organiser': 'Training request, to the organiser',
  'training.acknowledgement': 'Training request acknowledgement',
  'enquiry.reply': 'Reply to an enquiry',
  'staff-invitation': 'Back-office invitation',
  'staff-password-reset': 'Back-office password reset',
  'staff-sign-in-failures': 'Failed sign-ins, to the account holder',
  'staff-code-failures': 'Wrong two-factor codes, to the account holder',
  'staff-new-device': 'Sign-in from a new browser, to the account holder',
}

/** What kind of e-mail an outbox topic is, in words. */
export function mailTopicName(topic: string): string {
  return MAIL_TOPIC_NAMES[topic] ?? topic
}

/** An audit log action in words: `registration-payment-recorded` reads "Registration payment recorded". */
export function auditActionName(action: string): string {
  const words = action.replace(/-/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

// The statuses audit entries record (registrations, e-mails, refunds, enquiries), in words.
const AUDIT_STATUS_WORDS: Record<string, string> = {
  ...REGISTRATION_STATUS_NAMES,
  ...OUTBOX_STATUS_NAMES,
  succeeded: 'Refunded to the card',
  refused: 'Refused by the card provider',
  'awaiting-payout': 'To be paid out by bank transfer',
  'paid-out': 'Paid out by bank transfer',
  new: 'New',
  'in-progress': 'In progress',
  closed: 'Closed',
}

// A field name of an audit entry in words: `owedCents` reads "owed", `bankReference` "bank reference".
function auditFieldName(key: string): string {
  return key
    .replace(/Cents$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
}

function auditValueText(key: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return 'none'
  if (typeof value === 'number' && key.endsWith('Cents')) return formatRand(value)
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (typeof value === 'string' && key === 'status') return AUDIT_STATUS_WORDS[value] ?? value
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((item) => auditValueText('', item)).join(', ')
  if (typeof value === 'object') return `(${auditDetailsText(value)})`
  return String(value)
}

/**
 * What an audit entry's before or after says, in words and rands for staff rather than JSON in cents:
 * `{ status: 'part-paid', paidCents: 67700 }` reads "status: Part paid; paid: R 677.00".
 */
export function auditDetailsText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value !== 'object' || Array.isArray(value)) return auditValueText('', value)
  return Object.entries(value)
    .map(([key, item]) => `${auditFieldName(key)}: ${auditValueText(key, item)}`)
    .join('; ')
}

/** "180 / 200 at the venue; 12 online (no limit)": the seats an event's delegates take against its capacities. */
export function seatsTakenText(seats: EventSeatFigures): string {
  const part = ({ taken, capacity }: { taken: number; capacity: number | null }, where: string) =>
    capacity === null ? `${taken} ${where} (no limit)` : `${taken} / ${capacity} ${where}`
  return `${part(seats.venue, 'at the venue')}; ${part(seats.online, 'online')}`
}
