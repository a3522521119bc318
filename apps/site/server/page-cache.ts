import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib'
import { writeReadableStreamToWritable } from '@react-router/node'
import type express from 'express'
import { LRUCache } from 'lru-cache'
import { isAdminPath } from './admin'

const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

/** A page rendered once and kept, with its compressed forms made once and what its Content-Security-Policy allows. */
export interface CachedPage {
  /** The rendered response's own headers (Content-Type, Link…), Cache-Control and the per-response ones excepted. */
  headers: readonly (readonly [string, string])[]
  representations: Record<Encoding, Buffer>
  /** A digest of the uncompressed page; each representation's ETag adds its coding. */
  digest: string
  /** CSP hash sources of the page's inline scripts, which then run without a per-response nonce. */
  scriptHashes: readonly string[]
  /**
   * The nonce its inline styles carry, which goober's run-time style element also carries: made from the page itself
   * (stableNonceOf), so the same page is the same bytes on every instance.
   */
  styleNonce: string
}

type Encoding = 'br' | 'gzip' | 'identity'

// A script element's start tag, its attributes and its text (raw text: it cannot contain "</script").
const SCRIPT_ELEMENT = /<script((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*>([\s\S]*?)<\/script\s*>/gi
const SRC_ATTRIBUTE = /\ssrc\s*=/i
const TYPE_ATTRIBUTE = /\stype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i
// Script types that browsers run; anything else (JSON-LD, JSON data) is data the policy does not govern.
const EXECUTABLE_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript'])

/** The CSP hash sources ('sha256-…') of the inline scripts a browser would run in this HTML. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>()
  for (const [, attributes = '', text = ''] of html.matchAll(SCRIPT_ELEMENT)) {
    if (SRC_ATTRIBUTE.test(attributes)) continue
    const typeMatch = TYPE_ATTRIBUTE.exec(attributes)
    const type = (typeMatch?.[1] ?? typeMatch?.[2] ?? typeMatch?.[3] ?? '').trim().toLowerCase()
    if (!EXECUTABLE_TYPES.has(type)) continue
    hashes.add(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`)
  }
  return [...hashes]
}

// Headers that belong to one response, never to the page: the cache sets its own validators, length and coding.
const PER_RESPONSE_HEADERS = new Set(['cache-control', 'content-encoding', 'content-length', 'date', 'etag', 'set-cookie', 'transfer-encoding', 'vary'])

/** Whether a rendered response may be kept and shared: a 200 HTML page that sets no cookie and does not forbid it. */
export function isShareable(response: Response): boolean {
  if (response.status !== 200) return false
  if (!/^text\/html\b/i.test(response.headers.get('content-type') ?? '')) return false
  if (response.headers.has('set-cookie')) return false
  return !/\b(private|no-store|no-cache)\b/i.test(response.headers.get('cache-control') ?? '')
}

const NONCE_SLOT = '\u0000nonce\u0000'

/**
 * A rendered page with its per-response nonce replaced by one made from the page itself: the same page rendered on
 * two instances (or twice) then has the same bytes and ETag. The nonce of a page everyone receives is public anyway;
 * the page's scripts are allowed by their hashes, its styles (which run no code) by this nonce.
 */
export function withStableNonce(html: string, renderNonce: string): { html: string; nonce: string } {
  const template = html.replaceAll(renderNonce, NONCE_SLOT)
  // 128 bits in base64, like the per-response nonces.
  const nonce = createHash('sha256').update(template).digest().subarray(0, 16).toString('base64')
  return { html: template.replaceAll(NONCE_SLOT, nonce), nonce }
}

/** Makes the entry of a rendered page: its stable nonce, script hashes, digest and brotli and gzip forms, once. */
export async function cachedPageOf(response: Response, renderNonce: string): Promise<CachedPage> {
  const { html, nonce: styleNonce } = withStableNonce(await response.text(), renderNonce)
  const identity = Buffer.from(html, 'utf8')
  const [br, gz] = await Promise.all([
    brotli(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzipped(identity, { level: 9 }),
  ])
  return {
    headers: [...response.headers].filter(([name]) => !PER_RESPONSE_HEADERS.has(name.toLowerCase())),
    representations: { br, gzip: gz, identity },
    digest: createHash('sha256').update(identity).digest('base64url').slice(0, 32),
    scriptHashes: inlineScriptHashes(html),
    styleNonce,
  }
}

function sizeOf(page: CachedPage): number {
  const { br, gzip: gz, identity } = page.representations
  return br.length + gz.length + identity.length + 1024
}

export interface PageCacheOptions {
  /** The most the kept pages may take in memory, all three forms of each counted. */
  maxBytes: number
  /** How long a page is kept at most; unset, until content changes or it is evicted. */
  ttlMs?: number
}

/** Pages by key, bounded in bytes, least recently used evicted first; concurrent misses of one key render once. */
export class PageStore {
  readonly #pages: LRUCache<string, CachedPage>
  readonly #underway = new Map<string, Promise<CachedPage | undefined>>()
  #generation = 0

  constructor({ maxBytes, ttlMs }: PageCacheOptions) {
    this.#pages = new LRUCache<string, CachedPage>({ maxSize: maxBytes, sizeCalculation: sizeOf, ...(ttlMs ? { ttl: ttlMs } : {}) })
  }

  get(key: string): CachedPage | undefined {
    return this.#pages.get(key)
  }

  /** The render of this key already under way, if any. */
  underway(key: string): Promise<CachedPage | undefined> | undefined {
    return this.#underway.get(key)
  }

  /**
   * Runs one render for the key; others asking meanwhile wait for it (and get undefined when it was not a page to
   * keep). The page is kept unless the store was cleared while it rendered: it may then show content from before
   * the change.
   */
  async fill<T>(key: string, render: () => Promise<CachedPage | T>, isPage: (value: CachedPage | T) => value is CachedPage): Promise<CachedPage | T> {
    const generation = this.#generation
    const result = render()
    // Those waiting on a failed render try their own; the failure itself is this caller's to report.
    const page = result.then(
      (value) => (isPage(value) ? value : undefined),
      () => undefined,
    )
    this.#underway.set(key, page)
    try {
      const value = await result
      if (isPage(value) && generation === this.#generation) this.#pages.set(key, value)
      return value
    } finally {
      if (this.#underway.get(key) === page) this.#underway.delete(key)
    }
  }

  /** Forgets every page (content changed). */
  clear(): void {
    this.#generation += 1
    this.#pages.clear()
    this.#underway.clear()
  }

  get size(): number {
    return this.#pages.size
  }

  get bytes(): number {
    return this.#pages.calculatedSize
  }
}

/**
 * Paths whose answer belongs to one visitor or one moment, never shared: the back office, a registration's private
 * pages (status, payment, return: secret URLs), the sandbox checkout, and single-fetch data requests.
 */
export function isPerVisitorPath(path: string): boolean {
  return isAdminPath(path) || path.startsWith('/registrations/') || path.startsWith('/payments/') || path.startsWith('/api/') || path.endsWith('.data')
}

export type PageCacheOutcome = 'hit' | 'miss' | 'not-modified'

export interface PageCacheMiddlewareOptions {
  store: PageStore
  cacheControl: string
  /** Whether a request may be answered from, or stored in, the cache (public GET pages; no preview, no back office). */
  isCacheable(req: express.Request): boolean
  /** What besides the URL a page depends on: the content revision and the availability epoch. */
  variantOf(req: express.Request): Promise<string>
  /** Renders the page for this request as a Fetch Response, with the request's CSP nonce. */
  render(req: express.Request, res: express.Response): Promise<Response>
  /** Sets the response's Content-Security-Policy for a cached page: its script hashes, its style nonce. */
  applyPagePolicy(req: express.Request, res: express.Response, page: CachedPage): void
  /** Told each time a cached page is served or rendered for the cache. */
  onOutcome?(outcome: PageCacheOutcome): void
}

/** Marks a response whose body is already compressed (or deliberately not), so the compression middleware leaves it. */
export function markPrecompressed(res: express.Response): void {
  res.locals.precompressed = true
}

/** Whether the body of this response was compressed ahead of time (see markPrecompressed). */
export function isPrecompressed(res: express.Response): boolean {
  return res.locals.precompressed === true
}

/**
 * Whether an If-None-Match header names this page in any of its codings (or is `*`). The codings are the same bytes
 * before coding, so the copy the client holds is current whichever one it was sent, and a client (or proxy) that
 * asks differently from one request to the next still gets its 304.
 */
export function namesPage(ifNoneMatch: string | undefined, page: Pick<CachedPage, 'digest'>): boolean {
  if (!ifNoneMatch) return false
  const current = new Set(['', '-br', '-gzip'].map((coding) => `"${page.digest}${coding}"`))
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim()
    return trimmed === '*' || current.has(trimmed.replace(/^W\//, ''))
  })
}

/**
 * Serves public pages from memory: rendered once per URL and variant, answered with a strong ETag (304 on a match),
 * in brotli or gzip as the client accepts, under the page's own hash-based Content-Security-Policy. Responses that are
 * not a shareable 200 page are sent as rendered and not kept.
 */
export function pageCache(options: PageCacheMiddlewareOptions): express.RequestHandler {
  const { store } = options

  function send(req: express.Request, res: express.Response, page: CachedPage, rendered: boolean): void {
    // The smallest form the client takes, whatever order it lists them in (browsers send "gzip, deflate, br").
    const encoding: Encoding = req.acceptsEncodings('br') ? 'br' : req.acceptsEncodings('gzip') ? 'gzip' : 'identity'
    const body = page.representations[encoding]
    for (const [name, value] of page.headers) res.setHeader(name, value)
    res.setHeader('Cache-Control', options.cacheControl)
    res.setHeader('ETag', `"${page.digest}${encoding === 'identity' ? '' : `-${encoding}`}"`)
    res.vary('Accept-Encoding')
    options.applyPagePolicy(req, res, page)
    markPrecompressed(res)
    if (namesPage(req.get('If-None-Match'), page)) {
      options.onOutcome?.('not-modified')
      res.status(304).end()
      return
    }
    options.onOutcome?.(rendered ? 'miss' : 'hit')
    res.status(200)
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding)
    res.setHeader('Content-Length', String(body.length))
    if (req.method === 'HEAD') res.end()
    else res.end(body)
  }

  return async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !options.isCacheable(req)) {
      next()
      return
    }
    let variant: string
    try {
      variant = await options.variantOf(req)
    } catch (error) {
      // Without the content's schedule the page cannot be filed; it is rendered for this request alone.
      req.log.warn({ err: error }, 'Page cache: the availability schedule could not be read; rendering without the cache')
      next()
      return
    }
    try {
      const key = `${variant} ${req.originalUrl}`
      const kept = store.get(key) ?? (await store.underway(key))
      if (kept) {
        send(req, res, kept, false)
        return
      }
      // A HEAD renders no body, so it cannot fill the cache.
      if (req.method === 'HEAD') {
        next()
        return
      }
      const outcome = await store.fill(
        key,
        async () => {
          const response = await options.render(req, res)
          return isShareable(response) ? cachedPageOf(response, String(res.locals.cspNonce)) : response
        },
        (value): value is CachedPage => !(value instanceof Response),
      )
      if (!(outcome instanceof Response)) {
        send(req, res, outcome, true)
        return
      }
      res.status(outcome.status)
      for (const [name, value] of outcome.headers) res.append(name, value)
      if (outcome.body) await writeReadableStreamToWritable(outcome.body, res)
      else res.end()
    } catch (error) {
      next(error)
    }
  }
}
