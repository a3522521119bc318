import { createHmac, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { SanityClient, StegaConfig } from '@sanity/client'
import { validatePreviewUrl } from '@sanity/preview-url-secret'
import { parseCookie } from 'cookie'
import express from 'express'
import onHeaders from 'on-headers'

/** The cookie that turns draft mode on for its holder. */
export const PREVIEW_COOKIE = 'site-preview'
export const PREVIEW_ENABLE_PATH = '/api/preview-mode/enable'
export const PREVIEW_DISABLE_PATH = '/api/preview-mode/disable'
// An editor's working day; the Studio enables it again with a fresh secret whenever it loads a preview.
const PREVIEW_LIFETIME_MS = 8 * 60 * 60 * 1000

export const PREVIEW_UNAVAILABLE = 'Preview is not available: the site has no SANITY_API_READ_TOKEN to read drafts with.'
export const PREVIEW_SECRET_REFUSED = 'This preview link is not valid or has expired. Open the preview from the Studio again.'

export interface PreviewModeOptions {
  /** The server's published-content client; drafts are read through a copy of it that carries the token. */
  content: SanityClient
  /** The token that may read drafts: SANITY_API_READ_TOKEN, or the embedded endpoint's per-process token. */
  token: string | undefined
  /** The public origin: the cookie is Secure (and usable in the Studio's cross-site frame) when it is https. */
  siteUrl: string
  /** The Studio's origin, the only one allowed to frame preview responses. */
  studioOrigin: string
  now?: () => number
}

export interface PreviewMode {
  /** GET /api/preview-mode/enable and /disable. */
  router: express.Router
  /** Whether the request carries a valid, unexpired preview cookie (always false without a token). */
  isPreview(req: IncomingMessage): boolean
  /** The client a request's content is read with: drafts in preview, otherwise the published one. */
  contentFor(req: IncomingMessage): SanityClient
  /** Origins that may frame the response: the Studio's for a preview request, none otherwise. */
  framingOrigins(req: IncomingMessage): readonly string[]
  /** Marks preview responses `private, no-store`, whatever the route set, so no cache keeps drafts. */
  neverCachePreviews: express.RequestHandler
}

/**
 * Draft mode as `@sanity/preview-url-secret` documents it: the Studio stores a short-lived secret, the enable route
 * checks it with the token-bearing client and hands the browser a signed cookie; requests with the cookie read the
 * `drafts` perspective, may be framed by the Studio and are never cached.
 */
export function createPreviewMode({ content, token, siteUrl, studioOrigin, now = Date.now }: PreviewModeOptions): PreviewMode {
  const stega: StegaConfig = { enabled: true, studioUrl: studioOrigin, filter: encodesForOverlays }
  const draftsClient = token ? content.withConfig({ token, perspective: 'drafts', useCdn: false, stega }) : undefined
  const secure = new URL(siteUrl).protocol === 'https:'
  const sign = (expiresAt: string) =>
    createHmac('sha256', token ?? '')
      .update(`${PREVIEW_COOKIE}:${expiresAt}`)
      .digest('base64url')

  function isPreview(req: IncomingMessage): boolean {
    if (!token || !req.headers.cookie) return false
    const value = parseCookie(req.headers.cookie)[PREVIEW_COOKIE]
    const [expiresAt, signature] = value?.split('.') ?? []
    if (!expiresAt || !signature || !(Number(expiresAt) > now())) return false
    const expected = Buffer.from(sign(expiresAt))
    const presented = Buffer.from(signature)
    return presented.length === expected.length && timingSafeEqual(presented, expected)
  }

  // Studio and site are usually different sites (a *.sanity.studio Studio, the company's domain), and the cookie is
  // set and read inside the Studio's iframe: only SameSite=None reaches a cross-site frame, and Partitioned keeps it
  // working where third-party cookies are blocked while confining it to frames under the Studio. Over plain http
  // (a developer's localhost Studio and site, which are one site) Lax is enough and None is not allowed.
  const cookieOptions: express.CookieOptions = secure
    ? { httpOnly: true, secure: true, sameSite: 'none', partitioned: true, path: '/' }
    : { httpOnly: true, sameSite: 'lax', path: '/' }

  const router = express.Router()
  router.get(PREVIEW_ENABLE_PATH, (req, res, next) => {
    res.set('Cache-Control', 'no-store')
    if (!draftsClient) {
      res.status(503).type('text/plain').send(PREVIEW_UNAVAILABLE)
      return
    }
    validatePreviewUrl(draftsClient, req.originalUrl).then(({ isValid, redirectTo }) => {
      if (!isValid) {
        req.log.warn('Preview mode: a preview secret was refused')
        res.status(401).type('text/plain').send(PREVIEW_SECRET_REFUSED)
        return
      }
      const expiresAt = String(now() + PREVIEW_LIFETIME_MS)
      res.cookie(PREVIEW_COOKIE, `${expiresAt}.${sign(expiresAt)}`, { ...cookieOptions, maxAge: PREVIEW_LIFETIME_MS })
      res.redirect(307, sitePath(redirectTo))
    }, next)
  })
  router.get(PREVIEW_DISABLE_PATH, (req, res) => {
    const search = new URL(req.originalUrl, 'http://site.invalid').searchParams
    res.set('Cache-Control', 'no-store').clearCookie(PREVIEW_COOKIE, cookieOptions)
    res.redirect(303, sitePath(search.get('redirect') ?? undefined))
  })

  return {
    router,
    isPreview,
    contentFor: (req) => (draftsClient && isPreview(req) ? draftsClient : content),
    framingOrigins: (req) => (isPreview(req) ? [studioOrigin] : []),
    neverCachePreviews(req, res, next) {
      if (isPreview(req)) onHeaders(res, () => res.setHeader('Cache-Control', 'private, no-store'))
      next()
    },
  }
}

// Text an editor reads on the page. Stega hides the document's address in such strings with invisible characters, so
// the Studio's overlays know what a click on them should open; values the site computes with (kinds, codes, keys,
// prices, times) must stay exactly as stored, so only these fields carry it.
const DISPLAYED_TEXT_FIELDS = new Set(['title', 'subtitle', 'text', 'body', 'bio', 'name', 'position', 'company', 'heading', 'intro', 'description'])

/** Whether stega may encode a value: displayed text only, and never what Sanity's own default leaves alone. */
export function encodesForOverlays(props: Parameters<NonNullable<StegaConfig['filter']>>[0]): boolean {
  const field = props.sourcePath.at(-1)
  return typeof field === 'string' && DISPLAYED_TEXT_FIELDS.has(field) && props.filterDefault(props)
}

/** A path on this site, or "/" for anything that could lead elsewhere (`//host`, `/\host`, a full URL). */
export function sitePath(candidate: string | undefined): string {
  if (!candidate || !candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\')) return '/'
  return candidate
}
