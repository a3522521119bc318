import { fileURLToPath } from 'node:url'
import { evaluate, parse } from 'groq-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createContentClient } from './client.ts'
import type { SanityDocument } from './dataset.ts'
import { createLocalContentSource } from './local-source.ts'
import * as siteQueries from './queries.ts'
import { serveFetchHandler, type TestServer } from './__fixtures__/serve.ts'

// Every query the site sends; each runs with every parameter set below (GROQ ignores unused params).
const queries = Object.entries(siteQueries as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string')

const datasets = [
  { name: 'the test fixture', path: fileURLToPath(new URL('./__fixtures__/dataset/production.ndjson', import.meta.url)) },
  { name: 'the shipped dataset', path: fileURLToPath(new URL('../dataset/production.ndjson', import.meta.url)) },
]

// The business clock the tests run at (SITE_DATE), as the home page passes it.
const now = '2025-03-01T07:00:00.000Z'

// The slugs, kinds and document ids the site's routes pass, taken from the documents, plus one that matches nothing;
// and "now".
function paramSetsFor(documents: SanityDocument[]): Record<string, string>[] {
  const slugOf = (document: SanityDocument) => (document.slug as { current?: string } | undefined)?.current ?? ''
  return withNow([
    ...documents.filter((document) => document._type === 'event').map((event) => ({ slug: slugOf(event), kind: String(event.kind), id: event._id })),
    ...documents.filter((document) => document._type === 'page').map((page) => ({ slug: slugOf(page), kind: 'conference', id: page._id })),
    { slug: 'no-such-slug', kind: 'workshop', id: 'no-such-id' },
  ])
}

function withNow(sets: Record<string, string>[]): Record<string, string>[] {
  return sets.map((params) => ({ ...params, now }))
}

describe.each(datasets)('the site’s queries over $name', ({ path }) => {
  const source = createLocalContentSource({ datasetPath: path })
  let server: TestServer

  beforeAll(async () => {
    server = await serveFetchHandler(source.handleContentRequest)
  })

  afterAll(async () => {
    await server.close()
  })

  it('covers the site’s queries', () => {
    expect(queries.length).toBeGreaterThan(0)
  })

  it.each(queries)('%s gives the same result through @sanity/client as through groq-js', async (_name, query) => {
    const client = createContentClient({}, { localApiHost: server.origin })
    const dataset = await source.documents()
    for (const params of paramSetsFor(dataset)) {
      const expected = await (await evaluate(parse(query, { params }), { dataset, params })).get()
      expect(await client.fetch(query, params), JSON.stringify(params)).toEqual(expected)
    }
  })
})

describe('upcomingEventsQuery over the shipped dataset', () => {
  const source = createLocalContentSource({ datasetPath: datasets[1]!.path })
  const upcoming = async (at: string) => {
    const query = parse(siteQueries.upcomingEventsQuery, { params: { now: at } })
    return (await (await evaluate(query, { dataset: await source.documents(), params: { now: at } })).get()) as Array<{ slug: string; start: string }>
  }

  it('lists the listed events that have not started, soonest first, with their price options', async () => {
    const events = await upcoming(now)
    expect(events.map((event) => event.slug)).toEqual(['legalSecreatary', 'legalOpinion', 'officeP', 'Resilience'])
    const starts = events.map((event) => Date.parse(event.start))
    expect(starts).toEqual([...starts].sort((a, b) => a - b))
    expect((events[0] as { priceOptions?: unknown[] }).priceOptions?.length).toBeGreaterThan(0)
  })

  it('compares instants, not strings: an event leaves the list once it has started', async () => {
    expect((await upcoming('2025-07-03T12:00:00+02:00')).map((event) => event.slug)).toEqual(['Resilience'])
    expect(await upcoming('2025-07-24T00:00:00Z')).toEqual([])
  })
})
