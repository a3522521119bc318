import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { OPTION_KEYS } from '@events/pricing'
import type { SanityDocument } from 'sanity'
import { beforeAll, describe, expect, it } from 'vitest'
import { slugFromTitle } from './lib/slugs.ts'
import { compileStudioSchema, importedDocuments, readNdjson, validateDataset } from './lib/datasetValidation.ts'

const datasetDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/content/dataset')

let documents: SanityDocument[]
let assetIds: Set<string>

beforeAll(async () => {
  const imported = await importedDocuments(await readNdjson(path.join(datasetDir, 'production.ndjson')), datasetDir)
  documents = imported.documents
  assetIds = imported.assetIds
})

function errorsOf(markers: Awaited<ReturnType<typeof validateDataset>>) {
  return markers.filter((marker) => marker.level === 'error')
}

/** The dataset with one document changed. */
function withChange(id: string, change: (document: Record<string, unknown>) => void): SanityDocument[] {
  return documents.map((document) => {
    if (document._id !== id) return document
    const copy = structuredClone(document) as Record<string, unknown>
    change(copy)
    return copy as SanityDocument
  })
}

type FieldType = { name: string; jsonType?: string; type?: FieldType | null; options?: object; fields?: { name: string; type: FieldType }[] }

function datetimeFields(type: FieldType, path: string): { path: string; options?: object }[] {
  const isDatetime = (candidate: FieldType | null | undefined): boolean => candidate != null && (candidate.name === 'datetime' || isDatetime(candidate.type))
  if (isDatetime(type)) return [{ path, options: type.options }]
  return (type.fields ?? []).flatMap((field) => datetimeFields(field.type, path ? `${path}.${field.name}` : field.name))
}

describe('the studio schema', () => {
  it('compiles without errors', () => {
    expect(() => compileStudioSchema()).not.toThrow()
  })

  it('generates event slugs from the title', () => {
    const event = compileStudioSchema().get('event') as FieldType
    const slug = event.fields?.find((field) => field.name === 'slug')
    expect(slug?.type.options).toMatchObject({ source: 'title', slugify: slugFromTitle })
  })

  it('shows and takes every datetime in Africa/Johannesburg, whatever the browser says', () => {
    const schema = compileStudioSchema()
    const fields = schema.getTypeNames().flatMap((name) => {
      const type = schema.get(name) as FieldType
      return type.jsonType === 'object' && (type.type as FieldType | undefined)?.name === 'document' ? datetimeFields(type, name) : []
    })
    expect(fields.map((field) => field.path).sort()).toEqual(['event.end', 'event.registrationClosesAt', 'event.start'])
    for (const field of fields) {
      expect(field.options, field.path).toMatchObject({ displayTimeZone: 'Africa/Johannesburg', allowTimeZoneSwitch: false })
    }
  })
})

describe('the shipped dataset', () => {
  it('passes every rule of the studio schema', async () => {
    const markers = await validateDataset(documents, assetIds)
    expect(errorsOf(markers)).toEqual([])
    // Editors see a warning for each document with placeholders, and nothing else.
    expect(markers.filter((marker) => marker.path !== 'placeholders')).toEqual([])
    expect(markers.length).toBeGreaterThan(0)
  })

  it('leaves the delegate caps to the pricing package: no price option repeats one', () => {
    const options = documents.flatMap((document) => (document._type === 'event' ? (document.priceOptions as Record<string, unknown>[]) : []))
    expect(options.length).toBeGreaterThan(0)
    for (const option of options) {
      expect(OPTION_KEYS).toContain(option.key)
      expect(option, String(option._key)).not.toHaveProperty('cap')
    }
  })
})

type Item = Record<string, unknown>
/** The price option of an event with this key. */
const priceOf = (event: Item, key: string) => (event.priceOptions as Item[]).find((option) => option.key === key)!
/** The session of an event at this day and position. */
const sessionOf = (event: Item, day: number, index: number) => ((event.agendaDays as { sessions: Item[] }[])[day]!.sessions)[index]!
const priceAt = (key: string, field: string) => `priceOptions.[_key=="${key}"].${field}`
const sessionAt = (key: string, field: string) => `agendaDays.[_key=="day-1"].sessions.[_key=="${key}"].${field}`

describe('the studio rules reject broken content', () => {
  // `errorOn` names the documents that report the problem when it is not (only) the changed one.
  const cases: {
    name: string
    id: string
    change: (document: Item) => void
    path: string
    errorOn?: string[]
  }[] = [
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
    { name: 'a price option without a label', id: 'event-pfas', change: (event) => delete priceOf(event, 'online').label, path: priceAt('price-pfas-online', 'label') },
    { name: 'a speaker without a photo', id: 'speaker-pfas-01', change: (speaker) => delete speaker.image, path: 'image' },
    {
      name: 'a photo without alternative text',
      id: 'speaker-pfas-02',
      change: (speaker) => delete (speaker.image as Item).alt,
      path: 'image.alt',
    },
    { name: 'a sponsor package without benefits', id: 'sponsor-gold', change: (tier) => (tier.benefits = []), path: 'benefits' },
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
    { name: 'a session without a title', id: 'event-pfas', change: (event) => delete sessionOf(event, 0, 2).title, path: sessionAt('session-pfas-d1-03', 'title') },
    {
      name: 'an agenda day outside the event',
      id: 'event-pfas',
      change: (event) => ((event.agendaDays as { date: string }[])[1]!.date = '2030-05-22'),
      path: 'agendaDays.[_key=="day-2"].date',
    },
    { name: 'a Speakers tab without speakers', id: 'event-legal-opinion', change: (event) => (event.tabs = ['overview', 'speakers']), path: 'tabs' },
    { name: 'a VAT rate of 50%', id: 'siteSettings', change: (settings) => (settings.vatRate = 0.5), path: 'vatRate' },
    { name: 'a reference to a missing document', id: 'event-pfas', change: (event) => ((event.speakers as { _ref: string }[])[0]!._ref = 'speaker-nobody'), path: 'speakers' },
  ]

  it('warns about a session presented by a speaker the event does not list', async () => {
    const change = (event: Item) => (sessionOf(event, 0, 2).speakers = [{ _key: 'x', _type: 'reference', _ref: 'speaker-resilience-01' }])
    const markers = await validateDataset(withChange('event-pfas', change), assetIds)
    expect(errorsOf(markers)).toEqual([])
    expect(markers.filter((marker) => marker.path !== 'placeholders')).toEqual([
      {
        documentId: 'event-pfas',
        level: 'warning',
        path: sessionAt('session-pfas-d1-03', 'speakers'),
        message: 'Day 1: "09:00 Keynote: PFAS, the forever chemicals, and why they matter" is presented by a speaker who is not on the event\'s Speakers list',
      },
    ])
  })

  it('runs the redirect rule in the studio over the published events, pages and redirects', async () => {
    const redirects = [
      { _id: 'redirect-ok', _type: 'redirect', from: '/conference/PFAS-2024', to: '/conference/pfas' },
      { _id: 'redirect-gone', _type: 'redirect', from: '/conference/old', to: '/conference/gone' },
      // A draft is not yet on the site: it neither makes a path exist nor counts towards a loop.
      { _id: 'drafts.event-pfas', _type: 'event', kind: 'conference', slug: { _type: 'slug', current: 'gone' } },
    ] as unknown as SanityDocument[]
    const markers = await validateDataset([...documents, ...redirects], assetIds)
    expect(errorsOf(markers).filter((marker) => marker.documentId.startsWith('redirect-'))).toEqual([
      {
        documentId: 'redirect-gone',
        level: 'error',
        path: 'to',
        message: 'Nothing on the site is at /conference/gone: point the redirect at an existing event or page',
      },
    ])
  })

  it.each(cases)('$name', async ({ id, change, path, errorOn = [id] }) => {
    const errors = errorsOf(await validateDataset(withChange(id, change), assetIds))
    expect(errors.length, JSON.stringify(errors)).toBeGreaterThan(0)
    expect(errors.every((marker) => errorOn.includes(marker.documentId) && marker.path.startsWith(path)), JSON.stringify(errors)).toBe(true)
    expect(new Set(errors.map((marker) => marker.documentId))).toEqual(new Set(errorOn))
  })
})
