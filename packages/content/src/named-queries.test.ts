import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createContentClient } from './client.ts'
import { createLocalContentSource } from './local-source.ts'
import { fetchNamedContent, parseContentQuery } from './named-queries.ts'
import { serveFetchHandler, type TestServer } from './__fixtures__/serve.ts'

const searchParams = (search: string) => [...new URLSearchParams(search)]

describe('parseContentQuery', () => {
  it.each([
    ['siteSettings', '', {}],
    ['page', 'slug=inhouse-training', { slug: 'inhouse-training' }],
    ['eventCards', 'kind=workshop', { kind: 'workshop' }],
    ['eventPage', 'slug=Resilience&kind=conference', { kind: 'conference', slug: 'Resilience' }],
  ])('accepts %s?%s', (name, search, params) => {
    expect(parseContentQuery(name, searchParams(search))).toEqual({ ok: true, name, params })
  })

  it.each(['registrationEvent', 'eventSlugs', 'placeholders', '*[_type == "event"]', 'toString', '__proto__', 'constructor', ''])(
    'refuses %j as an unknown query',
    (name) => {
      const parsed = parseContentQuery(name, [])
      expect(parsed).toMatchObject({ ok: false, refusal: { code: 'unknown-query' } })
    },
  )

  it.each([
    ['page', '', { slug: 'This parameter is required.' }],
    ['page', 'slug=home&slug=terms', { slug: 'Give this parameter once.' }],
    ['page', 'slug=home&query=*', { query: 'This content takes no such parameter.' }],
    ['page', 'slug=home"] | *[_type != "', { slug: 'This value is not in the expected form.' }],
    ['page', 'slug=', { slug: 'This value is not in the expected form.' }],
    ['page', `slug=${'a'.repeat(97)}`, { slug: 'This value is not in the expected form.' }],
    ['eventPage', 'kind=seminar&slug=pfas', { kind: 'This value is not in the expected form.' }],
    ['eventCards', 'kind=conference&perspective=raw', { perspective: 'This content takes no such parameter.' }],
    ['siteSettings', '$slug="x"', { $slug: 'This content takes no such parameter.' }],
  ])('refuses %s?%s with a message per field', (name, search, fields) => {
    expect(parseContentQuery(name, searchParams(search))).toEqual({
      ok: false,
      refusal: { code: 'invalid-params', message: 'The content parameters are not valid.', fields },
    })
  })
})

describe('fetchNamedContent', () => {
  const datasetPath = path.join(fileURLToPath(new URL('./__fixtures__/dataset', import.meta.url)), 'production.ndjson')
  let server: TestServer

  beforeAll(async () => {
    server = await serveFetchHandler(createLocalContentSource({ datasetPath }).handleContentRequest)
  })

  afterAll(async () => {
    await server.close()
  })

  it('runs the named query with its parameters through the content client', async () => {
    const client = createContentClient({}, { localApiHost: server.origin })
    const event = await fetchNamedContent(client, 'eventPage', { kind: 'conference', slug: 'Resilience' })
    expect(event).toMatchObject({ kind: 'conference', slug: 'Resilience' })
    expect(await fetchNamedContent(client, 'eventPage', { kind: 'workshop', slug: 'Resilience' })).toBeNull()
  })
})
