import { TIME_ZONE } from '@events/pricing'
import { DateTime } from 'luxon'
import * as z from 'zod/mini'
import { staffCommand, type CommandOutcome } from '../backoffice/command.ts'
import { businessClock, wallClock, type BackOfficeContext } from '../backoffice/context.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
import type { Kysely } from 'kysely'
import type { CoreDatabase, Database } from '../db/database.ts'
import { formatEventDays } from '../mail/dates.ts'
import { eventKeyOf, registrationsOfEvent } from '../registration/event-ids.ts'
import { optionalLine, optionalText, ownFields } from '../submissions/fields.ts'
import { singleLine } from '../validation/fields.ts'
import { checkInDays, registeredEvent, type CheckInScreen } from './check-in.ts'

/** An event's joining instructions as staff wrote them. */
export interface JoiningInstructions {
  venueInstructions: string
  /** The meeting link of every day; empty until set. */
  meetingUrl: string
  /** The meeting link of the days where it differs, by day (YYYY-MM-DD). */
  dayMeetingUrls: Record<string, string>
  updatedAt?: string | undefined
  updatedByName?: string | undefined
}

/** The back office's joining instructions screen of an event: the event, its days, the instructions, who joined online. */
export interface JoiningScreen {
  event: CheckInScreen['event']
  days: string[]
  instructions: JoiningInstructions
  /** How many delegates joined online through their link, by day. */
  joinedOnline: Record<string, number>
}

const NO_INSTRUCTIONS: JoiningInstructions = { venueInstructions: '', meetingUrl: '', dayMeetingUrls: {} }

export async function instructionsOf(queries: Kysely<Database>, eventId: string): Promise<JoiningInstructions> {
  const row = await queries.selectFrom('event_joining').selectAll().where('event_id', '=', eventId).executeTakeFirst()
  if (!row) return NO_INSTRUCTIONS
  return {
    venueInstructions: row.venue_instructions,
    meetingUrl: row.meeting_url,
    dayMeetingUrls: JSON.parse(row.day_meeting_urls) as Record<string, string>,
    updatedAt: row.updated_at,
    updatedByName: row.updated_by_name,
  }
}

/** The joining instructions screen of an event; undefined when the event has no registration. */
export async function joiningScreen(context: BackOfficeContext, eventId: string): Promise<JoiningScreen | undefined> {
  const event = await registeredEvent(context.db.kysely, eventId)
  if (!event) return undefined
  const days = checkInDays(event.start, event.end)
  const joined = await context.db.kysely
    .selectFrom('online_attendance')
    .innerJoin('registration_delegates', 'registration_delegates.id', 'online_attendance.delegate_id')
    .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
    .select((eb) => ['online_attendance.event_day', eb.fn.countAll<number | string>().as('joined')])
    .where('online_attendance.event_day', 'in', days)
    .where(registrationsOfEvent(eventId))
    .groupBy('online_attendance.event_day')
    .execute()
  return {
    event,
    days,
    instructions: await instructionsOf(context.db.kysely, eventId),
    joinedOnline: Object.fromEntries(joined.map((row) => [row.event_day, Number(row.joined)])),
  }
}

/** A meeting link as staff paste it: empty, or a web address on https. */
function checkedMeetingUrl(url: string, field: string): string {
  if (url === '') return ''
  let parsed: URL | undefined
  try {
    parsed = new URL(url)
  } catch {
    parsed = undefined
  }
  if (parsed?.protocol !== 'https:') throw new BackOfficeError('invalid-meeting-link', {}, field)
  return parsed.href
}

const MAX_INSTRUCTIONS_LENGTH = 4000
const MAX_URL_LENGTH = 2000

/** Joining instructions as the form sends them; `dayMeetingUrls` by day, an empty one meaning "as every day". */
const joiningInstructionsSchema = z.pipe(
  ownFields,
  z.object({
    eventId: z.pipe(z.transform(singleLine), z.string().check(z.minLength(1, 'required'))),
    venueInstructions: optionalText(MAX_INSTRUCTIONS_LENGTH),
    meetingUrl: optionalLine(MAX_URL_LENGTH),
    dayMeetingUrls: z.pipe(
      z.transform((value: unknown): Record<string, string> =>
        typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).map(([day, url]) => [day, singleLine(url)])) : {},
      ),
      z.record(z.string(), z.string().check(z.maxLength(MAX_URL_LENGTH, 'too-long'))),
    ),
  }),
)

/** Saves an event's joining instructions: the venue's text, the meeting link, and the days whose link differs. */
export const saveJoiningInstructions = staffCommand(joiningInstructionsSchema, async (context, input, actor) => {
  const at = wallClock(context)
  return async (transaction): Promise<CommandOutcome<JoiningInstructions>> => {
    const event = await registeredEvent(transaction, input.eventId)
    if (!event) throw new BackOfficeError('not-found', { missing: 'event-registrations' })
    const days = checkInDays(event.start, event.end)
    const meetingUrl = checkedMeetingUrl(input.meetingUrl, 'meetingUrl')
    const dayMeetingUrls: Record<string, string> = {}
    for (const [day, url] of Object.entries(input.dayMeetingUrls)) {
      if (!days.includes(day)) throw new BackOfficeError('not-an-event-day')
      const checked = checkedMeetingUrl(url, `dayMeetingUrls.${day}`)
      if (checked !== '') dayMeetingUrls[day] = checked
    }
    const before = await instructionsOf(transaction, input.eventId)
    const row = {
      venue_instructions: input.venueInstructions,
      meeting_url: meetingUrl,
      day_meeting_urls: JSON.stringify(dayMeetingUrls),
      updated_at: at.toISOString(),
      updated_by_name: actor.name,
    }
    await transaction
      .insertInto('event_joining')
      .values({ event_id: input.eventId, ...row })
      .onConflict((conflict) => conflict.column('event_id').doUpdateSet(row))
      .execute()
    const after = { venueInstructions: input.venueInstructions, meetingUrl, dayMeetingUrls }
    return {
      result: { ...after, updatedAt: row.updated_at, updatedByName: actor.name },
      audit: [
        {
          action: 'joining-instructions-saved',
          subjectType: 'event',
          subjectId: input.eventId,
          before: { venueInstructions: before.venueInstructions, meetingUrl: before.meetingUrl, dayMeetingUrls: before.dayMeetingUrls },
          after,
        },
      ],
    }
  }
})

/** What a delegate's personal join link shows before it sends them on. */
export interface JoinPage {
  name: string
  eventTitle: string
  days: string
  /** Today, when the event runs today (YYYY-MM-DD); joining then counts as attending that day. */
  today?: string | undefined
  /** False until staff have set the meeting link (of today, or of the first day before the event). */
  meetingReady: boolean
}

async function joinFacts(context: { db: CoreDatabase; siteNow?: (() => Date) | undefined; now?: (() => Date) | undefined }, token: string) {
  const row = await context.db.kysely
    .selectFrom('delegate_passes')
    .innerJoin('registration_delegates', 'registration_delegates.id', 'delegate_passes.delegate_id')
    .innerJoin('registrations', 'registrations.id', 'delegate_passes.registration_id')
    .select([
      'registration_delegates.id',
      'registration_delegates.name',
      'registrations.event_id',
      'registrations.event_slug',
      'registrations.event_title',
      'registrations.event_start',
      'registrations.event_end',
    ])
    .where('delegate_passes.token', '=', token)
    .where('registration_delegates.cancellation_id', 'is', null)
    .where('registrations.cancelled_at', 'is', null)
    .executeTakeFirst()
  if (!row) return undefined
  const days = checkInDays(row.event_start, row.event_end)
  const businessDay = DateTime.fromJSDate(businessClock(context as BackOfficeContext), { zone: TIME_ZONE }).toISODate()!
  const today = days.includes(businessDay) ? businessDay : undefined
  const instructions = await instructionsOf(context.db.kysely, eventKeyOf(row))
  const meetingUrl = instructions.dayMeetingUrls[today ?? days[0]!] ?? instructions.meetingUrl
  return { row, days, today, meetingUrl }
}

/** The page of a delegate's personal join link; undefined for an unknown token or a cancelled delegate. */
export async function joinPage(context: { db: CoreDatabase; siteNow?: (() => Date) | undefined }, token: string): Promise<JoinPage | undefined> {
  const facts = await joinFacts(context, token)
  if (!facts) return undefined
  return {
    name: facts.row.name,
    eventTitle: facts.row.event_title,
    days: formatEventDays(facts.row.event_start, facts.row.event_end),
    today: facts.today,
    meetingReady: facts.meetingUrl !== '',
  }
}

/**
 * A delegate joins through their personal link: on an event day it records that they attended online that day (the
 * first join of the day kept), then answers the meeting link to send them on to; `meetingUrl` is empty while staff
 * have not set one (nothing is recorded then). Undefined for an unknown token or a cancelled delegate.
 */
export async function joinMeeting(
  context: { db: CoreDatabase; siteNow?: (() => Date) | undefined; now?: (() => Date) | undefined },
  token: string,
): Promise<{ meetingUrl: string; recordedDay?: string | undefined } | undefined> {
  const facts = await joinFacts(context, token)
  if (!facts) return undefined
  if (facts.meetingUrl === '' || !facts.today) return { meetingUrl: facts.meetingUrl }
  const joinedAt = wallClock(context).toISOString()
  await context.db.writeStatement((queries) =>
    queries
      .insertInto('online_attendance')
      .values({ delegate_id: facts.row.id, event_day: facts.today!, joined_at: joinedAt })
      .onConflict((conflict) => conflict.columns(['delegate_id', 'event_day']).doNothing())
      .execute(),
  )
  return { meetingUrl: facts.meetingUrl, recordedDay: facts.today }
}
