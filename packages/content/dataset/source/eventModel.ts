import { eventCardSvg, logoSvg } from './images.ts'
import { bulletBlocks, paragraphBlocks } from './text-blocks.ts'
import { image, keyed, refs, type DatasetDocument, type PlaceholderImage } from './model.ts'
import { SPONSOR_PACKAGE_IDS } from './sponsors.ts'

/** One line of an agenda. */
export interface SessionEntry {
  /** Start and end as the agenda shows them, "07:30 – 08:30"; stored as separate start and end times. */
  time: string
  title: string
  /** Ids of the speaker documents presenting the session. */
  speakers?: string[]
  /** Who presents it when that is no listed speaker, e.g. "Panel of business leaders". */
  speaker?: string
  isBreak?: boolean
  /** Counts as ethics hours of the event's CPD. */
  isEthics?: boolean
}

/** An event as the content files describe it; `eventDocuments` turns it into Sanity documents. */
export interface EventEntry {
  /** Readable id part: event-<id>; the keys of its price options and sessions, price-<id>-venue, session-<id>-d1-01. */
  id: string
  /** Route segment, case preserved. */
  slug: string
  kind: 'conference' | 'workshop'
  title: string
  code: string
  card: { listed: boolean; position?: number; hue: number }
  start: string
  end: string
  format: 'in-person' | 'online' | 'hybrid'
  venue: { name: string; address: string }
  summary: string
  overview: { theme: string; keyMessages: string[]; objectives: string[] }
  tabs: string[]
  agenda: { label: string; date: string; sessions: SessionEntry[] }[]
  speakers: string[]
  participatingCompanies: string[]
  prices: { venue: number; earlyBird: number; earlyBirdUntil: string; online: number; tables: boolean }
  registrationSubject: string
  /** The CPD body's accreditation, for an accredited event. */
  cpd?: { accreditingBody: string; accreditationNumber: string; category: string }
  sponsorHeading: string
  sponsorIntro: string
  /** Field paths of the event document that hold invented values. */
  placeholders: string[]
}

// Contact details the specification leaves as {phone} and {email}.
export const EVENT_CONTACT = { phone: '+27 11 000 0000', email: 'events@example.com' }

type OptionKey = 'venue' | 'early-bird' | 'online' | 'table-5' | 'table-10'

// Flat prices of the table options (specification, section 9); how many delegates each admits is a rule of
// @events/pricing, not content.
const TABLE_AMOUNTS = { 'table-5': 34950, 'table-10': 59900 } as const

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** "2025-06-13" -> "13 June 2025". */
export function longDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number)
  return `${day} ${MONTHS[(month ?? 1) - 1]} ${year}`
}

function priceLabel(key: OptionKey, earlyBirdUntil: string): string {
  switch (key) {
    case 'venue':
      return 'Venue'
    case 'early-bird':
      return `Early-bird: register and pay by ${longDate(earlyBirdUntil)}`
    case 'online':
      return 'Online'
    case 'table-5':
      return 'Table of 5 delegates'
    case 'table-10':
      return 'Table of 10 delegates'
  }
}

// The keys of an event's price options and sessions are the ids these had when they were documents of their own,
// so a project migrated from that shape (studio/migrations) holds the same items as the shipped dataset.
function priceOptionItems(entry: EventEntry): Record<string, unknown>[] {
  const { venue, earlyBird, earlyBirdUntil, online, tables } = entry.prices
  const amounts: [OptionKey, number][] = [
    ['venue', venue],
    ['early-bird', earlyBird],
    ['online', online],
    ...(tables ? ([['table-5', TABLE_AMOUNTS['table-5']], ['table-10', TABLE_AMOUNTS['table-10']]] as [OptionKey, number][]) : []),
  ]
  return amounts.map(([key, amount]) => ({
    _key: `price-${entry.id}-${key}`,
    _type: 'priceOption',
    key,
    label: priceLabel(key, earlyBirdUntil),
    amount,
    ...(key === 'early-bird' ? { earlyBirdUntil } : {}),
  }))
}

/** "07:30 – 08:30" -> { start: "07:30", end: "08:30" }. */
export function sessionTimes(time: string): { start: string; end: string } {
  const [start, end, ...rest] = time.split(' – ')
  if (start === undefined || end === undefined || rest.length > 0) throw new Error(`Session time "${time}" is not "HH:mm – HH:mm"`)
  return { start, end }
}

function agendaDays(entry: EventEntry) {
  return entry.agenda.map((day, dayIndex) => ({
    _key: `day-${dayIndex + 1}`,
    label: day.label,
    date: day.date,
    sessions: day.sessions.map((session, sessionIndex) => ({
      _key: `session-${entry.id}-d${dayIndex + 1}-${String(sessionIndex + 1).padStart(2, '0')}`,
      _type: 'agendaSession',
      ...sessionTimes(session.time),
      title: session.title,
      ...(session.speakers ? { speakers: refs(session.speakers) } : {}),
      ...(session.speaker ? { speaker: session.speaker } : {}),
      isBreak: session.isBreak ?? false,
      ...(session.isEthics ? { isEthics: true } : {}),
    })),
  }))
}

/** The logo file of a participating company, shared by every event it appears at. */
export function logoFile(company: string): string {
  return `logo-${company.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.svg`
}

/** The event document, holding its agenda and price options, and its card image. */
export function eventDocuments(entry: EventEntry): { documents: DatasetDocument[]; images: PlaceholderImage[] } {
  const cardFile = `event-${entry.id}.svg`
  const event: DatasetDocument = {
    _id: `event-${entry.id}`,
    _type: 'event',
    kind: entry.kind,
    title: entry.title,
    slug: { _type: 'slug', current: entry.slug },
    code: entry.code,
    card: {
      image: image(cardFile, entry.title),
      listed: entry.card.listed,
      ...(entry.card.position === undefined ? {} : { position: entry.card.position }),
    },
    start: entry.start,
    end: entry.end,
    format: entry.format,
    venue: entry.venue,
    contactPhone: EVENT_CONTACT.phone,
    contactEmail: EVENT_CONTACT.email,
    summary: entry.summary,
    overview: {
      theme: paragraphBlocks('theme', entry.overview.theme),
      keyMessages: bulletBlocks('key-message', entry.overview.keyMessages),
      objectives: bulletBlocks('objective', entry.overview.objectives),
    },
    tabs: entry.tabs,
    agendaDays: agendaDays(entry),
    speakers: refs(entry.speakers),
    participatingCompanies: keyed(
      'company',
      entry.participatingCompanies.map((company) => image(logoFile(company), company)),
    ),
    priceOptions: priceOptionItems(entry),
    sponsorHeading: entry.sponsorHeading,
    sponsorIntro: entry.sponsorIntro,
    sponsorPackages: refs(SPONSOR_PACKAGE_IDS),
    registrationSubject: entry.registrationSubject,
    ...(entry.cpd ? { cpd: entry.cpd } : {}),
    certificatesOnlyWhenPaid: true,
    placeholders: [
      'code',
      'contactPhone',
      'contactEmail',
      'card.image',
      ...(entry.participatingCompanies.length > 0 ? ['participatingCompanies'] : []),
      // The accreditation numbers are invented until the events team enters the ones the bodies issued.
      ...(entry.cpd ? ['cpd.accreditationNumber'] : []),
      ...entry.placeholders,
    ],
  }
  const images: PlaceholderImage[] = [{ file: cardFile, svg: eventCardSvg(entry.card.hue) }]
  return { documents: [event], images }
}

/** Logo images of the participating companies named by the events. */
export function logoImages(companies: readonly string[]): PlaceholderImage[] {
  return companies.map((company, index) => ({ file: logoFile(company), svg: logoSvg(company, (index * 53) % 360) }))
}
