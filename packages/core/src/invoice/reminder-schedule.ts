import { DateTime } from 'luxon'
import { TIME_ZONE } from '@events/pricing'
import type { SiteSettingsForMail } from '../catalog.ts'
import { dayIn } from '../backoffice/fields.ts'
import type { PaymentReminderKind } from '../db/tables/payment-reminders.ts'

/** The second reminder goes this many days before the event starts. */
const DAYS_BEFORE_EVENT_REMINDER = 7

/** A YYYY-MM-DD day at its start in Johannesburg. */
export function reminderDay(isoDate: string): DateTime {
  return DateTime.fromISO(isoDate, { zone: TIME_ZONE })
}

/** Whole days from `from` to `to` (both YYYY-MM-DD): South Africa keeps no daylight saving time. */
function daysBetween(from: string, to: string): number {
  return Math.round(reminderDay(to).diff(reminderDay(from), 'days').days)
}

/** When an invoice issued at `issuedAt` is due (its date plus the payment terms), and how far past it `today` is. */
export function dueDateOf(
  issuedAt: string,
  settings: Pick<SiteSettingsForMail, 'paymentTermsDays'>,
  today: string,
): { issuedOn: string; dueOn: string; daysOverdue: number } {
  const issuedOn = dayIn(new Date(issuedAt))
  const dueOn = reminderDay(issuedOn).plus({ days: settings.paymentTermsDays }).toISODate()!
  return { issuedOn, dueOn, daysOverdue: daysBetween(dueOn, today) }
}

/** A reminder already sent: its kind and the business day it went on. */
export interface SentReminder {
  kind: PaymentReminderKind
  businessDay: string
}

/**
 * Which automatic reminder an unpaid invoice is due on `today`, given the kinds it already had; undefined for none:
 * once past its due date, then once more a week before the event (on a later day than the first).
 */
export function reminderDue(debt: { daysOverdue: number; eventStart: string }, today: string, sent: readonly SentReminder[]): PaymentReminderKind | undefined {
  if (debt.daysOverdue <= 0) return undefined
  const overdue = sent.find((reminder) => reminder.kind === 'overdue')
  if (!overdue) return 'overdue'
  const eventDay = dayIn(new Date(debt.eventStart))
  const weekBefore = daysBetween(today, eventDay) <= DAYS_BEFORE_EVENT_REMINDER && daysBetween(today, eventDay) >= 0
  // The second reminder comes on a later day than the first, never in the same breath.
  if (weekBefore && overdue.businessDay < today && !sent.some((reminder) => reminder.kind === 'before-event')) return 'before-event'
  return undefined
}

/** The last words of every payment reminder. */
export const REMINDER_CLOSING = 'If you have paid in the last few days, thank you, and please ignore this reminder. Questions? Reply to this e-mail.'

/** The footer of every payment reminder: the company's name and how to reach it. */
export function reminderFooter(settings: SiteSettingsForMail): string {
  return [settings.siteName, settings.email, ...settings.phones].filter((part) => part !== '').join(' · ')
}
