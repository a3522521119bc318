// The content rules, each written once over plain documents: the studio runs them as document validation
// (schemaRules.ts), with the schema's own (required fields, references, alt text, unique slugs); `pnpm
// content:validate` runs that same validation over an NDJSON dataset (validateContent.ts).
import { delegateCap, formatRand, isOptionKey, randsToCents } from '@events/pricing'
import { dateInEventTimeZone, isAfter, timeInEventTimeZone } from './dates.ts'
import { checkRedirect, sitePaths, type EventAddress } from './redirects.ts'
import { SITE_SETTINGS_ID } from './siteSettingsId.ts'

/** Any document of the dataset, as stored. */
export type ContentDocument = { _id: string; _type: string; [field: string]: unknown }

/** Finds another document by its id: a referenced one, or the site settings. */
export type Lookup = (id: string) => ContentDocument | undefined

/** The documents of the types a rule needs in full (a redirect's target may be any event or page). */
export type TypeLookup = (type: string) => ContentDocument[]

/** The types a document's rules read with a TypeLookup. */
export const TYPES_READ_BY_RULES: Record<string, string[]> = {
  redirect: ['event', 'page', 'redirect'],
  // Their rich text may link to the site's own pages.
  event: ['event', 'page', 'redirect'],
  page: ['event', 'page', 'redirect'],
  speaker: ['event', 'page', 'redirect'],
}

export type Level = 'error' | 'warning'

/** A step of a path into a document: a field name, or an array item by its key (or, without one, its index). */
export type PathSegment = string | number | { _key: string }

/** A problem a rule found: a message about the rule's field, or one about a place inside it (an item of an array). */
export type Finding = string | { message: string; path: PathSegment[] }

/** A rule of one field of a document type; `check` returns one finding per problem, none when the field is right. */
interface FieldRule {
  field: string
  level: Level
  check: (document: ContentDocument, lookup: Lookup, ofType: TypeLookup) => Finding[]
}

/** The tabs an event page can show. */
type EventTab = 'overview' | 'agenda' | 'register' | 'speakers' | 'sponsor'

/** The highest VAT rate, in percent, the settings accept. */
const MAX_VAT_PERCENT = 30

type Reference = { _ref?: string }
/** The fields of a price option (an item of the event's price options) the rules look at. */
export type PriceOptionFields = { _key?: string; key?: string; label?: string; amount?: number; earlyBirdUntil?: string }
/** The fields of an agenda session (an item of an agenda day's sessions) the rules look at. */
export type SessionFields = { _key?: string; title?: string; start?: string; end?: string; room?: string; speakers?: Reference[]; speaker?: string }
type AgendaDay = { _key?: string; label?: string; date?: string; sessions?: SessionFields[] }
type EventFields = {
  kind?: string
  start?: string
  end?: string
  registrationClosesAt?: string
  tabs?: string[]
  agendaDays?: AgendaDay[]
  speakers?: Reference[]
  priceOptions?: PriceOptionFields[]
  sponsorPackages?: Reference[]
  previousEdition?: Reference
}

const fields = <T>(document: ContentDocument) => document as unknown as T
const problem = (message: string | undefined): string[] => (message === undefined ? [] : [message])
/** The message at a place inside the document, or nothing. */
const at = (path: PathSegment[], message: string | undefined): Finding[] => (message === undefined ? [] : [{ message, path }])
const item = (value: { _key?: string }, index: number): PathSegment => (value._key ? { _key: value._key } : index)

// Times of day ---------------------------------------------------------------------------------------------

const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/

/** Minutes after midnight of an "HH:mm" time, or undefined when it is not one. */
function minutesOfDay(time: string | undefined): number | undefined {
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

const sessionName = (session: SessionFields) => `${session.start ?? '?'} ${session.title ?? ''}`.trim()

/** A warning when a session names listed speakers and another presenter, which the agenda does not show. */
export function checkOtherPresenter(session: SessionFields): string | undefined {
  return (session.speakers ?? []).length > 0 && session.speaker
    ? `The agenda shows the listed speakers; "${session.speaker}" is not shown. Clear one of them`
    : undefined
}

/** A day of the agenda with where it sits in the event, for the paths of the problems found in it. */
interface PlacedDay {
  label: string
  path: PathSegment[]
  sessions: { session: SessionFields; path: PathSegment[] }[]
}

function placedDays(days: AgendaDay[]): PlacedDay[] {
  return days.map((day, dayIndex) => {
    const path: PathSegment[] = ['agendaDays', item(day, dayIndex)]
    return {
      label: day.label ?? `Day ${dayIndex + 1}`,
      path,
      sessions: (day.sessions ?? []).map((session, index) => ({ session, path: [...path, 'sessions', item(session, index)] })),
    }
  })
}

/** Errors for session times that are not "HH:mm", and for sessions that do not end after they start. */
export function checkSessionTimes(days: AgendaDay[]): Finding[] {
  return placedDays(days).flatMap((day) =>
    day.sessions.flatMap(({ session, path }) => [
      ...at([...path, 'start'], checkTimeOfDay(session.start)),
      ...at([...path, 'end'], checkTimeOfDay(session.end) ?? checkSessionEnd(session)),
    ]),
  )
}

/**
 * Errors for sessions outside the event's hours: on its first day none may start before the event does, on its last
 * day none may end after it ends (Africa/Johannesburg).
 */
export function checkSessionsWithinEvent(days: AgendaDay[], start: string | undefined, end: string | undefined): Finding[] {
  if (!start || !end) return []
  const [firstDay, opens] = [dateInEventTimeZone(start), timeInEventTimeZone(start)]
  const [lastDay, closes] = [dateInEventTimeZone(end), timeInEventTimeZone(end)]
  return placedDays(days).flatMap((day, index) => {
    const date = days[index]!.date
    return day.sessions.flatMap(({ session, path }) => [
      ...(date === firstDay && minutesOfDay(session.start) !== undefined && minutesOfDay(session.start)! < minutesOfDay(opens)!
        ? at([...path, 'start'], `${day.label}: "${sessionName(session)}" starts before the event does (${opens})`)
        : []),
      ...(date === lastDay && minutesOfDay(session.end) !== undefined && minutesOfDay(session.end)! > minutesOfDay(closes)!
        ? at([...path, 'end'], `${day.label}: "${sessionName(session)}" ends after the event does (${closes})`)
        : []),
    ])
  })
}

/** Warnings for sessions presented by speakers who are not on the event's Speakers list. */
export function checkSessionSpeakersListed(days: AgendaDay[], eventSpeakers: Reference[]): Finding[] {
  const listed = new Set(eventSpeakers.map((reference) => reference._ref))
  return placedDays(days).flatMap((day) =>
    day.sessions.flatMap(({ session, path }) =>
      at(
        [...path, 'speakers'],
        (session.speakers ?? []).some((reference) => !listed.has(reference._ref))
          ? `${day.label}: "${sessionName(session)}" is presented by a speaker who is not on the event's Speakers list`
          : undefined,
      ),
    ),
  )
}

/** Warnings for sessions naming listed speakers and another presenter. */
function checkOtherPresenters(days: AgendaDay[]): Finding[] {
  return placedDays(days).flatMap((day) => day.sessions.flatMap(({ session, path }) => at([...path, 'speaker'], checkOtherPresenter(session))))
}

/** Errors for sessions listed out of time order within a day. */
export function checkSessionOrder(days: AgendaDay[]): Finding[] {
  return placedDays(days).flatMap((day) => {
    const timed = day.sessions.filter(({ session }) => minutesOfDay(session.start) !== undefined)
    return timed.slice(1).flatMap(({ session, path }, index) => {
      const previous = timed[index]!.session
      return minutesOfDay(session.start)! < minutesOfDay(previous.start)!
        ? at([...path, 'start'], `${day.label}: "${sessionName(session)}" is listed after "${sessionName(previous)}" but starts earlier`)
        : []
    })
  })
}

/** Two sessions share a room when they name the same one, or when either names none (it is for everyone). */
const shareRoom = (a: SessionFields, b: SessionFields) => !a.room?.trim() || !b.room?.trim() || a.room.trim().toLowerCase() === b.room.trim().toLowerCase()

/**
 * Errors for sessions of a day that overlap in the same room: parallel sessions name different rooms or tracks. Each
 * is reported once, on the later session, naming the day and both sessions.
 */
export function checkSessionOverlaps(days: AgendaDay[]): Finding[] {
  return placedDays(days).flatMap((day) => {
    const timed = day.sessions.filter(({ session }) => minutesOfDay(session.start) !== undefined && minutesOfDay(session.end) !== undefined)
    const byStart = [...timed].sort((a, b) => minutesOfDay(a.session.start)! - minutesOfDay(b.session.start)!)
    return byStart.flatMap(({ session, path }, index) => {
      const clash = byStart
        .slice(0, index)
        .find(({ session: earlier }) => minutesOfDay(session.start)! < minutesOfDay(earlier.end)! && shareRoom(session, earlier))?.session
      if (!clash) return []
      const where = session.room?.trim() && clash.room?.trim() ? ` in ${session.room.trim()}` : ''
      return at(
        [...path, 'start'],
        `${day.label}: "${sessionName(session)}" starts before "${sessionName(clash)}" ends (${clash.end})${where}; sessions that run in parallel need different rooms`,
      )
    })
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

/** Errors for agenda days dated outside the event's first and last day (Africa/Johannesburg), or out of date order. */
export function checkAgendaDayDates(days: AgendaDay[], start: string | undefined, end: string | undefined): Finding[] {
  const placed = placedDays(days)
  const order = days.slice(1).flatMap((day, index) => {
    const previous = days[index]!
    return day.date && previous.date && day.date < previous.date
      ? at([...placed[index + 1]!.path, 'date'], `${placed[index + 1]!.label} (${day.date}) is listed after ${placed[index]!.label} (${previous.date})`)
      : []
  })
  if (!start || !end) return order
  const firstDay = dateInEventTimeZone(start)
  const lastDay = dateInEventTimeZone(end)
  // An event that ends before it starts is reported on its end; every day would look misplaced.
  if (lastDay < firstDay) return order
  const outside = days.flatMap((day, index) =>
    day.date && (day.date < firstDay || day.date > lastDay)
      ? at([...placed[index]!.path, 'date'], `${placed[index]!.label} is dated ${day.date}, outside the event (${firstDay} to ${lastDay})`)
      : [],
  )
  return [...outside, ...order]
}

const amountCents = (option: PriceOptionFields | undefined) =>
  typeof option?.amount === 'number' && Number.isFinite(option.amount) ? randsToCents(option.amount) : undefined

/** Each price option with the path of its item in the event's price options. */
const placedOptions = (options: PriceOptionFields[]) =>
  options.map((option, index) => ({ option, path: ['priceOptions', item(option, index)] as PathSegment[] }))

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

/**
 * Errors of an event's price options: amounts above zero, an early-bird date on (and only on) the early-bird option
 * and before the event's first day, one option of each kind, the early-bird price below the venue price, and a
 * table's price per seat below the venue price and at least half of it.
 */
export function checkPriceOptions(options: PriceOptionFields[], start: string | undefined): Finding[] {
  const placed = placedOptions(options)
  const firstDay = start ? dateInEventTimeZone(start) : undefined
  const own = placed.flatMap(({ option, path }) => [
    ...at([...path, 'amount'], checkAmountAboveZero(option.amount)),
    ...at(
      [...path, 'earlyBirdUntil'],
      checkEarlyBirdDate(option) ??
        (option.key === 'early-bird' && firstDay && option.earlyBirdUntil && option.earlyBirdUntil >= firstDay
          ? `The early-bird date ${option.earlyBirdUntil} must be before the event starts (${firstDay})`
          : undefined),
    ),
  ])
  const duplicates = placed.flatMap(({ option, path }, index) =>
    option.key && options.findIndex((other) => other.key === option.key) < index
      ? at([...path, 'key'], `The event has more than one "${option.key}" option`)
      : [],
  )
  const venue = amountCents(options.find((option) => option.key === 'venue'))
  const comparedWithVenue =
    venue === undefined
      ? []
      : placed.flatMap(({ option, path }) => {
          const amount = amountCents(option)
          if (amount === undefined || amount <= 0) return []
          if (option.key === 'early-bird' && amount >= venue) {
            return at([...path, 'amount'], `The early-bird price (${formatRand(amount)}) must be below the venue price (${formatRand(venue)})`)
          }
          const seats = isOptionKey(option.key) ? delegateCap(option.key) : undefined
          if (seats === undefined) return []
          const perSeat = Math.round(amount / seats)
          if (perSeat >= venue) {
            return at(
              [...path, 'amount'],
              `A table of ${seats} at ${formatRand(amount)} is ${formatRand(perSeat)} a seat; it must be below the venue price (${formatRand(venue)})`,
            )
          }
          if (perSeat * 2 < venue) {
            return at(
              [...path, 'amount'],
              `A table of ${seats} at ${formatRand(amount)} is ${formatRand(perSeat)} a seat; it must be at least half the venue price (${formatRand(Math.ceil(venue / 2))})`,
            )
          }
          return []
        })
  return [...own, ...duplicates, ...comparedWithVenue]
}

/** The ceiling of a price per delegate, in rands, when the site settings set none. */
const DEFAULT_MAX_DELEGATE_PRICE = 50_000
/** The VAT rate, in percent, when the site settings set none. */
const DEFAULT_VAT_PERCENT = 15

/** The delegates an option's price is for: one, or a table's seats. */
const seatsOf = (option: PriceOptionFields) => (isOptionKey(option.key) ? (delegateCap(option.key) ?? 1) : 1)

/**
 * Errors for prices no event means: an online price above the venue price, and a price per delegate (a table's per
 * seat) above the ceiling the site settings set (R 50 000 by default), which catches a price typed in cents
 * (R 849 000 for R 8 490).
 */
export function checkImplausiblePrices(options: PriceOptionFields[], maxDelegatePrice: number): Finding[] {
  const venue = amountCents(options.find((option) => option.key === 'venue'))
  const ceiling = randsToCents(maxDelegatePrice)
  return placedOptions(options).flatMap(({ option, path }) => {
    const amount = amountCents(option)
    if (amount === undefined || amount <= 0) return []
    const seats = seatsOf(option)
    const perDelegate = Math.round(amount / seats)
    return [
      ...at(
        [...path, 'amount'],
        option.key === 'online' && venue !== undefined && amount > venue
          ? `The online price (${formatRand(amount)}) is above the venue price (${formatRand(venue)})`
          : undefined,
      ),
      ...at(
        [...path, 'amount'],
        perDelegate > ceiling
          ? `${seats > 1 ? `A table of ${seats} at ${formatRand(amount)} is ${formatRand(perDelegate)} a delegate` : `${formatRand(amount)} a delegate`}, above the ceiling of ${formatRand(ceiling)} set in the site settings: was it typed in cents?`
          : undefined,
      ),
    ]
  })
}

/**
 * Warnings for a price that looks VAT-inclusive: not a whole ten rands itself, but exactly a whole ten rands plus VAT
 * (R 9 763.50 is R 8 490 plus 15%). Prices are entered excl. VAT, so such a figure charges VAT twice.
 */
export function checkVatInclusiveLooking(options: PriceOptionFields[], vatPercent: number): Finding[] {
  if (vatPercent <= 0) return []
  return placedOptions(options).flatMap(({ option, path }) => {
    const amount = amountCents(option)
    if (amount === undefined || amount <= 0 || amount % 1000 === 0) return []
    const beforeVat = (amount * 100) / (100 + vatPercent)
    return Number.isInteger(beforeVat) && beforeVat % 1000 === 0
      ? at(
          [...path, 'amount'],
          `${formatRand(amount)} is ${formatRand(beforeVat)} plus ${vatPercent}% VAT: prices are entered excl. VAT, so check this one is not VAT-inclusive`,
        )
      : []
  })
}

/** How far a price may move from the previous edition's, as a fraction, before it is worth a second look. */
const MAX_PRICE_MOVE = 0.25

/** The fields of the previous edition the price-move rule reads. */
type PreviousEdition = { title?: unknown; priceOptions?: unknown; [field: string]: unknown }

/**
 * Warnings for a price that moved by more than 25% from the same option's price in the previous edition (the event
 * this one was duplicated from), with both figures: a typo, or last year's price kept for a different option, is
 * caught before it goes live. Without a previous edition (or when it has been deleted) there is nothing to compare.
 */
export function checkPriceMoves(options: PriceOptionFields[], previous: PreviousEdition | undefined): Finding[] {
  if (!previous || !Array.isArray(previous.priceOptions)) return []
  const previousOptions = previous.priceOptions as PriceOptionFields[]
  const previousName = typeof previous.title === 'string' ? `"${previous.title}"` : 'the previous edition'
  return placedOptions(options).flatMap(({ option, path }) => {
    const amount = amountCents(option)
    const before = option.key ? amountCents(previousOptions.find((candidate) => candidate.key === option.key)) : undefined
    if (amount === undefined || before === undefined || amount <= 0 || before <= 0) return []
    const move = (amount - before) / before
    if (Math.abs(move) <= MAX_PRICE_MOVE) return []
    return at(
      [...path, 'amount'],
      `The ${option.key} price moved from ${formatRand(before)} in ${previousName} to ${formatRand(amount)}, ${move > 0 ? 'up' : 'down'} ${Math.round(Math.abs(move) * 100)}%: check it is meant`,
    )
  })
}

/**
 * An error for a copy made for next year (an event with a previous edition) that is listed on the site while its
 * checklist still has items: a copy stays off the listing pages until nothing in it names last year.
 */
export function checkListedCopy(event: ContentDocument): Finding[] {
  const { previousEdition, card, start } = event as { previousEdition?: Reference; card?: { listed?: boolean }; start?: string }
  if (!previousEdition?._ref || card?.listed !== true || !start) return []
  const open = checkPreviousYearMentions(event).length
  if (open === 0) return []
  const previousYear = Number(dateInEventTimeZone(start).slice(0, 4)) - 1
  return at(
    ['card', 'listed'],
    `List this event once its checklist is clear: ${open} field${open === 1 ? '' : 's'} still mention${open === 1 ? 's' : ''} ${previousYear}`,
  )
}

/** Every text of a value with its path, skipping system fields (`_id`, `_type`, `_key`, `_ref`…). */
function textsOf(value: unknown, path: PathSegment[]): { text: string; path: PathSegment[] }[] {
  if (typeof value === 'string') return [{ text: value, path }]
  if (Array.isArray(value)) return value.flatMap((entry, index) => textsOf(entry, [...path, item(entry ?? {}, index)]))
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, entry]) => (key.startsWith('_') ? [] : textsOf(entry, [...path, key])))
}

/**
 * Warnings, one per field, for texts of an event that mention the year before the event's: the checklist of what a
 * copy made with "Duplicate for next year" still says about last year (an outlook "for 2025 and 2026" may be right,
 * so it does not block publishing).
 */
export function checkPreviousYearMentions(event: ContentDocument): Finding[] {
  const start = fields<EventFields>(event).start
  if (!start) return []
  const previousYear = String(Number(dateInEventTimeZone(start).slice(0, 4)) - 1)
  const mentions = new RegExp(`(?<!\\d)${previousYear}(?!\\d)`)
  const { placeholders: _placeholders, ...content } = event as Record<string, unknown>
  return textsOf(content, [])
    .filter(({ text }) => mentions.test(text))
    .map(({ path }) => ({ message: `Still mentions ${previousYear}: check it is right for this edition`, path }))
}

/** Every rich-text link of a value (a link annotation: `_type: 'link'` with an href) with its path. */
function linksOf(value: unknown, path: PathSegment[]): { href: string; path: PathSegment[] }[] {
  if (Array.isArray(value)) return value.flatMap((entry, index) => linksOf(entry, [...path, item(entry ?? {}, index)]))
  if (value === null || typeof value !== 'object') return []
  const record = value as Record<string, unknown>
  const own = record._type === 'link' && typeof record.href === 'string' ? [{ href: record.href, path: [...path, 'href'] }] : []
  return [...own, ...Object.entries(record).flatMap(([key, entry]) => (key.startsWith('_') ? [] : linksOf(entry, [...path, key])))]
}

/**
 * Errors for rich-text links to a path of this site that nothing answers (`/termz`): a link to a page of the site
 * must lead to a route it serves, a published event or page, or a redirect to one. Web addresses, mailto: and tel:
 * stay free.
 */
export function checkInternalLinks(document: ContentDocument, ofType: TypeLookup): Finding[] {
  const internal = linksOf(document, []).filter(({ href }) => href.startsWith('/') && !href.startsWith('//'))
  if (internal.length === 0) return []
  const events = ofType('event').map((event) => ({ kind: event.kind, slug: (event.slug as { current?: string } | undefined)?.current }) as EventAddress)
  const pageSlugs = ofType('page').flatMap((page) => (page.slug as { current?: string } | undefined)?.current ?? [])
  const redirects = ofType('redirect').map((redirect) => ({ from: String(redirect.from ?? ''), to: String(redirect.to ?? '') }))
  const paths = sitePaths(events, pageSlugs)
  return internal.flatMap(({ href, path }) => {
    const target = href.replace(/[?#].*$/, '').replace(/(.)\/+$/, '$1') || '/'
    const refusal = checkRedirect({ from: target, to: target }, redirects, paths)
    return refusal.length === 0 ? [] : at(path, `The link to ${href} leads nowhere: no page of the site is at ${target}`)
  })
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

// Site settings --------------------------------------------------------------------------------------------

/**
 * Why the VAT rate is wrong, or undefined: a percentage from 0 to 30 (South African VAT is 15). A rate between 0 and
 * 1 is a fraction entered by mistake (0.15 meant as 15%), which would charge next to no VAT.
 */
export function checkVatRate(percent: number | undefined): string | undefined {
  if (typeof percent !== 'number') return undefined
  if (percent > 0 && percent < 1)
    return `Enter the VAT rate as a percentage: ${Math.round(percent * 10000) / 100} for ${Math.round(percent * 10000) / 100}%, not ${percent}`
  return percent >= 0 && percent <= MAX_VAT_PERCENT ? undefined : `The VAT rate is a percentage from 0 to ${MAX_VAT_PERCENT} (15 for 15%), not ${percent}`
}

// The rules of each document type ----------------------------------------------------------------------------

const eventFields = (document: ContentDocument) => fields<EventFields>(document)

/** What the price rules read from the site settings, with the defaults where a setting is not set. */
function settingsOf(lookup: Lookup): { maxDelegatePrice: number; vatPercent: number } {
  const settings = lookup(SITE_SETTINGS_ID)
  const maxDelegatePrice = settings?.maxDelegatePrice
  const vatRate = settings?.vatRate
  return {
    maxDelegatePrice: typeof maxDelegatePrice === 'number' && maxDelegatePrice > 0 ? maxDelegatePrice : DEFAULT_MAX_DELEGATE_PRICE,
    // A rate below 1 was stored as a fraction before the percentage migration.
    vatPercent: typeof vatRate === 'number' ? (vatRate < 1 ? vatRate * 100 : vatRate) : DEFAULT_VAT_PERCENT,
  }
}

/** The event this one was duplicated from, as published or as its draft, when it still exists. */
function previousEditionOf(event: ContentDocument, lookup: Lookup): ContentDocument | undefined {
  const id = eventFields(event).previousEdition?._ref
  return id === undefined ? undefined : (lookup(id) ?? lookup(`drafts.${id}`))
}

/** Every rule, by document type. */
const RULES: Record<string, FieldRule[]> = {
  event: [
    { field: 'end', level: 'error', check: (event) => problem(checkEnd(eventFields(event).start, eventFields(event).end)) },
    {
      field: 'registrationClosesAt',
      level: 'error',
      check: (event) => problem(checkRegistrationClose(eventFields(event).registrationClosesAt, eventFields(event).end)),
    },
    { field: 'tabs', level: 'error', check: (event) => checkTabContent(eventFields(event)) },
    {
      field: 'agendaDays',
      level: 'error',
      check: (event) => {
        const { agendaDays = [], start, end } = eventFields(event)
        return [
          ...checkAgendaDayDates(agendaDays, start, end),
          ...checkSessionTimes(agendaDays),
          ...checkSessionOrder(agendaDays),
          ...checkSessionsWithinEvent(agendaDays, start, end),
          ...checkSessionOverlaps(agendaDays),
        ]
      },
    },
    {
      field: 'agendaDays',
      level: 'warning',
      check: (event) => {
        const { agendaDays = [], speakers = [] } = eventFields(event)
        return [...checkSessionSpeakersListed(agendaDays, speakers), ...checkOtherPresenters(agendaDays)]
      },
    },
    { field: 'priceOptions', level: 'error', check: (event) => checkPriceOptions(eventFields(event).priceOptions ?? [], eventFields(event).start) },
    {
      field: 'priceOptions',
      level: 'error',
      check: (event, lookup) => checkImplausiblePrices(eventFields(event).priceOptions ?? [], settingsOf(lookup).maxDelegatePrice),
    },
    {
      field: 'priceOptions',
      level: 'warning',
      check: (event, lookup) => [
        ...problem(checkTablesOnWorkshop(eventFields(event).kind, eventFields(event).priceOptions ?? [])),
        ...checkVatInclusiveLooking(eventFields(event).priceOptions ?? [], settingsOf(lookup).vatPercent),
        ...checkPriceMoves(eventFields(event).priceOptions ?? [], previousEditionOf(event, lookup)),
      ],
    },
    { field: 'title', level: 'warning', check: (event) => checkPreviousYearMentions(event) },
    { field: 'card', level: 'error', check: (event) => checkListedCopy(event) },
    { field: 'overview', level: 'error', check: (event, _lookup, ofType) => checkInternalLinks(event, ofType) },
  ],
  page: [{ field: 'sections', level: 'error', check: (page, _lookup, ofType) => checkInternalLinks(page, ofType) }],
  speaker: [{ field: 'bio', level: 'error', check: (speaker, _lookup, ofType) => checkInternalLinks(speaker, ofType) }],
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

/** A problem of one document: its id, where in the document, the level and the message. */
export interface Problem {
  documentId: string
  /** Where the problem is: the rule's field, or a place inside it such as one price option's amount. */
  path: PathSegment[]
  level: Level
  message: string
}

// Steps of a path that say nothing to an editor: a block's spans and their text.
const UNSPOKEN_FIELDS = new Set(['children', 'text', 'markDefs'])
const fieldInWords = (field: string) => field.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()

/**
 * Where a path points in a document, in an editor's words: `agendaDays[_key=="day-2"].sessions[_key=="s4"].title` of
 * an event is "Day 2, session 'Keynote', title"; a price option is named by its label.
 */
export function placeInWords(document: ContentDocument, path: PathSegment[]): string {
  const words: string[] = []
  let value: unknown = document
  let field: string | undefined
  for (const segment of path) {
    if (typeof segment === 'string') {
      field = segment
      value = (value as Record<string, unknown> | undefined)?.[segment]
      if (!['agendaDays', 'sessions', 'priceOptions'].includes(segment) && !UNSPOKEN_FIELDS.has(segment)) words.push(fieldInWords(segment))
      continue
    }
    const list = Array.isArray(value) ? (value as Record<string, unknown>[]) : []
    const index = typeof segment === 'number' ? segment : list.findIndex((entry) => entry?._key === segment._key)
    const entry = list[index] as Record<string, unknown> | undefined
    value = entry
    // An item no longer there (removed since the check) is left unnamed rather than given a made-up number.
    if (index < 0) continue
    const named = (text: unknown) => (typeof text === 'string' && text.trim() ? `'${text.trim()}'` : `${index + 1}`)
    if (field === 'agendaDays') words.push(typeof entry?.label === 'string' && entry.label.trim() ? entry.label.trim() : `Day ${index + 1}`)
    else if (field === 'sessions') words.push(`session ${named(entry?.title)}`)
    else if (field === 'priceOptions') words.push(`price option ${named(entry?.label ?? entry?.key)}`)
  }
  const place = words.join(', ')
  return place.charAt(0).toUpperCase() + place.slice(1)
}

/** A path as text, as GROQ and the studio's URLs write it: `priceOptions[_key=="venue"].amount`. */
export function formatPath(path: PathSegment[]): string {
  return path
    .map((segment, index) => {
      if (typeof segment === 'string') return `${index === 0 ? '' : '.'}${segment}`
      return typeof segment === 'number' ? `[${segment}]` : `[_key=="${segment._key}"]`
    })
    .join('')
}

/** Runs every rule of the document's type. */
export function checkDocument(document: ContentDocument, lookup: Lookup, ofType: TypeLookup = () => []): Problem[] {
  return (RULES[document._type] ?? []).flatMap((rule) =>
    rule.check(document, lookup, ofType).map((finding) => ({
      documentId: document._id,
      path: typeof finding === 'string' ? [rule.field] : finding.path,
      level: rule.level,
      message: typeof finding === 'string' ? finding : finding.message,
    })),
  )
}
