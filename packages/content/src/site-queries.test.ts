import { fileURLToPath } from 'node:url'
import { evaluate, parse } from 'groq-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createContentClient } from './client.ts'
import type { SanityDocument } from './dataset.ts'
import { createLocalContentSource } from './local-source.ts'
import * as siteQueries from './queries.ts'
import { serveFetchHandler, type TestServer } from './__fixtures__/serve.ts'

// Every query the site sends; each runs with every parameter set below (GROQ ignores unused params).
const queries = Object.entries(siteQueries as Record<string, unknown>).filter(
  (entry): entry is [string, string] => typeof entry[1] === 'string',
)

const datasets = [
  { name: 'the test fixture', path: fileURLToPath(new URL('./__fixtures__/dataset/production.ndjson', import.meta.url)) },
  { name: 'the shipped dataset', path: fileURLToPath(new URL('../dataset/production.ndjson', import.meta.url)) },
]

// The slugs and kinds the site's routes pass, taken from the documents, plus one that matches nothing.
function paramSetsFor(documents: SanityDocument[]): Record<string, string>[] {
  const slugOf = (document: SanityDocument) => (document.slug as { current?: string } | undefined)?.current ?? ''
  return [
    ...documents.filter((document) => document._type === 'event').map((event) => ({ slug: slugOf(event), kind: String(event.kind) })),
    ...documents.filter((document) => document._type === 'page').map((page) => ({ slug: slugOf(page), kind: 'conference' })),
    { slug: 'no-such-slug', kind: 'workshop' },
  ]
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
