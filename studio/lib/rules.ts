// The content rules, each written once over plain documents: the studio runs them as document validation
// (schemaRules.ts) and `pnpm content:validate` runs them over an NDJSON dataset (contentValidation.ts).
import { delegateCap, formatRand, isOptionKey, randsToCents } from '@events/pricing'
import { dateInEventTimeZone, isAfter } from './dates.ts'
import { checkRedirect, sitePaths, type EventAddress } from './redirects.ts'

/** Any document of the dataset, as stored. */
export type ContentDocument = { _id: string; _type: string; [field: string]: unknown }

/** Finds another document by its id: a referenced one, or the site settings. */
export type Lookup = (id: string) => ContentDocument | undefined

/** The documents of the types a rule needs in full (a redirect's target may be any event or page). */
export type TypeLookup = (type: string) => ContentDocument[]

/** The types a document's rules read with a TypeLookup. */
export const TYPES_READ_BY_RULES: Record<string, string[]> = { redirect: ['event', 'page', 'redirect'] }

export type Level = 'error' | 'warning'

/** A rule of one field of a document type; `check` returns one message per problem, none when the field is right. */
export interface FieldRule {
  field: string
  level: Level
  check: (document: ContentDocument, lookup: Lookup, ofType: TypeLookup) => string[]
}

/** The tabs an event page can show. */
export type EventTab = 'overview' | 'agenda' | 'register' | 'speakers' | 'sponsor'

export const MAX_VAT_RATE = 0.3

type Reference = { _ref?: string }
type AgendaDay = { _key?: string; label?: string; date?: string; sessions?: Reference[] }
type EventFields = {
  kind?: string
  start?: string
  end?: string
  registrationClosesAt?: string
  tabs?: string[]
  agendaDays?: AgendaDay[]
  speakers?: Reference[]
  priceOptions?: Reference[]
  sponsorPackages?: Reference[]
}
/** The fields of a price option the rules look at. */
export type PriceOptionFields = { _id?: string; key?: string; amount?: number; earlyBirdUntil?: string }
/** The fields of an agenda session the rules look at. */
export type SessionFields = { _id?: string; title?: string; start?: string; end?: string; speakers?: Reference[]; speaker?: string }

const fields = <T>(document: ContentDocument) => document as unknown as T
const problem = (message: string | undefined): string[] => (message === undefined ? [] : [message])

function resolve<T>(references: Reference[] | undefined, lookup: Lookup): T[] {
  return (references ?? []).flatMap((reference) => {
    const document = reference._ref === undefined ? undefined : lookup(reference._ref)
    return document === undefined ? [] : [document as unknown as T]
  })
}

// Times of day ---------------------------------------------------------------------------------------------

const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/

/** Minutes after midnight of an "HH:mm" time, or undefined when it is not one. */
export function minutesOfDay(time: string | undefined): number | undefined {
  const match = TIME_OF_DAY.exec(time ?? '')
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined
}

/** Why a session time is not a 24-hour "HH:mm" time, or undefined. */
export function checkTimeOfDay(time: string | undefined): string | undefined {
  if (time === undefined) return undefined
  return minutesOfDay(time) === undefined ? `"${time}" is not a time; use 24-hour HH:mm, e.g. 07:30` : undefined
}

/** Why a session's end is wrong, or undefined: it must come after the start. */
export function checkSessionEnd(session: SessionFields): string | undefined {
  const start = minutesOfDay(session.start)
  const end = minutesOfDay(session.end)
  if (start === undefined || end === undefined) return undefined
  return end > start ? undefined : `The session must end after it starts (${session.start})`
}

const sessionName = (session: SessionFields) => `${session.start ?? '?'} ${session.title ?? session._id ?? ''}`.trim()

/** A warning when a session names listed speakers and another presenter, which the agenda does not show. */
export function checkOtherPresenter(session: SessionFields): string | undefined {
  return (session.speakers ?? []).length > 0 && session.speaker
    ? `The agenda shows the listed speakers; "${session.speaker}" is not shown. Clear one of them`
    : undefined
}

/** Warnings for sessions presented by speakers who are not on the event's Speakers list. */
export function checkSessionSpeakersListed(dayLabel: string, sessions: SessionFields[], eventSpeakers: Reference[]): string[] {
  const listed = new Set(eventSpeakers.map((reference) => reference._ref))
  return sessions.flatMap((session) =>
    (session.speakers ?? []).some((reference) => !listed.has(reference._ref))
      ? [`${dayLabel}: "${sessionName(session)}" is presented by a speaker who is not on the event's Speakers list`]
      : [],
  )
}

/** Errors for sessions listed out of time order within a day. */
export function checkSessionOrder(dayLabel: string, sessions: SessionFields[]): string[] {
  const timed = sessions.filter((session) => minutesOfDay(session.start) !== undefined)
  return timed.slice(1).flatMap((session, index) => {
    const previous = timed[index]!
    return minutesOfDay(session.start)! < minutesOfDay(previous.start)!
      ? [`${dayLabel}: "${sessionName(session)}" is listed after "${sessionName(previous)}" but starts earlier`]
      : []
  })
}

/** Warnings for consecutive sessions of a day whose times overlap. */
export function checkSessionOverlaps(dayLabel: string, sessions: SessionFields[]): string[] {
  const timed = sessions.filter((session) => minutesOfDay(session.start) !== undefined && minutesOfDay(session.end) !== undefined)
  const byStart = [...timed].sort((a, b) => minutesOfDay(a.start)! - minutesOfDay(b.start)!)
  return byStart.slice(1).flatMap((session, index) => {
    const previous = byStart[index]!
    return minutesOfDay(session.start)! < minutesOfDay(previous.end)!
      ? [`${dayLabel}: "${sessionName(session)}" starts before "${sessionName(previous)}" ends (${previous.end})`]
      : []
  })
}

// Events ---------------------------------------------------------------------------------------------------

/** Why the end is wrong, or undefined: the event must end after it starts. */
export function checkEnd(start: string | undefined, end: string | undefined): string | undefined {
  if (!start || !end) return undefined
  return isAfter(end, start) ? undefined : 'The event must end after it starts'
}

/** Why the registration closing time is wrong, or undefined: registration cannot close after the event has ended. */
export function checkRegistrationClose(closesAt: string | undefined, end: string | undefined): string | undefined {
  if (!closesAt || !end) return undefined
  return isAfter(closesAt, end) ? 'Registration must close on or before the end of the event' : undefined
}

/** Errors for agenda days dated outside the event's first and last day (Africa/Johannesburg). */
export function checkAgendaDayDates(days: AgendaDay[], start: string | undefined, end: string | undefined): string[] {
  if (!start || !end) return []
  const firstDay = dateInEventTimeZone(start)
  const lastDay = dateInEventTimeZone(end)
  // An event that ends before it starts is reported on its end; every day would look misplaced.
  if (lastDay < firstDay) return []
  return days.flatMap((day, index) =>
    day.date && (day.date < firstDay || day.date > lastDay)
      ? [`${day.label ?? `Day ${index + 1}`} is dated ${day.date}, outside the event (${firstDay} to ${lastDay})`]
      : [],
  )
}

/** Errors for two options of the same kind, and for early-bird dates on or after the event's first day. */
export function checkPriceOptionSet(options: PriceOptionFields[], start: string | undefined): string[] {
  const keys = options.map((option) => option.key).filter((key): key is string => Boolean(key))
  const duplicates = [...new Set(keys.filter((key, index) => keys.indexOf(key) !== index))]
  const messages = duplicates.map((key) => `The event has more than one "${key}" option`)
  if (!start) return messages
  const firstDay = dateInEventTimeZone(start)
  for (const option of options) {
    if (option.key === 'early-bird' && option.earlyBirdUntil && option.earlyBirdUntil >= firstDay) {
      messages.push(`The early-bird date ${option.earlyBirdUntil} must be before the event starts (${firstDay})`)
    }
  }
  return messages
}

const amountCents = (option: PriceOptionFields | undefined) =>
  typeof option?.amount === 'number' && Number.isFinite(option.amount) ? randsToCents(option.amount) : undefined

/** Why the early-bird price is wrong, or undefined: it must be below the venue price. */
export function checkEarlyBirdBelowVenue(options: PriceOptionFields[]): string | undefined {
  const venue = amountCents(options.find((option) => option.key === 'venue'))
  const earlyBird = amountCents(options.find((option) => option.key === 'early-bird'))
  if (venue === undefined || earlyBird === undefined || earlyBird < venue) return undefined
  return `The early-bird price (${formatRand(earlyBird)}) must be below the venue price (${formatRand(venue)})`
}

/** Warnings for tables whose price per seat is above the venue price per delegate. */
export function checkTablePricePerHead(options: PriceOptionFields[]): string[] {
  const venue = amountCents(options.find((option) => option.key === 'venue'))
  if (venue === undefined) return []
  return options.flatMap((option) => {
    const seats = isOptionKey(option.key) ? delegateCap(option.key) : undefined
    const table = amountCents(option)
    if (seats === undefined || table === undefined || table / seats <= venue) return []
    const perHead = Math.round(table / seats)
    return [`A ${option.key} option costs ${formatRand(perHead)} per delegate, more than the venue price (${formatRand(venue)})`]
  })
}

/** Errors of the price options themselves, so an event cannot be published with an unfinished option. */
export function checkOptionsComplete(options: (PriceOptionFields & { title?: string })[]): string[] {
  return options.flatMap((option) =>
    [checkAmountAboveZero(option.amount), checkEarlyBirdDate(option)]
      .filter((message): message is string => message !== undefined)
      .map((message) => `${option.title ?? option.key ?? option._id}: ${message}`),
  )
}

/** A warning text when a workshop offers table options (tables are sold for conferences), or undefined. */
export function checkTablesOnWorkshop(kind: string | undefined, options: PriceOptionFields[]): string | undefined {
  const offersTables = options.some((option) => option.key === 'table-5' || option.key === 'table-10')
  return kind === 'workshop' && offersTables ? 'Table options are normally offered on conferences only' : undefined
}

/** Why a tab has nothing to show, or undefined. */
export function checkTabContent(event: EventFields): string[] {
  const tabs = new Set(event.tabs ?? [])
  const missing: [EventTab, boolean, string][] = [
    ['agenda', (event.agendaDays ?? []).length === 0, 'The Agenda tab needs at least one agenda day'],
    ['speakers', (event.speakers ?? []).length === 0, 'The Speakers tab needs at least one speaker'],
    ['sponsor', (event.sponsorPackages ?? []).length === 0, 'The Sponsor tab needs at least one sponsor package'],
    ['register', (event.priceOptions ?? []).length === 0, 'The Register tab needs at least one price option'],
  ]
  return missing.filter(([tab, isMissing]) => tabs.has(tab) && isMissing).map(([, , message]) => message)
}

// Price options --------------------------------------------------------------------------------------------

/** Why the amount is wrong, or undefined: every option costs something. */
export function checkAmountAboveZero(amount: number | undefined): string | undefined {
  return typeof amount === 'number' && amount <= 0 ? 'The amount must be above zero' : undefined
}

/** Why the early-bird date is wrong for the option's key, or undefined: required for early-bird, not allowed otherwise. */
export function checkEarlyBirdDate(option: PriceOptionFields): string | undefined {
  const isEarlyBird = option.key === 'early-bird'
  if (isEarlyBird && !option.earlyBirdUntil) return 'Early-bird options need the last day to register and pay'
  if (!isEarlyBird && option.earlyBirdUntil) return 'Only early-bird options have an early-bird date; remove it'
  return undefined
}

// Site settings --------------------------------------------------------------------------------------------

/** Why the VAT rate is wrong, or undefined: a fraction from 0 to 0.3 (South African VAT is 0.15). */
export function checkVatRate(rate: number | undefined): string | undefined {
  if (typeof rate !== 'number') return undefined
  return rate >= 0 && rate <= MAX_VAT_RATE ? undefined : `The VAT rate is a fraction from 0 to ${MAX_VAT_RATE} (0.15 for 15%), not ${rate}`
}

// The rules of each document type ----------------------------------------------------------------------------

function eventPriceOptions(document: ContentDocument, lookup: Lookup) {
  return resolve<PriceOptionFields>(fields<EventFields>(document).priceOptions, lookup)
}

function agendaDaysWithSessions(document: ContentDocument, lookup: Lookup) {
  return (fields<EventFields>(document).agendaDays ?? []).map((day, index) => ({
    label: day.label ?? `Day ${index + 1}`,
    sessions: resolve<SessionFields>(day.sessions, lookup),
  }))
}

/** Every rule, by document type. */
export const RULES: Record<string, FieldRule[]> = {
  event: [
    { field: 'end', level: 'error', check: (event) => problem(checkEnd(fields<EventFields>(event).start, fields<EventFields>(event).end)) },
    {
      field: 'registrationClosesAt',
      level: 'error',
      check: (event) => problem(checkRegistrationClose(fields<EventFields>(event).registrationClosesAt, fields<EventFields>(event).end)),
    },
    { field: 'tabs', level: 'error', check: (event) => checkTabContent(fields<EventFields>(event)) },
    {
      field: 'agendaDays',
      level: 'error',
      check: (event, lookup) => {
        const { agendaDays = [], start, end } = fields<EventFields>(event)
        const sessionOrder = agendaDaysWithSessions(event, lookup).flatMap((day) => checkSessionOrder(day.label, day.sessions))
        return [...checkAgendaDayDates(agendaDays, start, end), ...sessionOrder]
      },
    },
    {
      field: 'agendaDays',
      level: 'warning',
      check: (event, lookup) =>
        agendaDaysWithSessions(event, lookup).flatMap((day) => [
          ...checkSessionOverlaps(day.label, day.sessions),
          ...checkSessionSpeakersListed(day.label, day.sessions, fields<EventFields>(event).speakers ?? []),
        ]),
    },
    {
      field: 'priceOptions',
      level: 'error',
      check: (event, lookup) => {
        const options = eventPriceOptions(event, lookup)
        return [
          ...checkOptionsComplete(options),
          ...checkPriceOptionSet(options, fields<EventFields>(event).start),
          ...problem(checkEarlyBirdBelowVenue(options)),
        ]
      },
    },
    {
      field: 'priceOptions',
      level: 'warning',
      check: (event, lookup) => {
        const options = eventPriceOptions(event, lookup)
        return [...checkTablePricePerHead(options), ...problem(checkTablesOnWorkshop(fields<EventFields>(event).kind, options))]
      },
    },
  ],
  agendaSession: [
    { field: 'start', level: 'error', check: (session) => problem(checkTimeOfDay(fields<SessionFields>(session).start)) },
    {
      field: 'end',
      level: 'error',
      check: (session) => [
        ...problem(checkTimeOfDay(fields<SessionFields>(session).end)),
        ...problem(checkSessionEnd(fields<SessionFields>(session))),
      ],
    },
    { field: 'speaker', level: 'warning', check: (session) => problem(checkOtherPresenter(fields<SessionFields>(session))) },
  ],
  priceOption: [
    { field: 'amount', level: 'error', check: (option) => problem(checkAmountAboveZero(fields<PriceOptionFields>(option).amount)) },
    { field: 'earlyBirdUntil', level: 'error', check: (option) => problem(checkEarlyBirdDate(fields<PriceOptionFields>(option))) },
  ],
  redirect: [
    {
      field: 'to',
      level: 'error',
      check: (redirect, _lookup, ofType) => {
        const redirects = ofType('redirect').map((document) => ({ from: String(document.from ?? ''), to: String(document.to ?? '') }))
        const events = ofType('event').map((event) => ({ kind: event.kind, slug: (event.slug as { current?: string } | undefined)?.current }) as EventAddress)
        const pageSlugs = ofType('page').flatMap((page) => (page.slug as { current?: string } | undefined)?.current ?? [])
        return checkRedirect(fields<{ from?: string; to?: string }>(redirect), redirects, sitePaths(events, pageSlugs))
      },
    },
  ],
  siteSettings: [{ field: 'vatRate', level: 'error', check: (settings) => problem(checkVatRate(settings.vatRate as number | undefined)) }],
}

/** A problem of one document, named by its id, field and level. */
export interface Problem {
  documentId: string
  field: string
  level: Level
  message: string
}

/** Runs every rule of the document's type. */
export function checkDocument(document: ContentDocument, lookup: Lookup, ofType: TypeLookup = () => []): Problem[] {
  return (RULES[document._type] ?? []).flatMap((rule) =>
    rule.check(document, lookup, ofType).map((message) => ({ documentId: document._id, field: rule.field, level: rule.level, message })),
  )
}
