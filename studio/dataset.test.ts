import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { OPTION_KEYS } from '@events/pricing'
import type { SanityDocument } from 'sanity'
import { beforeAll, describe, expect, it } from 'vitest'
import { slugFromTitle } from './lib/slugs.ts'
import { sessionAt, sessionOf, withChange as withChangeOf, type Item } from './brokenContent.fixture.ts'
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
const withChange = (id: string, change: (document: Item) => void) => withChangeOf(documents, id, change)

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

// The table of broken content, checked against the Studio's validation and `pnpm content:validate`, is in
// validateContent.test.ts.
describe('the studio rules', () => {
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
})
