// A stand-in for Sanity's API that the studio is pointed at (SANITY_STUDIO_API_HOST) when it runs without a Sanity
// project, beside the site (`pnpm dev`) and in its browser tests: the signed-in user, the project, grants, the CORS
// check, GROQ queries, documents by id, mutations and the Actions API, the listener and the live events stream, over
// documents held in memory. Each committed transaction is handed to `onCommit` (the local dev server writes the
// dataset file the site reads). Anything else is answered 404 and recorded, so a test can say which requests it did
// not expect or failed to answer. Presence (who else is editing) goes over a WebSocket the stand-in does not speak:
// the studio retries it and works without.
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import type { TLSSocket } from 'node:tls'
import path from 'node:path'
import { documentsForPerspective, type Perspective, type SanityDocument } from '@events/content'
import { Mutation as MutatorMutation } from '@sanity/mutator'
import { evaluate, parse } from 'groq-js'

const LOCAL_EDITOR = {
  id: 'p-editor',
  name: 'Local editor',
  email: 'editor@example.com',
  role: 'administrator',
  roles: [{ name: 'administrator', title: 'Administrator' }],
  provider: 'sanity',
}

export interface ContentLake {
  /**
   * `https://localhost:<port>`: the studio's API host; the studio asks `<projectId>.localhost:<port>`. HTTP/2 (so over
   * TLS, with a certificate made at start), because the studio keeps several listeners open at once and a browser
   * opens at most six HTTP/1.1 connections to a host.
   */
  apiHost: string
  /** The certificate the stand-in serves (PEM), for a browser or client that must trust it. */
  certificate: string
  /** The stored documents by id, drafts included. */
  documents: Map<string, SanityDocument>
  /** Requests the stand-in did not answer properly: 404 for those it does not know, 500 for those it failed on. */
  unanswered: string[]
  stop(): Promise<void>
}

type Listener = Http2ServerResponse

const ALL_GRANTS = [{ filter: '_id in path("**")', permissions: ['history', 'read', 'update', 'create'] }]

export interface ContentLakeOptions {
  documents: SanityDocument[]
  /** Image files by the name the studio asks the CDN for, `<sha1>-<width>x<height>.<ext>`. */
  images?: Map<string, { filePath: string; mimeType: string }>
  projectId?: string
  dataset?: string
  /** 0 (the default) takes a free port. */
  port?: number
  /** Called after each committed transaction with every stored document, drafts included. */
  onCommit?: (documents: SanityDocument[]) => void
  /** The TLS key and certificate (PEM) to serve; unset, one is made for this run. */
  tls?: { key: Buffer; cert: Buffer }
  /** How often an open stream gets a comment so the client does not take it for dead (its limit is 45 s). */
  keepAliveMs?: number
}

export async function startContentLake({
  documents,
  images = new Map(),
  projectId = 'local',
  dataset = 'production',
  port: requestedPort = 0,
  onCommit,
  tls = selfSignedCertificate(projectId),
  keepAliveMs = 15_000,
}: ContentLakeOptions): Promise<ContentLake> {
  const store = new Map(documents.map((document) => [document._id, withSystemFields(document)]))
  const unanswered: string[] = []
  const listeners = new Set<Listener>()
  const liveListeners = new Set<Listener>()
  // The client drops and reopens a stream that says nothing for 45 s, and a studio reconnecting at the moment of a
  // Publish loses it; Sanity's API keeps its streams talking, and so does the stand-in.
  const keepAlive = setInterval(() => {
    for (const listener of [...listeners, ...liveListeners]) listener.write(': keep-alive\n\n')
  }, keepAliveMs)
  keepAlive.unref()

  function cors(request: Http2ServerRequest, response: Http2ServerResponse): void {
    response.setHeader('access-control-allow-origin', request.headers.origin ?? '*')
    response.setHeader('access-control-allow-credentials', 'true')
    response.setHeader('access-control-allow-headers', request.headers['access-control-request-headers'] ?? '*')
    response.setHeader('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS')
  }

  function json(response: Http2ServerResponse, status: number, body: unknown): void {
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(body))
  }

  const editorSettings = new Map<string, unknown>()

  async function readBody(request: Http2ServerRequest): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    return text ? (JSON.parse(text) as Record<string, unknown>) : {}
  }

  async function query(groq: string, params: Record<string, unknown>, perspective: Perspective): Promise<unknown> {
    const visible = documentsForPerspective([...store.values()], perspective)
    const value = await evaluate(parse(groq, { params }), { dataset: visible, params })
    return value.get()
  }

  function broadcast(event: string, data: unknown): void {
    for (const listener of listeners) listener.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  }

  // As Sanity's API: a transaction's documents all get the transaction's id as their revision, and the listener
  // hears one event per document it changed, carrying that document's mutations and its state before and after.
  function commit(body: Record<string, unknown>, transactionId: string): { id: string; operation: string }[] {
    const results: { id: string; operation: string }[] = []
    const timestamp = new Date().toISOString()
    const changed = new Map<string, { previous: SanityDocument | null; mutations: Mutation[] }>()
    const working = new Map<string, SanityDocument | null>()
    for (const mutation of (body.mutations as Mutation[] | undefined) ?? []) {
      const [operation, payload] = Object.entries(mutation)[0]!
      const id = String(payload.id ?? payload._id)
      const current = working.has(id) ? working.get(id)! : (store.get(id) ?? null)
      if (!changed.has(id)) changed.set(id, { previous: store.get(id) ?? null, mutations: [] })
      changed.get(id)!.mutations.push(mutation)
      working.set(id, (new MutatorMutation({ mutations: [mutation] }).apply(current as never) as SanityDocument | null) ?? null)
      results.push({ id, operation: operation === 'patch' ? 'update' : operation === 'delete' ? 'delete' : 'create' })
    }
    refuseDeletingReferenced(changed, working)
    let eventNumber = 0
    for (const [id, { previous, mutations }] of changed) {
      const next = working.get(id) ?? null
      if (next) store.set(id, { ...next, _rev: transactionId, _updatedAt: timestamp, _createdAt: previous?._createdAt ?? timestamp })
      else store.delete(id)
      const stored = store.get(id) ?? null
      broadcast('mutation', {
        eventId: `${transactionId}#${id}`,
        documentId: id,
        transactionId,
        transition: !previous ? 'appear' : stored ? 'update' : 'disappear',
        identity: LOCAL_EDITOR.id,
        mutations,
        previousRev: previous?._rev,
        resultRev: transactionId,
        timestamp,
        visibility: 'query',
        transactionTotalEvents: changed.size,
        transactionCurrentEvent: ++eventNumber,
        // Mendoza's "replace the whole value" patch: the studio applies remote changes through these effects.
        effects: { apply: [0, stored], revert: [0, previous] },
      })
    }
    // Without sync tags to name what changed, the live stream asks its clients to refetch everything.
    for (const listener of liveListeners) listener.write(`event: restart\ndata: ${JSON.stringify({ id: transactionId })}\n\n`)
    onCommit?.([...store.values()])
    return results
  }

  // As the Content Lake: a document that another one refers to by a strong reference cannot be deleted, and nothing of
  // the transaction is applied. (The Studio offers "Delete anyway"; the Content Lake refuses all the same, so a
  // speaker on seven pages is never deleted from under them.)
  function refuseDeletingReferenced(changed: Map<string, unknown>, working: Map<string, SanityDocument | null>): void {
    const deleted = [...changed.keys()].filter((id) => store.has(id) && working.get(id) === null)
    if (deleted.length === 0) return
    const after = new Map(store)
    for (const [id, document] of working) {
      if (document) after.set(id, document)
      else after.delete(id)
    }
    const refusals = deleted.flatMap((id) => {
      const referencing = [...after.values()].filter((document) => strongReferencesOf(document).has(id)).map((document) => document._id)
      return referencing.length > 0 ? [{ id, referencing }] : []
    })
    if (refusals.length > 0) throw new ReferencedDocumentError(refusals)
  }

  async function route(request: Http2ServerRequest, response: Http2ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost')
    const path = url.pathname.replace(/^\/v[^/]+/, '')
    const method = request.method ?? 'GET'
    // Where a developer opens the stand-in once to accept its certificate (see studio/README.md).
    if (url.pathname === '/' && method === 'GET') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      response.end(
        '<!doctype html><title>Local content API</title><p>The local stand-in of Sanity&rsquo;s API is running and this browser trusts it now. Close this tab and reload the Studio.</p>',
      )
      return
    }
    if (url.pathname === '/favicon.ico') {
      response.writeHead(204)
      response.end()
      return
    }
    if (path === '/users/me') return json(response, 200, LOCAL_EDITOR)
    // The editor's studio settings (e.g. the time zone of the Releases tool), kept while the stand-in runs.
    const keysWanted = /^\/users\/me\/keyvalue\/(.+)$/.exec(path)?.[1]
    if (keysWanted && method === 'GET') {
      const keys = decodeURIComponent(keysWanted).split(',')
      return json(
        response,
        200,
        keys.flatMap((key) => (editorSettings.has(key) ? [{ key, value: editorSettings.get(key) }] : [])),
      )
    }
    if (path === '/users/me/keyvalue' && method === 'PUT') {
      const pairs = (await readBody(request)) as unknown as Array<{ key: string; value: unknown }>
      for (const { key, value } of pairs) editorSettings.set(key, value)
      return json(response, 200, pairs)
    }
    if (/^\/projects\/[^/]+$/.test(path)) {
      return json(response, 200, {
        id: projectId,
        displayName: 'Events (local)',
        members: [{ id: LOCAL_EDITOR.id, role: 'administrator', roles: LOCAL_EDITOR.roles, isCurrentUser: true }],
        metadata: {},
        features: [],
      })
    }
    if (/^\/projects\/[^/]+\/datasets$/.test(path)) {
      return json(response, 200, url.searchParams.has('datasetProfile') ? [] : [{ name: dataset, aclMode: 'public' }])
    }
    if (/^\/projects\/[^/]+\/datasets\/[^/]+\/acl$/.test(path) || path === `/data/acl/${dataset}`) return json(response, 200, ALL_GRANTS)
    if (path === `/data/query/${dataset}`) {
      const fromBody = method === 'POST' ? await readBody(request) : undefined
      const groq = String(fromBody?.query ?? url.searchParams.get('query') ?? '')
      const params: Record<string, unknown> = { ...((fromBody?.params as Record<string, unknown>) ?? {}) }
      for (const [key, value] of url.searchParams) if (key.startsWith('$')) params[key.slice(1)] = JSON.parse(value)
      const perspective = perspectiveOf(url.searchParams.get('perspective'), apiVersionOf(url.pathname))
      return json(response, 200, { query: groq, result: (await query(groq, params, perspective)) ?? null, ms: 1 })
    }
    const docRoute = new RegExp(`^/data/doc/${dataset}/(.+)$`).exec(path)
    if (docRoute) {
      const ids = decodeURIComponent(docRoute[1]!).split(',')
      return json(response, 200, {
        documents: ids.map((id) => store.get(id)).filter(Boolean),
        omitted: ids.filter((id) => !store.has(id)).map((id) => ({ id, reason: 'existence' })),
      })
    }
    // The delete dialog's question for references from other datasets: the stand-in holds one dataset, so none.
    if (new RegExp(`^/data/references/${dataset}/documents/[^/]+/to$`).test(path)) return json(response, 200, { totalCount: 0, references: [] })
    if (path === `/data/mutate/${dataset}` && method === 'POST') {
      const transactionId = url.searchParams.get('transactionId') ?? randomUUID()
      try {
        const results = commit(await readBody(request), transactionId)
        return json(response, 200, { transactionId, results })
      } catch (error) {
        if (error instanceof ReferencedDocumentError) return json(response, 409, error.body())
        throw error
      }
    }
    if (path === `/data/actions/${dataset}` && method === 'POST') {
      const body = await readBody(request)
      const transactionId = String(body.transactionId ?? randomUUID())
      const actions = (body.actions as DocumentAction[] | undefined) ?? []
      try {
        commit({ mutations: actions.flatMap((action) => mutationsFor(action, store)) }, transactionId)
      } catch (error) {
        if (error instanceof ReferencedDocumentError) return json(response, 409, error.body())
        throw error
      }
      return json(response, 200, { transactionId })
    }
    // Every listener hears every change, whatever its query: more than Sanity sends, which the studio tolerates.
    if (path === `/data/listen/${dataset}`) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      response.write(`event: welcome\ndata: ${JSON.stringify({ listenerName: `listener-${listeners.size}` })}\n\n`)
      listeners.add(response)
      request.once('close', () => listeners.delete(response))
      return
    }
    if (path === `/data/live/events/${dataset}`) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      response.write(`event: welcome\ndata: {}\n\n`)
      liveListeners.add(response)
      request.once('close', () => liveListeners.delete(response))
      return
    }
    // The client's check after a refused request: is the studio's origin allowed, with credentials? Every origin is.
    if (path === '/check/cors') return json(response, 200, { result: { isCorsAllowed: true, withCredentials: true } })
    if (/^\/projects\/[^/]+\/user-applications$/.test(path) || path.startsWith('/journey/')) return json(response, 200, [])
    if (path === '/features') return json(response, 200, [])
    if (path === '/ping' || path === `/data/ping/${dataset}`) return json(response, 200, { ok: true })
    // No history: the stand-in keeps only the current documents.
    if (new RegExp(`^/data/history/${dataset}/transactions/`).test(path)) {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' })
      response.end()
      return
    }
    const historyRoute = new RegExp(`^/data/history/${dataset}/events/documents/(.+)$`).exec(path)
    if (historyRoute) {
      const ids = decodeURIComponent(historyRoute[1]!).split(',')
      return json(response, 200, { events: Object.fromEntries(ids.map((id) => [id, []])), nextCursor: '' })
    }
    const image = /^\/images\/[^/]+\/[^/]+\/([^/?]+)$/.exec(url.pathname)
    if (image && images.has(image[1]!)) {
      const file = images.get(image[1]!)!
      response.writeHead(200, { 'content-type': file.mimeType })
      response.end(readFileSync(file.filePath))
      return
    }
    if (path === '/descriptors/synchronize' && method === 'POST') return json(response, 200, {})
    // The studio's version check and its claim of a schema descriptor: nothing to report.
    if (path === '/help') return json(response, 200, {})
    if (path === '/descriptors/claim' && method === 'POST') return json(response, 200, {})
    // The studio's usage telemetry: declined, and anything sent taken and dropped.
    if (path === '/intake/telemetry-status') return json(response, 200, { status: 'denied' })
    if (path.startsWith('/intake/') && method === 'POST') return json(response, 200, {})
    if (path.startsWith('/schedules/')) return json(response, 200, { schedules: [] })
    unanswered.push(`${method} ${url.pathname}${url.search}`)
    return json(response, 404, { error: { description: "Not known to the local stand-in of Sanity's API", type: 'httpNotFound' } })
  }

  const handler = (request: Http2ServerRequest, response: Http2ServerResponse) => {
    cors(request, response)
    if (request.method === 'OPTIONS') {
      response.writeHead(204)
      response.end()
      return
    }
    route(request, response).catch((error: unknown) => {
      unanswered.push(`${request.method} ${request.url}: ${String(error)}`)
      json(response, 500, { error: { description: String(error), type: 'internalError' } })
    })
  }
  const server = createSecureServer({ ...tls, allowHTTP1: true }, handler)
  // Every connection, HTTP/2 or HTTP/1.1, so stopping never waits for a listener the browser keeps open.
  const sockets = new Set<TLSSocket>()
  server.on('secureConnection', (socket: TLSSocket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  server.listen(requestedPort, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    apiHost: `https://localhost:${port}`,
    certificate: tls.cert.toString('utf8'),
    documents: store,
    unanswered,
    async stop() {
      clearInterval(keepAlive)
      for (const listener of [...listeners, ...liveListeners]) listener.end()
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** The ids a document refers to by strong references (`_ref` without `_weak: true`), anywhere in it. */
function strongReferencesOf(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) strongReferencesOf(item, found)
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>
    if (typeof record._ref === 'string' && record._weak !== true) found.add(record._ref)
    for (const [key, field] of Object.entries(record)) if (key !== '_ref') strongReferencesOf(field, found)
  }
  return found
}

/** A transaction that would delete documents others still refer to, answered as the Content Lake answers it (409). */
// The field is declared apart from the constructor: `pnpm dev` loads this file with Node's type stripping, which
// refuses parameter properties.
class ReferencedDocumentError extends Error {
  readonly refusals: ReadonlyArray<{ id: string; referencing: string[] }>

  constructor(refusals: ReadonlyArray<{ id: string; referencing: string[] }>) {
    super(refusals.map(({ id, referencing }) => referencedMessage(id, referencing)).join('; '))
    this.refusals = refusals
  }

  body() {
    return {
      error: {
        description: `The mutation(s) failed: ${this.message}`,
        type: 'mutationError',
        items: this.refusals.map(({ id, referencing }) => ({
          error: { description: referencedMessage(id, referencing), id, referencingIDs: referencing, type: 'documentHasExistingReferencesError' },
        })),
      },
    }
  }
}

function referencedMessage(id: string, referencing: readonly string[]): string {
  return `Document "${id}" cannot be deleted as there are references to it from ${referencing.map((other) => `"${other}"`).join(', ')}`
}

interface DocumentAction {
  actionType: string
  draftId?: string
  publishedId: string
  attributes?: SanityDocument
  patch?: Record<string, unknown>
  includeDrafts?: string[]
}

type Mutation = Record<string, Record<string, unknown>>

// The Actions API (how the studio edits, publishes and discards drafts) as the mutations it amounts to.
function mutationsFor(action: DocumentAction, store: Map<string, SanityDocument>): Mutation[] {
  const { publishedId } = action
  const draftId = action.draftId ?? `drafts.${publishedId}`
  const published = store.get(publishedId)
  const draft = store.get(draftId)
  switch (action.actionType) {
    case 'sanity.action.document.create':
      return [{ create: { ...action.attributes } }]
    case 'sanity.action.document.replaceDraft':
      return [{ createOrReplace: { ...action.attributes } }]
    case 'sanity.action.document.edit':
      return [...(draft || !published ? [] : [{ createIfNotExists: { ...published, _id: draftId } }]), { patch: { ...action.patch, id: draftId } }]
    case 'sanity.action.document.publish':
      if (!draft) throw new Error(`publish: ${draftId} does not exist`)
      return [{ createOrReplace: { ...draft, _id: publishedId } }, { delete: { id: draftId } }]
    case 'sanity.action.document.discard':
      return [{ delete: { id: draftId } }]
    case 'sanity.action.document.unpublish':
      return [...(draft || !published ? [] : [{ createIfNotExists: { ...published, _id: draftId } }]), { delete: { id: publishedId } }]
    case 'sanity.action.document.delete':
      return [publishedId, ...(action.includeDrafts ?? [draftId])].map((id) => ({ delete: { id } }))
    default:
      throw new Error(`The local stand-in does not know the action ${action.actionType}`)
  }
}

function apiVersionOf(pathname: string): string {
  return /^\/v([^/]+)/.exec(pathname)?.[1] ?? '1'
}

// As Sanity's API: without a perspective, queries see every document (raw) before API version 2025-02-19 and only
// published ones from it on.
function perspectiveOf(requested: string | null, apiVersion: string): Perspective {
  if (requested === 'published' || requested === 'raw') return requested
  if (requested === 'drafts' || requested === 'previewDrafts') return 'drafts'
  return /^\d{4}-\d{2}-\d{2}$/.test(apiVersion) && apiVersion >= '2025-02-19' ? 'published' : 'raw'
}

/**
 * A certificate for localhost and its subdomains, made with the system's openssl. The project's host is named too:
 * TLS clients do not match a wildcard one label above a top-level name (`*.localhost`).
 */
export function selfSignedCertificate(projectId: string, days = 1): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), 'content-lake-tls-'))
  try {
    const key = path.join(dir, 'key.pem')
    const cert = path.join(dir, 'cert.pem')
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        String(days),
        '-subj',
        '/CN=localhost',
        '-addext',
        `subjectAltName=DNS:localhost,DNS:${projectId}.localhost,DNS:*.localhost`,
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    )
    return { key: readFileSync(key), cert: readFileSync(cert) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function withSystemFields(document: SanityDocument): SanityDocument {
  const at = typeof document._updatedAt === 'string' ? document._updatedAt : '2025-01-01T00:00:00Z'
  return { _createdAt: at, _updatedAt: at, _rev: 'initial', ...document }
}
