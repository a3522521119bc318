// Broken copies of the shipped dataset, one mistake each, with where the Studio reports it: the table that
// dataset.test.ts checks the Studio's validation against and validateContent.test.ts feeds to `pnpm content:validate`.

export type Item = Record<string, unknown>
/** The price option of an event with this key. */
const priceOf = (event: Item, key: string) => (event.priceOptions as Item[]).find((option) => option.key === key)!
/** The session of an event at this day and position. */
export const sessionOf = (event: Item, day: number, index: number) => (event.agendaDays as { sessions: Item[] }[])[day]!.sessions[index]!
const priceAt = (key: string, field: string) => `priceOptions[_key=="${key}"].${field}`
export const sessionAt = (key: string, field: string) => `agendaDays[_key=="day-1"].sessions[_key=="${key}"].${field}`

/** A mistake an editor can make: the document it is made in, the change, and where the Studio reports it. */
export interface BrokenContent {
  name: string
  id: string
  change: (document: Item) => void
  /** The path of the error, or the start of it. */
  path: string
  /** The documents that report it, when not (only) the changed one. */
  errorOn?: string[]
}

export const BROKEN_CONTENT: BrokenContent[] = [
  { name: 'an event without a title', id: 'event-resilience', change: (event) => delete event.title, path: 'title' },
  {
    name: 'an event that ends before it starts',
    id: 'event-pfas',
    change: (event) => (event.end = '2025-05-20T16:00:00+02:00'),
    path: 'end',
  },
  {
    name: 'registration closing after the event',
    id: 'event-legal-opinion',
    change: (event) => (event.registrationClosesAt = '2025-07-05T00:00:00+02:00'),
    path: 'registrationClosesAt',
  },
  {
    name: 'an event slug another event already uses',
    id: 'event-pfas',
    change: (event) => (event.slug = { _type: 'slug', current: 'Resilience' }),
    path: 'slug',
    errorOn: ['event-pfas', 'event-resilience'],
  },
  {
    name: 'an invalid contact e-mail',
    id: 'event-office-professionals',
    change: (event) => (event.contactEmail = 'events at example'),
    path: 'contactEmail',
  },
  { name: 'an event without tabs', id: 'event-board-management', change: (event) => (event.tabs = []), path: 'tabs' },
  {
    name: 'an early-bird date on the first day of the event',
    id: 'event-resilience',
    change: (event) => (priceOf(event, 'early-bird').earlyBirdUntil = '2025-07-23'),
    path: priceAt('price-resilience-early-bird', 'earlyBirdUntil'),
  },
  {
    name: 'an early-bird option without a date',
    id: 'event-pfas',
    change: (event) => delete priceOf(event, 'early-bird').earlyBirdUntil,
    path: priceAt('price-pfas-early-bird', 'earlyBirdUntil'),
  },
  { name: 'a negative price', id: 'event-pfas', change: (event) => (priceOf(event, 'online').amount = -1), path: priceAt('price-pfas-online', 'amount') },
  {
    name: 'a price with fractions of a cent',
    id: 'event-pfas',
    change: (event) => (priceOf(event, 'online').amount = 5490.555),
    path: priceAt('price-pfas-online', 'amount'),
  },
  {
    name: 'a price option without a label',
    id: 'event-pfas',
    change: (event) => delete priceOf(event, 'online').label,
    path: priceAt('price-pfas-online', 'label'),
  },
  { name: 'a venue capacity of no seats', id: 'event-pfas', change: (event) => (event.venueCapacity = 0), path: 'venueCapacity' },
  { name: 'an online capacity in fractions of a seat', id: 'event-pfas', change: (event) => (event.onlineCapacity = 2.5), path: 'onlineCapacity' },
  { name: 'a speaker without a photo', id: 'speaker-pfas-01', change: (speaker) => delete speaker.image, path: 'image' },
  {
    name: 'a photo without alternative text',
    id: 'speaker-pfas-02',
    change: (speaker) => delete (speaker.image as Item).alt,
    path: 'image.alt',
  },
  {
    name: 'a participating company logo without its name',
    id: 'event-resilience',
    change: (event) => delete (event.participatingCompanies as Item[])[0]!.alt,
    path: 'participatingCompanies[_key=="company-01"].alt',
  },
  {
    name: 'a listing card image without alternative text',
    id: 'event-pfas',
    change: (event) => delete ((event.card as Item).image as Item).alt,
    path: 'card.image.alt',
  },
  {
    name: 'a sponsor package without its complimentary seats',
    id: 'sponsor-gold',
    change: (tier) => delete tier.complimentarySeats,
    path: 'complimentarySeats',
  },
  {
    name: 'a participant discount above 100%',
    id: 'sponsor-gold',
    change: (tier) => (tier.participantDiscountPercent = 130),
    path: 'participantDiscountPercent',
  },
  {
    name: 'a page slug the site has no route for',
    id: 'page-mission',
    change: (page) => (page.slug = { _type: 'slug', current: 'about' }),
    path: 'slug',
  },
  {
    name: 'a page slug another page already uses',
    id: 'page-vision',
    change: (page) => (page.slug = { _type: 'slug', current: 'mission' }),
    path: 'slug',
    errorOn: ['page-mission', 'page-vision'],
  },
  { name: 'a division link that is not a path', id: 'division-workshops', change: (division) => (division.href = 'workshop'), path: 'href' },
  {
    name: 'the R 9 500 early-bird above the venue price',
    id: 'event-resilience',
    change: (event) => (priceOf(event, 'early-bird').amount = 9500),
    path: priceAt('price-resilience-early-bird', 'amount'),
  },
  {
    name: 'a table of 10 at R 1',
    id: 'event-resilience',
    change: (event) => (priceOf(event, 'table-10').amount = 1),
    path: priceAt('price-resilience-table-10', 'amount'),
  },
  {
    name: 'a table costing more a seat than the venue',
    id: 'event-pfas',
    change: (event) => (priceOf(event, 'table-5').amount = 40000),
    path: priceAt('price-pfas-table-5', 'amount'),
  },
  { name: 'a free option', id: 'event-pfas', change: (event) => (priceOf(event, 'table-5').amount = 0), path: priceAt('price-pfas-table-5', 'amount') },
  {
    name: 'an agenda time that is not a time',
    id: 'event-pfas',
    change: (event) => (sessionOf(event, 0, 0).start = 'banana'),
    path: sessionAt('session-pfas-d1-01', 'start'),
  },
  {
    name: 'a session ending before it starts',
    id: 'event-pfas',
    change: (event) => (sessionOf(event, 0, 0).end = '07:00'),
    path: sessionAt('session-pfas-d1-01', 'end'),
  },
  {
    name: 'sessions out of order',
    id: 'event-pfas',
    change: (event) => Object.assign(sessionOf(event, 0, 1), { start: '07:00', end: '07:15' }),
    path: sessionAt('session-pfas-d1-02', 'start'),
  },
  {
    name: 'a session before the event starts',
    id: 'event-pfas',
    change: (event) => Object.assign(sessionOf(event, 0, 0), { start: '06:30', end: '07:00' }),
    path: sessionAt('session-pfas-d1-01', 'start'),
  },
  {
    name: 'a session without a title',
    id: 'event-pfas',
    change: (event) => delete sessionOf(event, 0, 2).title,
    path: sessionAt('session-pfas-d1-03', 'title'),
  },
  {
    name: 'an agenda day outside the event',
    id: 'event-pfas',
    change: (event) => ((event.agendaDays as { date: string }[])[1]!.date = '2030-05-22'),
    path: 'agendaDays[_key=="day-2"].date',
  },
  {
    name: 'a session ending after the event on its last day',
    id: 'event-pfas',
    change: (event) => (sessionOf(event, 1, 9).end = '17:00'),
    path: 'agendaDays[_key=="day-2"].sessions[_key=="session-pfas-d2-10"].end',
  },
  {
    name: 'agenda days out of date order',
    id: 'event-pfas',
    change: (event) => {
      const [first, second] = event.agendaDays as { date: string }[]
      ;[first!.date, second!.date] = [second!.date, first!.date]
    },
    path: 'agendaDays[_key=="day-2"].date',
  },
  { name: 'a Speakers tab without speakers', id: 'event-legal-opinion', change: (event) => (event.tabs = ['overview', 'speakers']), path: 'tabs' },
  {
    name: 'an online price above the venue price',
    id: 'event-resilience',
    change: (event) => (priceOf(event, 'online').amount = 9990),
    path: priceAt('price-resilience-online', 'amount'),
  },
  {
    name: 'a table price typed in cents',
    id: 'event-resilience',
    change: (event) => (priceOf(event, 'table-5').amount = 3_495_000),
    path: priceAt('price-resilience-table-5', 'amount'),
  },
  {
    name: 'a venue price above the ceiling the site settings set',
    id: 'event-legal-opinion',
    change: (event) => (priceOf(event, 'venue').amount = 50_010),
    path: priceAt('price-legal-opinion-venue', 'amount'),
  },
  {
    name: 'two sessions overlapping with no room to tell them apart',
    id: 'event-resilience',
    change: (event) => {
      const sessions = (event.agendaDays as { sessions: Item[] }[])[0]!.sessions
      sessions.splice(2, 0, { _key: 'parallel-talk', _type: 'agendaSession', title: 'Parallel talk', start: sessions[1]!.start, end: sessions[1]!.end })
    },
    path: 'agendaDays[_key=="day-1"].sessions[_key=="parallel-talk"].start',
  },
  {
    name: 'a rich-text link to a path the site does not serve',
    id: 'page-terms',
    change: (page) => {
      const intro = page.intro as { markDefs: Item[] }[]
      intro[0]!.markDefs[0]!.href = '/termz'
    },
    path: 'intro[_key=="intro-1"].markDefs[_key=="intro-1-6-link"].href',
  },
  { name: 'a VAT rate of 50%', id: 'siteSettings', change: (settings) => (settings.vatRate = 50), path: 'vatRate' },
  { name: 'a VAT rate entered as a fraction', id: 'siteSettings', change: (settings) => (settings.vatRate = 0.15), path: 'vatRate' },
  {
    name: 'a reference to a missing document',
    id: 'event-pfas',
    change: (event) => ((event.speakers as { _ref: string }[])[0]!._ref = 'speaker-nobody'),
    path: 'speakers',
  },
]

/** The documents with one of them changed (a copy; the others are shared). */
export function withChange<T extends { _id: string }>(documents: T[], id: string, change: (document: Item) => void): T[] {
  return documents.map((document) => {
    if (document._id !== id) return document
    const copy = structuredClone(document) as unknown as Item
    change(copy)
    return copy as unknown as T
  })
}
