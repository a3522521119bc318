import type { Kysely } from 'kysely'
import * as z from 'zod/mini'
import type { SiteSettingsForMail } from '../catalog.ts'
import { staffCommand, type CommandOutcome } from '../backoffice/command.ts'
import { wallClock, type BackOfficeContext } from '../backoffice/context.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
import type { Database } from '../db/database.ts'
import { newId } from '../ids.ts'
import { html, multilineHtml } from '../mail/html.ts'
import { mailDocument } from '../mail/layout.ts'
import type { OutgoingMail } from '../mail/outgoing-mail.ts'
import { footerText } from '../mail/registration-mails.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { registrationsOfEvent } from '../registration/event-ids.ts'
import { ownFields, requiredChoice, requiredLine, requiredText } from '../submissions/fields.ts'
import { singleLine } from '../validation/fields.ts'
import { checkInDays, registeredEvent } from './check-in.ts'
import { delegatesQuery, joiningDelegateOf, type JoiningDelegate } from './joining-mails.ts'

const MESSAGE_TOPIC = 'event.message'
/** What `{name}` in a message's subject and text stands for: each delegate's name. */
const NAME_PLACEHOLDER = '{name}'

export const ATTENDANCE_FILTERS = ['all', 'venue', 'online'] as const
export const PAYMENT_FILTERS = ['all', 'paid', 'unpaid'] as const

/** Which of an event's delegates a message goes to. */
export interface MessageFilters {
  attendance: (typeof ATTENDANCE_FILTERS)[number]
  /** `paid`: registrations paid in full; `unpaid`: not paid or part paid. */
  payment: (typeof PAYMENT_FILTERS)[number]
  /** An event day (YYYY-MM-DD): only the delegates who attended it (checked in at the venue or joined online); empty for all. */
  day: string
}

/** A message as staff write it: the event, subject and text (`{name}` for each delegate's name) and the filters. */
const messageFields = {
  eventId: requiredLine(200),
  subject: requiredLine(200),
  body: requiredText(10_000),
  attendance: requiredChoice(ATTENDANCE_FILTERS),
  payment: requiredChoice(PAYMENT_FILTERS),
  day: z.pipe(z.transform(singleLine), z.string()),
}
const delegateMessageSchema = z.pipe(ownFields, z.object(messageFields))

type MessageInput = z.infer<typeof delegateMessageSchema>

/**
 * A message as sent: the previewed message and the number of delegates staff saw it would reach, so a message is never
 * sent to more (or fewer) delegates than staff confirmed.
 */
const confirmedMessageSchema = z.pipe(ownFields, z.object({ ...messageFields, confirmedRecipients: z.pipe(z.transform(singleLine), z.string()) }))

/** The delegates a message with these filters reaches: attending, not erased, their registration not cancelled. */
async function recipientsOf(queries: Kysely<Database>, eventId: string, filters: MessageFilters): Promise<JoiningDelegate[]> {
  let query = delegatesQuery(queries).where(registrationsOfEvent(eventId))
  if (filters.attendance !== 'all') query = query.where('registration_delegates.attendance', '=', filters.attendance)
  if (filters.payment === 'paid') query = query.where('registrations.status', '=', 'paid')
  if (filters.payment === 'unpaid') query = query.where('registrations.status', '<>', 'paid')
  if (filters.day !== '') {
    const day = filters.day
    query = query.where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('check_ins')
            .select('check_ins.id')
            .whereRef('check_ins.delegate_id', '=', 'registration_delegates.id')
            .where('check_ins.event_day', '=', day)
            .where('check_ins.undone_at', 'is', null),
        ),
        eb.exists(
          eb
            .selectFrom('online_attendance')
            .select('online_attendance.delegate_id')
            .whereRef('online_attendance.delegate_id', '=', 'registration_delegates.id')
            .where('online_attendance.event_day', '=', day),
        ),
      ]),
    )
  }
  const rows = await query.orderBy('registrations.created_at').orderBy('registration_delegates.ordinal').execute()
  return rows.map(joiningDelegateOf)
}

/** The message one delegate receives: the placeholders filled with their name. */
function delegateMessageMail(
  message: { subject: string; body: string },
  delegate: Pick<JoiningDelegate, 'name' | 'email'>,
  settings: SiteSettingsForMail,
): OutgoingMail {
  const fill = (text: string) => text.replaceAll(NAME_PLACEHOLDER, delegate.name)
  const subject = fill(message.subject)
  const body = fill(message.body)
  return {
    to: [delegate.email],
    subject,
    text: `${body}\n`,
    html: mailDocument(subject, html`<p>${multilineHtml(body)}</p>`, footerText(settings)),
  }
}

async function checkedFilters(queries: Kysely<Database>, input: MessageInput): Promise<{ title: string; filters: MessageFilters }> {
  const event = await registeredEvent(queries, input.eventId)
  if (!event) throw new BackOfficeError('not-found', { missing: 'event-registrations' })
  if (input.day !== '' && !checkInDays(event.start, event.end).includes(input.day)) {
    throw new BackOfficeError('not-an-event-day', {}, 'day')
  }
  return { title: event.title, filters: { attendance: input.attendance, payment: input.payment, day: input.day } }
}

/** A message's preview: how many delegates it reaches and what the first of them would receive. */
export interface MessagePreview {
  recipientCount: number
  first?: { name: string; subject: string; text: string } | undefined
}

/** Previews a message with the first delegate it reaches (nothing is sent or recorded). */
export async function previewDelegateMessage(context: BackOfficeContext, rawInput: unknown): Promise<MessagePreview> {
  const parsed = delegateMessageSchema.safeParse(rawInput)
  if (!parsed.success) throw new BackOfficeError('invalid-input', { problem: 'message-incomplete' })
  const { filters } = await checkedFilters(context.db.kysely, parsed.data)
  const recipients = await recipientsOf(context.db.kysely, parsed.data.eventId, filters)
  const [first] = recipients
  if (!first) return { recipientCount: 0 }
  const mail = delegateMessageMail(parsed.data, first, await context.catalog.getSettings())
  return { recipientCount: recipients.length, first: { name: first.name, subject: mail.subject, text: mail.text } }
}

/**
 * Sends a message to the event's delegates the filters choose, each their own copy through the outbox; audited and
 * logged. Only once staff confirmed how many it reaches (`confirmedRecipients`, from the preview).
 */
export const sendDelegateMessage = staffCommand(confirmedMessageSchema, async (context, input, actor) => {
  const confirmed = /^\d{1,6}$/.test(input.confirmedRecipients) ? Number(input.confirmedRecipients) : undefined
  if (confirmed === undefined) throw new BackOfficeError('invalid-input', { problem: 'message-not-confirmed' })
  const settings = await context.catalog.getSettings()
  const at = wallClock(context)
  return async (transaction): Promise<CommandOutcome<{ recipientCount: number }>> => {
    const { filters } = await checkedFilters(transaction, input)
    const recipients = await recipientsOf(transaction, input.eventId, filters)
    if (recipients.length === 0) throw new BackOfficeError('invalid-input', { problem: 'no-recipients' })
    // A delegate registered or cancelled since the preview: staff see the new count before anything is sent.
    if (recipients.length !== confirmed) {
      throw new BackOfficeError('invalid-input', { problem: 'message-recipients-changed', confirmed, now: recipients.length })
    }
    for (const delegate of recipients) {
      await enqueueMails(transaction, delegate.registrationId, [{ topic: MESSAGE_TOPIC, mail: delegateMessageMail(input, delegate, settings) }], at)
    }
    await transaction
      .insertInto('delegate_messages')
      .values({
        id: newId(),
        event_id: input.eventId,
        subject: input.subject,
        body: input.body,
        filters_json: JSON.stringify(filters),
        recipient_count: recipients.length,
        sent_at: at.toISOString(),
        sent_by_name: actor.name,
      })
      .execute()
    return {
      result: { recipientCount: recipients.length },
      audit: [
        {
          action: 'delegate-message-sent',
          subjectType: 'event',
          subjectId: input.eventId,
          after: { subject: input.subject, ...filters, recipients: recipients.length },
        },
      ],
      mailQueued: true,
    }
  }
})

/** A sent message as the event's message log lists it. */
export interface SentDelegateMessage {
  subject: string
  filters: MessageFilters
  recipientCount: number
  sentAt: string
  sentByName: string
}

/** The messages sent to an event's delegates, newest first. */
export async function delegateMessagesOf(context: BackOfficeContext, eventId: string): Promise<SentDelegateMessage[]> {
  const rows = await context.db.kysely.selectFrom('delegate_messages').selectAll().where('event_id', '=', eventId).orderBy('sent_at', 'desc').execute()
  return rows.map((row) => ({
    subject: row.subject,
    filters: JSON.parse(row.filters_json) as MessageFilters,
    recipientCount: row.recipient_count,
    sentAt: row.sent_at,
    sentByName: row.sent_by_name,
  }))
}
