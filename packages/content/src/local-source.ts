import { createHash, timingSafeEqual } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { evaluateSync, parse } from 'groq-js'
import { LOCAL_CONTENT_PREFIX, LOCAL_DATASET } from './constants.ts'
import { documentsForPerspective, loadDataset, type LoadedDataset, type Perspective, type SanityDocument } from './dataset.ts'

/** Options for {@link createLocalContentSource}. */
export interface LocalContentSourceOptions {
  /** Path of the NDJSON dataset; asset files are resolved relative to its directory. */
  datasetPath: string
  /** URL path the handler answers under. Default "/_content". */
  prefix?: string
  /** URL path asset URLs in query results start with. Default: the prefix. */
  assetBasePath?: string
  /** Name of the one dataset served. Default "production". */
  dataset?: string
  /** Told about failures answered with a 5xx (the response itself stays generic). Default: console.error. */
  onError?: (error: unknown) => void
  /**
   * The Bearer token a query must present to read drafts (the `drafts`, `previewDrafts` and `raw` perspectives).
   * Without one configured, only published documents are ever answered.
   */
  previewToken?: string
}

/** Result of {@link LocalContentSource.ping}. */
export type ContentHealth = { ok: true; documents: number } | { ok: false; error: string }

/** A Sanity-compatible query endpoint over a dataset file. */
export interface LocalContentSource {
  /**
   * Answers requests under the prefix (query API, asset files, health); undefined for any other path. It evaluates
   * the GROQ it is sent, so it is for the server's own content client, never for a public port.
   */
  handleContentRequest(request: Request): Promise<Response | undefined>
  /** Answers only the dataset's asset files under the prefix, 404 for anything else there: safe for a public port. */
  handleAssetRequest(request: Request): Promise<Response | undefined>
  /** The published documents, as queries see them. */
  documents(): Promise<SanityDocument[]>
  /** Whether the dataset loads; for the site's health check. */
  ping(): Promise<ContentHealth>
}

const QUERY_ROUTE = /^\/v([^/]+)\/data\/query\/([^/]+)$/
const API_VERSION = /^(1|X|\d{4}-\d{2}-\d{2})$/
const ONE_DAY_SECONDS = 86_400
// Far above any query the site sends (Sanity itself moves GET to POST at 11 KB), far below a memory problem.
const MAX_POST_BODY_BYTES = 256 * 1024

interface SanityErrorBody {
  error: { description: string; type: string; [detail: string]: unknown }
}

class ContentRequestError extends Error {
  readonly status: number
  readonly body: SanityErrorBody

  constructor(status: number, body: SanityErrorBody) {
    super(body.error.description)
    this.status = status
    this.body = body
  }
}

function badRequest(description: string): ContentRequestError {
  return new ContentRequestError(400, { error: { description, type: 'httpBadRequest' } })
}

function queryParseError(query: string, description: string, start: number, end: number): ContentRequestError {
  return new ContentRequestError(400, { error: { description, type: 'queryParseError', query, start, end } })
}

/**
 * Creates the local content endpoint: Sanity's query API (`/v{apiVersion}/data/query/{dataset}`, GET
 * and POST, `$` params, perspectives) evaluated with groq-js over an NDJSON dataset that is re-read
 * whenever the file changes, plus the dataset's asset files and a health route.
 */
export function createLocalContentSource(options: LocalContentSourceOptions): LocalContentSource {
  const prefix = trimTrailingSlash(options.prefix ?? LOCAL_CONTENT_PREFIX)
  const assetBasePath = trimTrailingSlash(options.assetBasePath ?? prefix)
  const datasetName = options.dataset ?? LOCAL_DATASET
  const { datasetPath } = options
  const reportError = options.onError ?? ((error: unknown) => console.error('Local content endpoint:', error))
  const previewTokenDigest = options.previewToken ? digest(options.previewToken) : undefined

  let loaded: { version: string; dataset: LoadedDataset } | undefined
  let loading: { version: string; promise: Promise<LoadedDataset> } | undefined

  // Checking the file's mtime and size on each request makes an edit to the NDJSON visible on the
  // next request without a restart or a watcher to clean up.
  async function currentDataset(): Promise<LoadedDataset> {
    const fileStat = await stat(datasetPath)
    const version = `${fileStat.mtimeMs}:${fileStat.size}`
    if (loaded?.version === version) return loaded.dataset
    if (loading?.version !== version) {
      const promise = loadDataset({ datasetPath, assetBasePath })
      loading = { version, promise }
      promise.then(
        (dataset) => {
          if (loading?.promise === promise) loaded = { version, dataset }
        },
        // Forget a failed load so the next request tries again (an asset may have been added since).
        () => {
          if (loading?.promise === promise) loading = undefined
        },
      )
    }
    return loading.promise
  }

  async function runQuery(query: string, params: Record<string, unknown>, perspective: Perspective): Promise<unknown> {
    let tree
    try {
      tree = parse(query, { params })
    } catch (error) {
      throw queryParseFailure(query, error)
    }
    const missing = firstMissingParam(tree)
    if (missing !== undefined) {
      const start = findParamReference(query, missing)
      throw queryParseError(query, `param $${missing} referenced, but not provided`, start, start + missing.length + 1)
    }
    const view = viewOf(await currentDataset(), perspective)
    try {
      // Synchronous evaluation with an id index for `->` avoids groq-js's per-document async
      // iteration and linear reference scans; the results are the same.
      const value = evaluateSync(tree, {
        dataset: view.documents,
        params,
        sanity: { projectId: 'local', dataset: datasetName },
        dereference: ({ _ref }) => view.byId.get(_ref) ?? null,
      })
      return (await value.get()) ?? null
    } catch (error) {
      throw queryExecutionFailure(query, error)
    }
  }

  async function handleQuery(request: Request, apiVersion: string, dataset: string): Promise<Response> {
    const startedAt = performance.now()
    if (!API_VERSION.test(apiVersion)) throw badRequest(`Invalid API version "${apiVersion}"`)
    if (dataset !== datasetName) {
      throw new ContentRequestError(404, {
        error: { description: `Dataset "${dataset}" not found for project ID "local"`, type: 'httpNotFound' },
      })
    }
    const url = new URL(request.url)
    const perspective = perspectiveOf(url.searchParams)
    if (perspective !== 'published' && !presentsPreviewToken(request)) {
      throw new ContentRequestError(401, {
        error: { description: `The "${perspective}" perspective needs a preview token`, type: 'httpUnauthorized' },
      })
    }
    const { query, params } = request.method === 'POST' ? await readPostBody(request) : readSearchParams(url.searchParams)
    const result = await runQuery(query, params, perspective)
    const ms = Math.round(performance.now() - startedAt)
    const body = url.searchParams.get('returnQuery') === 'false' ? { result, ms } : { query, result, ms }
    return json(200, body, { 'cache-control': 'no-cache' })
  }

  function presentsPreviewToken(request: Request): boolean {
    const presented = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1]
    return previewTokenDigest !== undefined && presented !== undefined && timingSafeEqual(digest(presented), previewTokenDigest)
  }

  async function handleAsset(request: Request, relativePath: string): Promise<Response> {
    const { assetFiles } = await currentDataset()
    const asset = assetFiles.get(relativePath)
    if (!asset) return notFound()
    const content = await readFile(asset.filePath)
    const etag = `"${createHash('sha1').update(content).digest('base64url')}"`
    const headers = {
      'content-type': asset.mimeType,
      etag,
      // Asset URLs name the file, not its content, so a day plus ETag revalidation keeps edits
      // visible while sparing repeat downloads.
      'cache-control': `public, max-age=${ONE_DAY_SECONDS}`,
      'x-content-type-options': 'nosniff',
      // SVGs are served from the site's origin: never let one run script there.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    }
    // Weak comparison, as RFC 9110 asks for If-None-Match: a compressing proxy may have weakened the tag.
    const presented = request.headers
      .get('if-none-match')
      ?.split(/\s*,\s*/)
      .map((tag) => tag.replace(/^W\//, ''))
    if (presented?.includes(etag) || presented?.includes('*')) {
      return new Response(null, { status: 304, headers })
    }
    const body = request.method === 'HEAD' ? null : new Uint8Array(content)
    return new Response(body, { status: 200, headers: { ...headers, 'content-length': String(content.byteLength) } })
  }

  async function ping(): Promise<ContentHealth> {
    try {
      return { ok: true, documents: viewOf(await currentDataset(), 'published').documents.length }
    } catch (error) {
      return { ok: false, error: (error as Error).message }
    }
  }

  async function assetRoute(request: Request, path: string): Promise<Response> {
    if (path.length <= 1) return notFound()
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET, HEAD')
    return handleAsset(request, decodePathSegment(path.slice(1)))
  }

  async function route(request: Request, path: string): Promise<Response> {
    const queryRoute = QUERY_ROUTE.exec(path)
    if (queryRoute) {
      if (request.method !== 'GET' && request.method !== 'POST') return methodNotAllowed('GET, POST')
      return handleQuery(request, decodePathSegment(queryRoute[1]), decodePathSegment(queryRoute[2]))
    }
    if (path === '/health') {
      if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET, HEAD')
      const health = await ping()
      if (!health.ok) reportError(new Error(health.error))
      // The reason names files on the server: it goes to the log, not to the public.
      const body = health.ok ? health : { ok: false }
      return json(health.ok ? 200 : 503, body, { 'cache-control': 'no-store' })
    }
    return assetRoute(request, path)
  }

  function underPrefix(handle: (request: Request, path: string) => Promise<Response>) {
    return async (request: Request): Promise<Response | undefined> => {
      const { pathname } = new URL(request.url)
      if (pathname !== prefix && !pathname.startsWith(`${prefix}/`)) return undefined
      try {
        return await handle(request, pathname.slice(prefix.length))
      } catch (error) {
        if (error instanceof ContentRequestError) return json(error.status, error.body)
        reportError(error)
        return json(500, { error: { description: 'The content dataset could not be read', type: 'internalServerError' } })
      }
    }
  }

  return {
    handleContentRequest: underPrefix(route),
    handleAssetRequest: underPrefix(assetRoute),
    async documents() {
      return viewOf(await currentDataset(), 'published').documents
    },
    ping,
  }
}

interface DatasetView {
  documents: SanityDocument[]
  byId: Map<string, SanityDocument>
}

const datasetViews = new WeakMap<LoadedDataset, Map<Perspective, DatasetView>>()

// Built once per loaded dataset and perspective, not per query.
function viewOf(dataset: LoadedDataset, perspective: Perspective): DatasetView {
  let byPerspective = datasetViews.get(dataset)
  if (!byPerspective) {
    byPerspective = new Map()
    datasetViews.set(dataset, byPerspective)
  }
  let view = byPerspective.get(perspective)
  if (!view) {
    const documents = documentsForPerspective(dataset.documents, perspective)
    view = { documents, byId: new Map(documents.map((document) => [document._id, document])) }
    byPerspective.set(perspective, view)
  }
  return view
}

// groq-js reports syntax errors with a position and other static errors (unknown function, wrong
// arity) without one; Sanity answers both as a queryParseError, so the latter span the whole query.
function queryParseFailure(query: string, error: unknown): ContentRequestError {
  const { name, message } = error as Error
  if (name === 'GroqSyntaxError') {
    const position = (error as { position?: number }).position ?? 0
    const description = message.replace(/^Syntax error in GROQ query at position \d+: /, '')
    return queryParseError(query, description, position, Math.min(position + 1, query.length))
  }
  return queryParseError(query, message, 0, query.length)
}

// What groq-js rejects while evaluating comes from the query (a function it does not implement, a
// misused one), so it is the client's error, never the server's.
function queryExecutionFailure(query: string, error: unknown): ContentRequestError {
  const { name, message } = error as Error
  if (name === 'GroqQueryError') return queryParseError(query, message, 0, query.length)
  return new ContentRequestError(400, { error: { description: message, type: 'queryExecutionError', query } })
}

// groq-js inlines the params it is given while parsing, so any Parameter node left was not provided.
function firstMissingParam(node: unknown): string | undefined {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = firstMissingParam(item)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (node === null || typeof node !== 'object') return undefined
  const record = node as Record<string, unknown>
  if (record.type === 'Parameter' && typeof record.name === 'string') return record.name
  return firstMissingParam(Object.values(record))
}

function findParamReference(query: string, name: string): number {
  const match = new RegExp(`\\$${name}(?![A-Za-z0-9_])`).exec(query)
  return match?.index ?? 0
}

function readSearchParams(searchParams: URLSearchParams): { query: string; params: Record<string, unknown> } {
  const query = searchParams.get('query')
  if (query === null) throw badRequest('Missing "query" parameter')
  const params: Record<string, unknown> = {}
  for (const [key, value] of searchParams) {
    if (!key.startsWith('$')) continue
    try {
      params[key.slice(1)] = JSON.parse(value)
    } catch {
      throw badRequest(`Unable to parse value of "${key}=${value}". Please quote string values.`)
    }
  }
  return { query, params }
}

async function readPostBody(request: Request): Promise<{ query: string; params: Record<string, unknown> }> {
  const tooLarge = new ContentRequestError(413, {
    error: { description: `Request body exceeds ${MAX_POST_BODY_BYTES} bytes`, type: 'httpPayloadTooLarge' },
  })
  if (Number(request.headers.get('content-length') ?? 0) > MAX_POST_BODY_BYTES) throw tooLarge
  const text = await request.text()
  if (Buffer.byteLength(text) > MAX_POST_BODY_BYTES) throw tooLarge
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw badRequest('Request body must be JSON')
  }
  const { query, params = {} } = (body ?? {}) as { query?: unknown; params?: unknown }
  if (typeof query !== 'string') throw badRequest('Missing "query" in request body')
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw badRequest('"params" in request body must be an object')
  }
  return { query, params: params as Record<string, unknown> }
}

// Anything but "raw" and "drafts" (release stacks, unknown names) is answered as published: the
// shipped dataset has no releases, and published is what the site asks for.
function perspectiveOf(searchParams: URLSearchParams): Perspective {
  const requested = searchParams.get('perspective')
  if (requested === 'raw') return 'raw'
  if (requested === 'drafts' || requested === 'previewDrafts') return 'drafts'
  return 'published'
}

// A malformed escape cannot name a route or a file; as an empty segment it falls through to a 404.
function decodePathSegment(segment: string | undefined): string {
  try {
    return decodeURIComponent(segment ?? '')
  } catch {
    return ''
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest()
}

function trimTrailingSlash(path: string): string {
  return path.endsWith('/') ? path.slice(0, -1) : path
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  })
}

function notFound(): Response {
  return json(404, { error: { description: 'Not found', type: 'httpNotFound' } })
}

function methodNotAllowed(allow: string): Response {
  return json(405, { error: { description: 'Method not allowed', type: 'httpMethodNotAllowed' } }, { allow })
}
