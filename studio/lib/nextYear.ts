import { dateInEventTimeZone } from './dates.ts'
import type { ContentDocument, Lookup } from './rules.ts'
import { slugFromTitle } from './slugs.ts'

/**
 * The same calendar day and time one year later, in the format it came in: "2025-07-23T07:30:00+02:00" ->
 * "2026-07-23T07:30:00+02:00", "2025-06-13" -> "2026-06-13"; 29 February becomes 28 February.
 * Africa/Johannesburg keeps one offset all year, so the wall-clock time stays the same in any offset.
 */
export function oneYearLater(isoDateOrDateTime: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})(.*)$/.exec(isoDateOrDateTime)
  if (!match) throw new RangeError(`Not an ISO date: ${isoDateOrDateTime}`)
  const [, year, month, day, rest] = match as unknown as [string, string, string, string, string]
  const nextYear = Number(year) + 1
  const isLeapYear = new Date(Date.UTC(nextYear, 1, 29)).getUTCMonth() === 1
  const nextDay = month === '02' && day === '29' && !isLeapYear ? '28' : day
  return `${nextYear}-${month}-${nextDay}${rest}`
}

const replaceYear = (text: string, year: string, nextYear: string) => text.replace(new RegExp(`(?<!\\d)${year}(?!\\d)`, 'g'), nextYear)

/** The event's year in a text moved on by one ("Resilience 2025" -> "Resilience 2026"); other text unchanged. */
function textForNextYear(text: string | undefined, year: string): string | undefined {
  return text === undefined ? undefined : replaceYear(text, year, String(Number(year) + 1))
}

type Reference = { _key?: string; _type?: string; _ref?: string }
type AgendaDay = { _key: string; date?: string; sessions?: Reference[] }

/** The documents "Duplicate for next year" creates: a draft event and its own copies of its sessions and price options. */
export interface NextYearCopy {
  event: ContentDocument
  priceOptions: ContentDocument[]
  sessions: ContentDocument[]
}

// System fields the Content Lake sets on the new documents.
function withoutSystemFields({ _rev, _createdAt, _updatedAt, ...document }: ContentDocument & Record<string, unknown>): ContentDocument {
  return document
}

/**
 * Copies an event for the next edition: dates, early-bird dates and agenda days move by a year, the year in
 * its title, code, card date, labels and slug moves on, and it gets its own copies of its price options and
 * agenda sessions (so editing next year's prices or programme leaves this year's page alone). Speakers and
 * sponsor packages are shared. The event is a draft; the copies are referenced only by it, so they show on
 * the site when the event is published. `newId` supplies the ids of the new documents.
 */
export function duplicateForNextYear(event: ContentDocument, lookup: Lookup, newId: () => string): NextYearCopy {
  const source = withoutSystemFields(event) as ContentDocument & Record<string, unknown>
  const start = typeof source.start === 'string' ? source.start : undefined
  const year = start ? dateInEventTimeZone(start).slice(0, 4) : String(new Date().getFullYear())
  const nextYear = String(Number(year) + 1)
  const later = (value: unknown) => (typeof value === 'string' ? oneYearLater(value) : undefined)
  const copyOf = (reference: Reference, change: (document: ContentDocument & Record<string, unknown>) => ContentDocument) => {
    const original = reference._ref === undefined ? undefined : lookup(reference._ref)
    if (original === undefined) return { reference, copy: undefined }
    const copy = change({ ...withoutSystemFields(original), _id: newId() } as ContentDocument & Record<string, unknown>)
    return { reference: { ...reference, _ref: copy._id }, copy }
  }

  const priceOptions = ((source.priceOptions ?? []) as Reference[]).map((reference) =>
    copyOf(reference, (option) => ({
      ...option,
      title: textForNextYear(option.title as string | undefined, year),
      label: textForNextYear(option.label as string | undefined, year),
      ...(option.earlyBirdUntil === undefined ? {} : { earlyBirdUntil: later(option.earlyBirdUntil) }),
    })),
  )
  const agendaDays = ((source.agendaDays ?? []) as AgendaDay[]).map((day) => {
    const sessions = (day.sessions ?? []).map((reference) => copyOf(reference, (session) => session))
    return { day: { ...day, ...(day.date === undefined ? {} : { date: later(day.date) }), sessions: sessions.map(({ reference }) => reference) }, sessions }
  })

  const title = textForNextYear(source.title as string | undefined, year)
  const slug = (source.slug as { current?: string } | undefined)?.current
  const nextSlug = !slug ? slugFromTitle(title ?? '') : slug.includes(year) ? replaceYear(slug, year, nextYear) : `${slug}-${nextYear}`
  const card = source.card as Record<string, unknown> | undefined

  const copy: ContentDocument = {
    ...source,
    _id: `drafts.${newId()}`,
    title,
    slug: { _type: 'slug', current: nextSlug },
    ...(typeof source.code === 'string' ? { code: textForNextYear(source.code, year) } : {}),
    ...(card === undefined ? {} : { card: { ...card, dateLabel: textForNextYear(card.dateLabel as string | undefined, year) } }),
    ...(start === undefined ? {} : { start: later(start) }),
    ...(source.end === undefined ? {} : { end: later(source.end) }),
    ...(source.registrationClosesAt === undefined ? {} : { registrationClosesAt: later(source.registrationClosesAt) }),
    ...(source.agendaDays === undefined ? {} : { agendaDays: agendaDays.map(({ day }) => day) }),
    ...(source.priceOptions === undefined ? {} : { priceOptions: priceOptions.map(({ reference }) => reference) }),
  }
  const created = <T>(copies: { copy?: T }[]) => copies.flatMap(({ copy }) => (copy === undefined ? [] : [copy]))
  return {
    event: copy,
    priceOptions: created(priceOptions),
    sessions: agendaDays.flatMap(({ sessions }) => created(sessions)),
  }
}
