import { dateInEventTimeZone } from './dates.ts'
import type { ContentDocument } from './rules.ts'
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

type AgendaDay = { _key: string; date?: string; sessions?: unknown[] }
type PriceOption = { _key?: string; label?: string; earlyBirdUntil?: string }
type ImageValue = { alt?: string }

// System fields the Content Lake sets on the new document.
function withoutSystemFields({ _rev, _createdAt, _updatedAt, ...document }: ContentDocument & Record<string, unknown>): ContentDocument {
  return document
}

/** The image with the year in its alternative text moved on, or the value unchanged when it is not an image with one. */
function imageForNextYear<T>(image: T, year: string): T {
  if (image === null || typeof image !== 'object' || typeof (image as ImageValue).alt !== 'string') return image
  return { ...image, alt: textForNextYear((image as ImageValue).alt, year) }
}

/**
 * Copies an event for the next edition as a new draft: dates, early-bird dates and agenda days move by a year, the
 * year in its title, code, price labels, image alternative texts and slug moves on (the card's date is made from the
 * event's dates); the copy names the event it came from as its previous edition, whose prices the rules compare
 * with its own. The event holds its
 * price options and agenda, so the copy has its own (editing next year's prices or programme leaves this year's page
 * alone); speakers and sponsor packages are shared. `newId` supplies the new event's id.
 */
export function duplicateForNextYear(event: ContentDocument, newId: () => string): ContentDocument {
  const source = withoutSystemFields(event) as ContentDocument & Record<string, unknown>
  const start = typeof source.start === 'string' ? source.start : undefined
  const year = start ? dateInEventTimeZone(start).slice(0, 4) : String(new Date().getFullYear())
  const nextYear = String(Number(year) + 1)
  const later = (value: unknown) => (typeof value === 'string' ? oneYearLater(value) : undefined)

  const priceOptions = ((source.priceOptions ?? []) as PriceOption[]).map((option) => ({
    ...option,
    ...(option.label === undefined ? {} : { label: textForNextYear(option.label, year) }),
    ...(option.earlyBirdUntil === undefined ? {} : { earlyBirdUntil: later(option.earlyBirdUntil) }),
  }))
  const agendaDays = ((source.agendaDays ?? []) as AgendaDay[]).map((day) => ({ ...day, ...(day.date === undefined ? {} : { date: later(day.date) }) }))

  const title = textForNextYear(source.title as string | undefined, year)
  const slug = (source.slug as { current?: string } | undefined)?.current
  const nextSlug = !slug ? slugFromTitle(title ?? '') : slug.includes(year) ? replaceYear(slug, year, nextYear) : `${slug}-${nextYear}`
  const card = source.card as Record<string, unknown> | undefined

  return {
    ...source,
    _id: `drafts.${newId()}`,
    title,
    slug: { _type: 'slug', current: nextSlug },
    ...(typeof source.code === 'string' ? { code: textForNextYear(source.code, year) } : {}),
    ...(card === undefined
      ? {}
      : {
          card: {
            ...card,
            ...(card.image === undefined ? {} : { image: imageForNextYear(card.image, year) }),
          },
        }),
    previousEdition: { _type: 'reference', _ref: source._id.replace(/^drafts\./, ''), _weak: true },
    ...(start === undefined ? {} : { start: later(start) }),
    ...(source.end === undefined ? {} : { end: later(source.end) }),
    ...(source.registrationClosesAt === undefined ? {} : { registrationClosesAt: later(source.registrationClosesAt) }),
    ...(source.agendaDays === undefined ? {} : { agendaDays }),
    ...(source.priceOptions === undefined ? {} : { priceOptions }),
    ...(Array.isArray(source.participatingCompanies)
      ? { participatingCompanies: source.participatingCompanies.map((logo) => imageForNextYear(logo, year)) }
      : {}),
  }
}
