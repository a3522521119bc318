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

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * The same weekday 52 weeks later, in the format it came in: "2025-07-23T07:30:00+02:00" (a Wednesday) ->
 * "2026-07-22T07:30:00+02:00" (a Wednesday), one or two days before the same calendar date. The time stays as
 * written, since Africa/Johannesburg keeps one offset all year.
 */
export function sameWeekdayAYearLater(isoDateOrDateTime: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})(.*)$/.exec(isoDateOrDateTime)
  const day = match ? new Date(`${match[1]}T00:00:00Z`) : undefined
  if (!match || !day || Number.isNaN(day.getTime())) throw new RangeError(`Not an ISO date: ${isoDateOrDateTime}`)
  return `${new Date(day.getTime() + 52 * 7 * DAY_MS).toISOString().slice(0, 10)}${match[2]}`
}

/** How the copy's dates move on: to the same weekday a year on (the default), or to the same calendar date. */
export type NextYearDates = 'same-weekday' | 'same-date'

export interface NextYearChoices {
  dates?: NextYearDates
  /** Every price changed by this percentage (6 for 6% more), rounded to the rand; none when left out. */
  priceChangePercent?: number
}

// "13 June 2025", as the early-bird labels write the date.
const labelDate = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' })
const dateInWords = (isoDate: string) => labelDate.format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`))

/** A price changed by a percentage, rounded to the rand. */
const changedPrice = (amount: unknown, percent: number) => (typeof amount === 'number' ? Math.round((amount * (100 + percent)) / 100) : amount)

const replaceYear = (text: string, year: string, nextYear: string) => text.replace(new RegExp(`(?<!\\d)${year}(?!\\d)`, 'g'), nextYear)

/** The event's year in a text moved on by one ("Resilience 2025" -> "Resilience 2026"); other text unchanged. */
function textForNextYear(text: string | undefined, year: string): string | undefined {
  return text === undefined ? undefined : replaceYear(text, year, String(Number(year) + 1))
}

type AgendaDay = { _key: string; date?: string; sessions?: unknown[] }
type PriceOption = { _key?: string; label?: string; amount?: number; earlyBirdUntil?: string }
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
 * Copies an event for the next edition as a new draft: dates, early-bird dates and agenda days move to the same
 * weekday a year on (or, when chosen, the same calendar date), prices change by the chosen percentage, the
 * year in its title, code, price labels, image alternative texts and slug moves on (the card's date is made from the
 * event's dates); the copy is unlisted, and names the event it came from as its previous edition, whose prices the rules compare
 * with its own. The event holds its
 * price options and agenda, so the copy has its own (editing next year's prices or programme leaves this year's page
 * alone); speakers and sponsor packages are shared. `newId` supplies the new event's id.
 */
export function duplicateForNextYear(event: ContentDocument, newId: () => string, choices: NextYearChoices = {}): ContentDocument {
  const { dates = 'same-weekday', priceChangePercent = 0 } = choices
  const moveOn = dates === 'same-weekday' ? sameWeekdayAYearLater : oneYearLater
  const source = withoutSystemFields(event) as ContentDocument & Record<string, unknown>
  const start = typeof source.start === 'string' ? source.start : undefined
  const year = start ? dateInEventTimeZone(start).slice(0, 4) : String(new Date().getFullYear())
  const nextYear = String(Number(year) + 1)
  const later = (value: unknown) => (typeof value === 'string' ? moveOn(value) : undefined)

  // The early-bird label's date is written from the new early-bird date, so the two cannot disagree.
  const labelForNextYear = (option: PriceOption, earlyBirdUntil: string | undefined) => {
    if (option.label === undefined) return {}
    const dated = option.earlyBirdUntil && earlyBirdUntil ? option.label.replace(dateInWords(option.earlyBirdUntil), dateInWords(earlyBirdUntil)) : option.label
    return { label: textForNextYear(dated, year) }
  }
  const priceOptions = ((source.priceOptions ?? []) as PriceOption[]).map((option) => {
    const earlyBirdUntil = later(option.earlyBirdUntil)
    return {
      ...option,
      ...labelForNextYear(option, earlyBirdUntil),
      ...(option.earlyBirdUntil === undefined ? {} : { earlyBirdUntil }),
      ...(option.amount === undefined || priceChangePercent === 0 ? {} : { amount: changedPrice(option.amount, priceChangePercent) }),
    }
  })
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
            // Off the listing pages until the checklist is clear (see checkListedCopy).
            listed: false,
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
