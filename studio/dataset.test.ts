import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { OPTION_KEYS, delegateCap } from '@events/pricing'
import type { SanityDocument } from 'sanity'
import { beforeAll, describe, expect, it } from 'vitest'
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

describe('the studio schema', () => {
  it('compiles without errors', () => {
    expect(() => compileStudioSchema()).not.toThrow()
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

  it('uses the delegate caps of the pricing package', () => {
    for (const option of documents.filter((document) => document._type === 'priceOption')) {
      const key = option.key as (typeof OPTION_KEYS)[number]
      expect(OPTION_KEYS).toContain(key)
      expect(option.cap, option._id).toBe(delegateCap(key))
    }
  })
})

describe('the studio rules reject broken content', () => {
  // `errorOn` names the documents that report the problem when it is not (only) the changed one.
  const cases: { name: string; id: string; change: (document: Record<string, unknown>) => void; path: string; errorOn?: string[] }[] = [
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
      id: 'price-resilience-early-bird',
      change: (option) => (option.earlyBirdUntil = '2025-07-23'),
      path: 'priceOptions',
      errorOn: ['event-resilience'],
    },
    {
      name: 'an early-bird option without a date',
      id: 'price-pfas-early-bird',
      change: (option) => delete option.earlyBirdUntil,
      path: 'earlyBirdUntil',
    },
    { name: 'a cap on a per-delegate option', id: 'price-pfas-venue', change: (option) => (option.cap = 5), path: 'cap' },
    { name: 'a table cap that does not match its size', id: 'price-pfas-table-10', change: (option) => (option.cap = 12), path: 'cap' },
    { name: 'a negative price', id: 'price-pfas-online', change: (option) => (option.amount = -1), path: 'amount' },
    { name: 'a price with fractions of a cent', id: 'price-pfas-online', change: (option) => (option.amount = 5490.555), path: 'amount' },
    { name: 'a speaker without a photo', id: 'speaker-pfas-01', change: (speaker) => delete speaker.image, path: 'image' },
    {
      name: 'a photo without alternative text',
      id: 'speaker-pfas-02',
      change: (speaker) => delete (speaker.image as Record<string, unknown>).alt,
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
    { name: 'a reference to a missing document', id: 'event-pfas', change: (event) => ((event.speakers as { _ref: string }[])[0]!._ref = 'speaker-nobody'), path: 'speakers' },
  ]

  it.each(cases)('$name', async ({ id, change, path, errorOn = [id] }) => {
    const errors = errorsOf(await validateDataset(withChange(id, change), assetIds))
    expect(errors.length, JSON.stringify(errors)).toBeGreaterThan(0)
    expect(errors.every((marker) => errorOn.includes(marker.documentId) && marker.path.startsWith(path)), JSON.stringify(errors)).toBe(true)
    expect(new Set(errors.map((marker) => marker.documentId))).toEqual(new Set(errorOn))
  })
})
