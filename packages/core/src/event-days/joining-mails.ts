import { DateTime } from 'luxon'
import type { Kysely, Transaction } from 'kysely'
import * as z from 'zod/mini'
import type { SiteSettingsForMail } from '../catalog.ts'
import { staffCommand, type CommandOutcome } from '../backoffice/command.ts'
import { businessClock, wallClock, type BackOfficeContext } from '../backoffice/context.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
import { dayIn, referenceField } from '../backoffice/fields.ts'
import type { Database } from '../db/database.ts'
import { formatDate, formatEventDates } from '../mail/dates.ts'
import { html, multilineHtml } from '../mail/html.ts'
import { detailsTable, detailsText, mailDocument } from '../mail/layout.ts'
import type { OutgoingMail } from '../mail/outgoing-mail.ts'
import { footerText, passesSection, passImage } from '../mail/registration-mails.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { startRecurringRound } from '../recurring-round.ts'
import { eventKeyOf } from '../registration/event-ids.ts'
import { normaliseReference } from '../registration/reference.ts'
import type { SeatKind } from '../seats/seats.ts'
import { ownFields } from '../submissions/fields.ts'
import { checkInDays } from './check-in.ts'
import { instructionsOf } from './joining.ts'
import { passForMail } from './passes.ts'

const TIME_ZONE = 'Africa/Johannesburg'
/** How many days before an event its delegates get their joining e-mail when JOINING_MAIL_DAYS_BEFORE is not set. */
export const DEFAULT_JOINING_MAIL_DAYS_BEFORE = 3
/** The hour (Johannesburg) from which a day's joining e-mails go: in the morning, not in the night. */
const JOINING_MAIL_HOUR = 7
const JOINING_MAIL_TOPIC = 'event.joining'
const BEFORE_EVENT = 'before-event'
const EVE = 'eve-'

/** What the joining e-mails need besides the back office's context: how many days before the event the first goes. */
export interface JoiningMailContext extends BackOfficeContext {
  /** JOINING_MAIL_DAYS_BEFORE; 3 when unset. */
  joiningMailDaysBefore?: number | undefined
}

function shiftDay(isoDay: string, days: number): string {
  return DateTime.fromISO(isoDay, { zone: TIME_ZONE }).plus({ days }).toISODate()!
}

/**
 * The moments whose joining e-mail is due at `at` for an event on `days`: the set number of days before it (until
 * the day before its first day, whose own e-mail then says it all) and the day before each event day, each from
 * JOINING_MAIL_HOUR in the morning.
 */
export function joiningMomentsDue(days: readonly string[], at: Date, daysBefore: number): string[] {
  const local = DateTime.fromJSDate(at, { zone: TIME_ZONE })
  if (local.hour < JOINING_MAIL_HOUR || days.length === 0) return []
  const today = local.toISODate()!
  const dayBeforeFirst = shiftDay(days[0]!, -1)
  const moments: string[] = []
  if (today >= shiftDay(days[0]!, -daysBefore) && today < dayBeforeFirst) moments.push(BEFORE_EVENT)
  const tomorrow = shiftDay(today, 1)
  if (days.includes(tomorrow)) moments.push(EVE + tomorrow)
  return moments
}

/** A delegate who may be written to about an event: not cancelled, their registration not cancelled, not erased. */
export interface JoiningDelegate {
  delegateId: string
  ordinal: number
  name: string
  email: string
  registrationId: string
  reference: string
  eventId: string
  eventTitle: string
  eventStart: string
  eventEnd: string
  venueName: string
  venueAddress: string
  attendance: SeatKind
  passCode: string
  passToken: string
}

/** The delegates who may be written to (see JoiningDelegate), with their registration and pass; the callers narrow it. */
export function delegatesQuery(queries: Kysely<Database>) {
  return queries
    .selectFrom('registration_delegates')
    .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
    .innerJoin('delegate_passes', 'delegate_passes.delegate_id', 'registration_delegates.id')
    .select([
      'registration_delegates.id as delegate_id',
      'registration_delegates.ordinal',
      'registration_delegates.name',
      'registration_delegates.email',
      'registrations.id as registration_id',
      'registrations.reference',
      'registrations.event_id',
      'registrations.event_slug',
      'registrations.event_title',
      'registrations.event_start',
      'registrations.event_end',
      'registrations.venue_name',
      'registrations.venue_address',
      'registration_delegates.attendance',
      'delegate_passes.code',
      'delegate_passes.token',
    ])
    .where('registration_delegates.cancellation_id', 'is', null)
    .where('registration_delegates.email', '<>', '')
    .where('registrations.cancelled_at', 'is', null)
}

type DelegateRow = Awaited<ReturnType<ReturnType<typeof delegatesQuery>['execute']>>[number]

export function joiningDelegateOf(row: DelegateRow): JoiningDelegate {
  return {
    delegateId: row.delegate_id,
    ordinal: row.ordinal,
    name: row.name,
    email: row.email,
    registrationId: row.registration_id,
    reference: row.reference,
    eventId: eventKeyOf(row),
    eventTitle: row.event_title,
    eventStart: row.event_start,
    eventEnd: row.event_end,
    venueName: row.venue_name,
    venueAddress: row.venue_address,
    attendance: row.attendance,
    passCode: row.code,
    passToken: row.token,
  }
}

/** The joining e-mail of a delegate: venue delegates the venue, its instructions and their pass; online delegates their personal join link. */
function joiningMail(options: {
  delegate: JoiningDelegate
  moment: string | undefined
  venueInstructions: string
  settings: SiteSettingsForMail
  links: BackOfficeContext['links']
}): OutgoingMail {
  const { delegate, settings, links } = options
  const eveDay = options.moment?.startsWith(EVE) ? options.moment.slice(EVE.length) : undefined
  const subject = eveDay
    ? `Tomorrow, ${formatDate(DateTime.fromISO(eveDay, { zone: TIME_ZONE }).toJSDate())}: ${delegate.eventTitle}`
    : `Joining instructions: ${delegate.eventTitle}`
  const rows: Array<[string, string]> = [
    ['Event', delegate.eventTitle],
    ['Dates', formatEventDates(delegate.eventStart, delegate.eventEnd)],
    ['Reference', delegate.reference],
  ]
  const greeting = `Dear ${delegate.name},`
  if (delegate.attendance === 'online') {
    rows.push(['Attendance', 'Online'])
    const joinUrl = links.delegateJoin(delegate.passToken)
    const how =
      'Join each day through your personal link below. It is yours alone: it records your attendance for your certificate and takes you on to the meeting.'
    return {
      to: [delegate.email],
      subject,
      text: [greeting, detailsText(rows), how, `Your personal join link:\n${joinUrl}`].join('\n\n') + '\n',
      html: mailDocument(
        subject,
        html`<p>${greeting}</p>
          ${detailsTable(rows)}
          <p>${how}</p>
          <p><a href="${joinUrl}">Join the event</a><br />${joinUrl}</p>`,
        footerText(settings),
      ),
    }
  }
  rows.push(['Venue', [delegate.venueName, delegate.venueAddress].filter((part) => part !== '').join(', ')])
  const pass = passForMail(links, { code: delegate.passCode, token: delegate.passToken }, delegate.ordinal)
  const passes = passesSection([{ pass }])
  const instructions = options.venueInstructions
  return {
    to: [delegate.email],
    subject,
    text: [greeting, detailsText(rows), ...(instructions ? [instructions] : []), passes.text].join('\n\n') + '\n',
    html: mailDocument(
      subject,
      html`<p>${greeting}</p>
        ${detailsTable(rows)}${instructions ? html`<p>${multilineHtml(instructions)}</p>` : html``}${passes.html}`,
      footerText(settings),
    ),
    attachments: [passImage(pass)],
  }
}

async function queueJoiningMail(
  context: BackOfficeContext,
  transaction: Transaction<Database>,
  delegate: JoiningDelegate,
  moment: string | undefined,
  settings: SiteSettingsForMail,
  at: Date,
): Promise<void> {
  const instructions = await instructionsOf(transaction, delegate.eventId)
  const mail = joiningMail({ delegate, moment, venueInstructions: instructions.venueInstructions, settings, links: context.links })
  await enqueueMails(transaction, delegate.registrationId, [{ topic: JOINING_MAIL_TOPIC, mail }], at)
}

/**
 * Queues the joining e-mails due at the business clock (SITE_DATE's): each delegate of an upcoming event gets one the
 * set number of days before it and one the day before each event day, each once however often this runs and on
 * however many instances (the joining_mails key). Answers how many were queued.
 */
export async function sendDueJoiningMails(context: JoiningMailContext): Promise<number> {
  const now = businessClock(context)
  const daysBefore = context.joiningMailDaysBefore ?? DEFAULT_JOINING_MAIL_DAYS_BEFORE
  const today = dayIn(now)
  const rows = await delegatesQuery(context.db.kysely)
    .where('registrations.event_end', '>', now.toISOString())
    .where(
      'registrations.event_start',
      '<',
      DateTime.fromJSDate(now)
        .plus({ days: daysBefore + 1 })
        .toISO()!,
    )
    .orderBy('registrations.created_at')
    .orderBy('registration_delegates.ordinal')
    .execute()
  if (rows.length === 0) return 0
  const settings = await context.catalog.getSettings()
  const at = wallClock(context)
  let queued = 0
  for (const row of rows) {
    const delegate = joiningDelegateOf(row)
    for (const moment of joiningMomentsDue(checkInDays(delegate.eventStart, delegate.eventEnd), now, daysBefore)) {
      const sent = await context.db.writeTransaction(async (transaction) => {
        const recorded = await transaction
          .insertInto('joining_mails')
          .values({ delegate_id: delegate.delegateId, moment, registration_id: delegate.registrationId, business_day: today, created_at: at.toISOString() })
          .onConflict((conflict) => conflict.columns(['delegate_id', 'moment']).doNothing())
          .returning('delegate_id')
          .executeTakeFirst()
        if (!recorded) return false
        await queueJoiningMail(context, transaction, delegate, moment, settings, at)
        return true
      })
      if (sent) queued++
    }
  }
  return queued
}

/** How often the joining e-mails due are looked for: hourly, so a day's go out early in its morning. */
const JOINING_MAIL_INTERVAL_MS = 60 * 60 * 1000

/** Looks for the joining e-mails due now and then every `intervalMs` in the background, until stopped. */
export function startJoiningMails(options: { context: JoiningMailContext; onQueued: () => void; log: (line: string) => void; intervalMs?: number }): {
  stop(): Promise<void>
} {
  return startRecurringRound(
    'joining e-mails',
    async () => {
      if ((await sendDueJoiningMails(options.context)) > 0) options.onQueued()
    },
    { intervalMs: options.intervalMs ?? JOINING_MAIL_INTERVAL_MS, log: options.log },
  )
}

/** A joining e-mail sent automatically, as the registration's back-office page lists it. */
export interface SentJoiningMail {
  delegateName: string
  ordinal: number
  /** `before-event`, or the event day (YYYY-MM-DD) whose eve it was sent on. */
  moment: string
  businessDay: string
}

/** The joining e-mails a registration's delegates were sent automatically, oldest first. */
export async function joiningMailsOf(context: BackOfficeContext, reference: string): Promise<SentJoiningMail[]> {
  const rows = await context.db.kysely
    .selectFrom('joining_mails')
    .innerJoin('registrations', 'registrations.id', 'joining_mails.registration_id')
    .innerJoin('registration_delegates', 'registration_delegates.id', 'joining_mails.delegate_id')
    .select(['registration_delegates.name', 'registration_delegates.ordinal', 'joining_mails.moment', 'joining_mails.business_day'])
    .where('registrations.reference', '=', normaliseReference(reference) ?? '')
    .orderBy('joining_mails.created_at')
    .orderBy('registration_delegates.ordinal')
    .execute()
  return rows.map((row) => ({
    delegateName: row.name,
    ordinal: row.ordinal,
    moment: row.moment.startsWith(EVE) ? row.moment.slice(EVE.length) : row.moment,
    businessDay: row.business_day,
  }))
}

/** The delegates of a registration who can be sent a joining e-mail (attending, not erased), by their place in it. */
export async function joiningRecipientsOf(context: BackOfficeContext, reference: string): Promise<Array<{ ordinal: number; name: string }>> {
  const rows = await delegatesQuery(context.db.kysely)
    .where('registrations.reference', '=', normaliseReference(reference) ?? '')
    .orderBy('registration_delegates.ordinal')
    .execute()
  return rows.map((row) => ({ ordinal: row.ordinal, name: row.name }))
}

/** What staff's "resend joining e-mail" was given: the registration's reference and the delegate's place in it. */
const resendJoiningMailSchema = z.pipe(
  ownFields,
  z.object({
    reference: referenceField,
    ordinal: z.pipe(
      z.transform((value: unknown) => (typeof value === 'number' ? value : /^\d{1,3}$/.test(String(value ?? '').trim()) ? Number(value) : Number.NaN)),
      z.number('invalid-delegate').check(z.int('invalid-delegate'), z.minimum(0, 'invalid-delegate')),
    ),
  }),
)

/** Staff's "resend joining e-mail": a delegate's joining e-mail (venue and pass, or join link) sent again at once, audited. */
export const resendJoiningMail = staffCommand(resendJoiningMailSchema, async (context, input) => {
  const settings = await context.catalog.getSettings()
  const at = wallClock(context)
  const reference = normaliseReference(input.reference) ?? ''
  return async (transaction): Promise<CommandOutcome<{ reference: string; name: string }>> => {
    const registration = await transaction.selectFrom('registrations').select(['id', 'cancelled_at']).where('reference', '=', reference).executeTakeFirst()
    if (!registration) throw new BackOfficeError('not-found', { missing: 'registration', reference: input.reference })
    const row = await delegatesQuery(transaction)
      .where('registrations.id', '=', registration.id)
      .where('registration_delegates.ordinal', '=', input.ordinal)
      .executeTakeFirst()
    if (!row) {
      throw new BackOfficeError('not-found', { missing: 'reachable-delegate', reference })
    }
    const delegate = joiningDelegateOf(row)
    await queueJoiningMail(context, transaction, delegate, undefined, settings, at)
    return {
      result: { reference, name: delegate.name },
      audit: [
        {
          action: 'joining-mail-resent',
          subjectType: 'registration',
          subjectId: reference,
          after: { delegate: delegate.name, attendance: delegate.attendance },
        },
      ],
      mailQueued: true,
    }
  }
})
