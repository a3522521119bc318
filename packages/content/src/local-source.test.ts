import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ClientError, type SanityClient } from '@sanity/client'
import { evaluate, parse } from 'groq-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createContentClient } from './client.ts'
import { loadDataset, type SanityDocument } from './dataset.ts'
import { createLocalContentSource, type LocalContentSource } from './local-source.ts'
import { serveFetchHandler, type TestServer } from './__fixtures__/serve.ts'

const fixtureDir = fileURLToPath(new URL('./__fixtures__/dataset', import.meta.url))
const datasetPath = path.join(fixtureDir, 'production.ndjson')

let source: LocalContentSource
let server: TestServer
let client: SanityClient
let publishedDocuments: SanityDocument[]

beforeAll(async () => {
  source = createLocalContentSource({ datasetPath })
  server = await serveFetchHandler(source.handleContentRequest)
  client = createContentClient({}, { localApiHost: server.origin })
  const { documents } = await loadDataset({ datasetPath, assetBasePath: '/_content' })
  publishedDocuments = documents.filter((document) => !document._id.startsWith('drafts.'))
})

afterAll(async () => {
  await server.close()
})

async function evaluateDirectly(query: string, params: Record<string, unknown> = {}): Promise<unknown> {
  const value = await evaluate(parse(query, { params }), { dataset: publishedDocuments, params })
  return value.get()
}

function queryUrl(search: Record<string, string>, dataset = 'production'): string {
  return `${server.origin}/_content/v2025-02-19/data/query/${dataset}?${new URLSearchParams(search)}`
}

describe('@sanity/client against the local endpoint', () => {
  const cases: { name: string; query: string; params?: Record<string, unknown> }[] = [
    { name: 'filter by type', query: '*[_type == "division"]' },
    { name: 'projection', query: '*[_type == "event"]{title, "slug": slug.current, kind}' },
    { name: 'order and slice', query: '*[_type == "division"] | order(order asc)[0...2]{title, href}' },
    { name: 'order desc by datetime', query: '*[_type == "event"] | order(start desc).code' },
    { name: 'single document', query: '*[_id == "siteSettings"][0]' },
    { name: 'string param', query: '*[_type == "event" && slug.current == $slug][0]{title, code}', params: { slug: 'Resilience' } },
    { name: 'array param', query: '*[_type == "event" && slug.current in $slugs].code', params: { slugs: ['pfas', 'legalOpinion'] } },
    {
      name: 'number and boolean params',
      query: '*[_type == "priceOption" && amount > $min && defined(earlyBirdUntil) == $earlyBird].key',
      params: { min: 1000, earlyBird: false },
    },
    {
      name: 'dereferencing arrays',
      query: '*[_type == "event" && slug.current == "Resilience"][0]{"speakers": speakers[]->{name, position}, "prices": priceOptions[]->{key, amount}}',
    },
    {
      name: 'nested dereferencing in agenda days',
      query: '*[_type == "event"][0].agendaDays[]{label, date, "sessions": sessions[]->{time, title, speaker, isBreak}}',
    },
    {
      name: 'image asset url and dimensions',
      query: '*[_type == "speaker"] | order(name asc){name, "image": image{alt, "url": asset->url, "dimensions": asset->metadata.dimensions}}',
    },
    { name: 'count', query: '{"events": count(*[_type == "event"]), "listed": count(*[_type == "event" && card.listed])}' },
    { name: 'coalesce', query: '*[_type == "event"] | order(code asc){code, "closes": coalesce(registrationClosesAt, start)}' },
    { name: 'defined', query: '*[_type == "priceOption" && defined(earlyBirdUntil)].key' },
    { name: 'select', query: '*[_type == "event"] | order(code asc){code, "label": select(kind == "conference" => "Conference", "Workshop")}' },
    {
      name: 'dateTime comparison',
      query: '*[_type == "event" && dateTime(start) > dateTime($now)] | order(start asc).code',
      params: { now: '2025-04-01T00:00:00Z' },
    },
    { name: 'references()', query: '*[_type == "event" && references($speaker)].code', params: { speaker: 'speaker-sipho' } },
    { name: 'reverse lookup with ^', query: '*[_type == "speaker"]{name, "events": *[_type == "event" && references(^._id)].code}' },
    { name: 'missing document', query: '*[_id == "missing"][0]' },
  ]

  it.each(cases)('$name gives the same result as groq-js', async ({ query, params = {} }) => {
    const expected = await evaluateDirectly(query, params)
    expect(await client.fetch(query, params)).toEqual(expected)
  })

  it('returns the dataset’s images with the asset URL and the SVG dimensions', async () => {
    const speaker = await client.fetch<{ url: string; dimensions: Record<string, unknown> }>(
      '*[_id == "speaker-jane"][0].image{"url": asset->url, "dimensions": asset->metadata.dimensions}',
    )
    expect(speaker.url).toBe('/_content/images/speaker-jane.svg')
    expect(speaker.dimensions).toEqual({ _type: 'sanity.imageDimensions', width: 400, height: 500, aspectRatio: 0.8 })
  })

  it('sends long queries as POST and still matches groq-js', async () => {
    const ids = Array.from({ length: 1500 }, (_, index) => `not-a-document-${index}`)
    const query = '*[_type == "event" && !(_id in $ids)] | order(code asc).code'
    const before = server.requests.length
    const result = await client.fetch(query, { ids })
    expect(server.requests.slice(before).map((request) => request.method)).toEqual(['POST'])
    expect(result).toEqual(await evaluateDirectly(query, { ids }))
  })

  it('sends short queries as GET', async () => {
    const before = server.requests.length
    await client.fetch('count(*)')
    expect(server.requests.slice(before).map((request) => request.method)).toEqual(['GET'])
  })

  it('excludes drafts under the published perspective', async () => {
    const ids = await client.fetch<string[]>('*[_type in ["event", "speaker"]]._id')
    expect(ids).not.toContain('drafts.event-unpublished')
    expect(ids).not.toContain('drafts.speaker-jane')
    expect(await client.fetch('*[_id == "speaker-jane"][0].name')).toBe('Dr Jane Doe')
  })

  it('throws a ClientError carrying the parse error for a malformed query', async () => {
    const failure = await client.fetch('*[_type == "event"]{title').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(ClientError)
    const clientError = failure as ClientError
    expect(clientError.statusCode).toBe(400)
    expect(clientError.message).toContain('GROQ query parse error')
    expect(clientError.message).toContain('Unexpected end of query')
    expect(clientError.details).toMatchObject({ type: 'queryParseError', query: '*[_type == "event"]{title' })
  })
})

describe('query API shape', () => {
  it('answers GET with query, result and ms', async () => {
    const response = await fetch(queryUrl({ query: '*[_type == $type].title', $type: '"division"' }))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const body = await response.json()
    expect(body).toEqual({ query: '*[_type == $type].title', result: expect.any(Array), ms: expect.any(Number) })
    expect(body.result).toHaveLength(3)
  })

  it('omits the query when returnQuery=false', async () => {
    const body = await (await fetch(queryUrl({ query: 'count(*[_type == "division"])', returnQuery: 'false' }))).json()
    expect(body).toEqual({ result: 3, ms: expect.any(Number) })
  })

  it('answers POST with a JSON body of query and params', async () => {
    const response = await fetch(queryUrl({}), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '*[slug.current == $slug][0].code', params: { slug: 'pfas' } }),
    })
    expect(response.status).toBe(200)
    expect((await response.json()).result).toBe('PFAS2025')
  })

  const badRequests: { name: string; url: () => string; init?: RequestInit; error: Record<string, unknown> }[] = [
    {
      name: 'a syntax error',
      url: () => queryUrl({ query: '*[_type == "event"' }),
      error: { type: 'queryParseError', query: '*[_type == "event"', start: expect.any(Number), description: 'Unexpected end of query' },
    },
    {
      name: 'an unknown function',
      url: () => queryUrl({ query: '*[nope(title)]' }),
      error: { type: 'queryParseError', query: '*[nope(title)]', start: 0, end: 14, description: 'Undefined function: nope' },
    },
    {
      name: 'a function groq-js does not implement',
      url: () => queryUrl({ query: 'geo::distance(1, 2)' }),
      error: { type: 'queryExecutionError', query: 'geo::distance(1, 2)', description: expect.any(String) },
    },
    {
      name: 'a param that is not provided',
      url: () => queryUrl({ query: '*[slug.current == $slug]' }),
      error: { type: 'queryParseError', start: 18, end: 23, description: 'param $slug referenced, but not provided' },
    },
    {
      name: 'an unquoted string param',
      url: () => queryUrl({ query: '*[slug.current == $slug]', $slug: 'pfas' }),
      error: { type: 'httpBadRequest', description: 'Unable to parse value of "$slug=pfas". Please quote string values.' },
    },
    {
      name: 'a missing query',
      url: () => queryUrl({}),
      error: { type: 'httpBadRequest' },
    },
    {
      name: 'a POST body that is not JSON',
      url: () => queryUrl({}),
      init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":' },
      error: { type: 'httpBadRequest' },
    },
    {
      name: 'an invalid API version',
      url: () => `${server.origin}/_content/vlatest/data/query/production?query=*`,
      error: { type: 'httpBadRequest' },
    },
  ]

  it.each(badRequests)('answers $name with 400 and Sanity’s error shape', async ({ url, init, error }) => {
    const response = await fetch(url(), init)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: expect.objectContaining(error) })
  })

  it('answers an oversized POST body with 413', async () => {
    const response = await fetch(queryUrl({}), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '*', params: { padding: 'x'.repeat(300 * 1024) } }),
    })
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ error: { type: 'httpPayloadTooLarge' } })
  })

  it('answers an unknown dataset with 404', async () => {
    const response = await fetch(queryUrl({ query: '*' }, 'staging'))
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({
      error: { type: 'httpNotFound', description: 'Dataset "staging" not found for project ID "local"' },
    })
  })

  it.each(['raw', 'drafts', 'previewDrafts'])('refuses the %s perspective without a preview token configured', async (perspective) => {
    const response = await fetch(queryUrl({ query: '*[_id in path("drafts.**")]._id', perspective }), {
      headers: { authorization: 'Bearer anything' },
    })
    expect(response.status).toBe(401)
    const body = await response.text()
    expect(JSON.parse(body)).toEqual({
      error: { type: 'httpUnauthorized', description: `The "${perspective === 'raw' ? 'raw' : 'drafts'}" perspective needs a preview token` },
    })
    expect(body).not.toContain('drafts.speaker-jane')
    await expect(client.fetch('*[_type == "speaker"]._id', {}, { perspective: 'raw' })).rejects.toMatchObject({ statusCode: 401 })
  })
})

describe('a source with a preview token', () => {
  const previewToken = 'preview-token-for-tests'
  let previewServer: TestServer

  beforeAll(async () => {
    const previewSource = createLocalContentSource({ datasetPath, previewToken })
    previewServer = await serveFetchHandler(previewSource.handleContentRequest)
  })

  afterAll(async () => {
    await previewServer.close()
  })

  it('answers the raw and drafts perspectives to a client presenting the token', async () => {
    const previewClient = createContentClient({}, { localApiHost: previewServer.origin }).withConfig({ token: previewToken })
    const raw = await previewClient.fetch<string[]>('*[_type == "speaker"]._id', {}, { perspective: 'raw' })
    expect(raw).toContain('drafts.speaker-jane')
    const drafts = await previewClient.fetch('*[_id == "speaker-jane"][0]{name, _originalId}', {}, { perspective: 'drafts' })
    expect(drafts).toEqual({ name: 'Dr Jane Doe (draft)', _originalId: 'drafts.speaker-jane' })
    expect(await previewClient.fetch('count(*[_type == "event"])', {}, { perspective: 'drafts' })).toBe(4)
  })

  it.each([
    ['no token', undefined],
    ['another token', 'Bearer not-the-preview-token'],
    ['the token without the Bearer scheme', previewToken],
  ])('refuses drafts with %s, and answers it the published documents', async (_name, authorization) => {
    const headers: Record<string, string> = authorization ? { authorization } : {}
    const url = `${previewServer.origin}/_content/v2025-02-19/data/query/production?${new URLSearchParams({ query: '*[_id == "speaker-jane"][0].name' })}`
    const drafts = await fetch(`${url}&perspective=drafts`, { headers })
    expect(drafts.status).toBe(401)
    expect(await drafts.text()).not.toContain('(draft)')
    expect((await (await fetch(url, { headers })).json()).result).toBe('Dr Jane Doe')
  })
})

describe('the asset-only handler for a public port', () => {
  let publicServer: TestServer

  beforeAll(async () => {
    publicServer = await serveFetchHandler(source.handleAssetRequest)
  })

  afterAll(async () => {
    await publicServer.close()
  })

  it('serves the dataset’s images', async () => {
    const response = await fetch(`${publicServer.origin}/_content/images/speaker-jane.svg`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/svg+xml')
  })

  it.each([
    ['GET', '/_content/v2025-02-19/data/query/production?query=count(*)'],
    ['GET', '/_content/v2025-02-19/data/query/production?query=count(*)&perspective=raw'],
    ['GET', '/_content/v1/data/query/production?query=count(*)'],
    ['GET', '/_content/health'],
    ['GET', '/_content'],
    ['POST', '/_content/v2025-02-19/data/query/production'],
    ['POST', '/_content/images/speaker-jane.svg'],
  ])('refuses %s %s without evaluating anything', async (method, path) => {
    const response = await fetch(`${publicServer.origin}${path}`, {
      method,
      ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'count(*)' }) } : {}),
    })
    expect([404, 405]).toContain(response.status)
    expect(await response.text()).not.toMatch(/"result"/)
  })
})

describe('asset files, health and routing', () => {
  it('serves dataset images with content type, ETag and caching', async () => {
    const response = await fetch(`${server.origin}/_content/images/speaker-jane.svg`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/svg+xml')
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/)
    expect(await response.text()).toBe(await readFile(path.join(fixtureDir, 'images/speaker-jane.svg'), 'utf8'))
    const etag = response.headers.get('etag')
    expect(etag).toMatch(/^".+"$/)

    const revalidated = await fetch(`${server.origin}/_content/images/speaker-jane.svg`, { headers: { 'if-none-match': etag ?? '' } })
    expect(revalidated.status).toBe(304)
    const weaklyRevalidated = await fetch(`${server.origin}/_content/images/speaker-jane.svg`, {
      headers: { 'if-none-match': `"other", W/${etag}` },
    })
    expect(weaklyRevalidated.status).toBe(304)
  })

  it('serves PNG images with their dimensions in the asset document', async () => {
    const logo = await client.fetch<{ url: string; width: number; height: number; mimeType: string }>(
      '*[_id == "event-resilience"][0].participatingCompanies[0].asset->{url, mimeType, "width": metadata.dimensions.width, "height": metadata.dimensions.height}',
    )
    expect(logo).toEqual({ url: '/_content/images/partner-logo.png', mimeType: 'image/png', width: 3, height: 2 })
    const response = await fetch(`${server.origin}${logo.url}`)
    expect(response.headers.get('content-type')).toBe('image/png')
  })

  it('serves dataset files with their content type', async () => {
    const brochure = await client.fetch<{ url: string }>('*[_id == "event-pfas"][0].brochure.asset->{url}')
    const response = await fetch(`${server.origin}${brochure.url}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(await response.text()).toBe('Programme brochure placeholder.\n')
  })

  it('answers 404 for files the dataset does not reference and for paths outside the dataset', async () => {
    for (const assetPath of ['images/unknown.svg', 'production.ndjson', 'images/..%2F..%2Fdataset.ts', '..%2Fserve.ts', 'images/%E0%A4%A']) {
      const response = await fetch(`${server.origin}/_content/${assetPath}`)
      expect(response.status, assetPath).toBe(404)
    }
  })

  it('reports health over HTTP and through ping()', async () => {
    const response = await fetch(`${server.origin}/_content/health`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true, documents: expect.any(Number) })
    expect(await source.ping()).toEqual({ ok: true, documents: publishedDocuments.length })
  })

  it('declines requests outside its prefix', async () => {
    expect(await source.handleContentRequest(new Request('http://localhost/events/pfas'))).toBeUndefined()
    expect(await source.handleContentRequest(new Request('http://localhost/_contentious'))).toBeUndefined()
  })
})

describe('dataset file changes', () => {
  let workDir: string

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), 'content-source-'))
    await cp(fixtureDir, workDir, { recursive: true })
  })

  afterAll(async () => {
    await rm(workDir, { recursive: true, force: true })
  })

  it('shows an edit to the NDJSON file on the next request', async () => {
    const editedPath = path.join(workDir, 'production.ndjson')
    const editable = createLocalContentSource({ datasetPath: editedPath })
    const editableServer = await serveFetchHandler(editable.handleContentRequest)
    try {
      const editableClient = createContentClient({}, { localApiHost: editableServer.origin })
      const siteName = '*[_id == "siteSettings"][0].siteName'
      expect(await editableClient.fetch(siteName)).toBe('Fixture Events')

      const original = await readFile(editedPath, 'utf8')
      await writeFile(editedPath, original.replace('"siteName":"Fixture Events"', '"siteName":"Renamed Events Company"'))
      expect(await editableClient.fetch(siteName)).toBe('Renamed Events Company')

      await writeFile(editedPath, `${original}{"_id":"division-new","_type":"division","title":"New","href":"/new"}\n`)
      expect(await editableClient.fetch('count(*[_type == "division"])')).toBe(4)
    } finally {
      await editableServer.close()
    }
  })

  it('answers 500 while the dataset file is broken, logs why, and recovers once it is fixed', async () => {
    const editedPath = path.join(workDir, 'production.ndjson')
    const reported: unknown[] = []
    const editable = createLocalContentSource({ datasetPath: editedPath, onError: (error) => reported.push(error) })
    const original = await readFile(editedPath, 'utf8')
    await writeFile(editedPath, `${original}{not json\n`)
    const broken = await editable.handleContentRequest(new Request('http://localhost/_content/v1/data/query/production?query=1'))
    expect(broken?.status).toBe(500)
    const body = await broken?.json()
    expect(body).toMatchObject({ error: { type: 'internalServerError' } })
    expect(JSON.stringify(body)).not.toContain(workDir)
    expect(String(reported[0])).toMatch(/production\.ndjson:\d+: invalid JSON/)
    expect(await editable.ping()).toMatchObject({ ok: false, error: expect.stringContaining('invalid JSON') })
    const health = await editable.handleContentRequest(new Request('http://localhost/_content/health'))
    expect(health?.status).toBe(503)
    expect(await health?.json()).toEqual({ ok: false })

    await writeFile(editedPath, original)
    expect(await editable.ping()).toMatchObject({ ok: true })
  })
})
