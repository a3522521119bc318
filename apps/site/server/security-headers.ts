import { randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type express from 'express'
import helmet from 'helmet'

export interface SecurityHeadersOptions {
  /** The public origin: Strict-Transport-Security is sent only when it is https. */
  siteUrl: string
  /**
   * Origins besides the site that a form post may end up on: the card checkout's, reached by a redirect. The public
   * origin (siteUrl) is always allowed: the site redirects to it (the sandbox checkout, the status page) while the
   * browser may be on another name for the same server (127.0.0.1 beside localhost, an internal address).
   */
  formTargets?: readonly string[]
  /** Origins besides the site that the browser fetches from or opens sockets to (Sanity's APIs, Vite's dev socket). */
  connectOrigins?: readonly string[]
  /** Origins besides the site that images come from (Sanity's image CDN in hosted mode). */
  imageOrigins?: readonly string[]
  /** Origins that may frame this response (the Studio, for draft previews only); none by default. */
  framingOrigins?: (req: IncomingMessage) => readonly string[]
}

// Powerful features the site never uses, switched off for it and for anything it might embed; `backOffice` is the
// allowlist of what the back office uses (the camera, and passkeys).
const permissionsPolicy = (backOffice: string) =>
  [
    'accelerometer=()',
    'autoplay=()',
    'browsing-topics=()',
    `camera=${backOffice}`,
    'display-capture=()',
    'geolocation=()',
    'gyroscope=()',
    'magnetometer=()',
    'microphone=()',
    'midi=()',
    'payment=()',
    `publickey-credentials-get=${backOffice}`,
    'usb=()',
  ].join(', ')
const PERMISSIONS_POLICY = permissionsPolicy('()')
// The back office's check-in desk scans passes with the device's camera, and staff sign in with passkeys. The whole
// back office may ask for both, not one page alone: the policy is the document's, and staff navigate in-app.
const BACK_OFFICE = /^\/admin(?:[/?]|$)/
const BACK_OFFICE_PERMISSIONS_POLICY = permissionsPolicy('(self)')

/** The CSP nonce of the response under way; securityHeaders() sets it before anything else runs. */
export function cspNonce(res: express.Response): string {
  const nonce: unknown = res.locals.cspNonce
  if (typeof nonce !== 'string') throw new Error('cspNonce(): the securityHeaders middleware did not run for this response')
  return nonce
}

/** What a cached page's policy allows instead of the response's own nonce (see usePagePolicy). */
interface PagePolicy {
  scriptHashes: readonly string[]
  styleNonce: string
}

/**
 * Gives this response a cached page's Content-Security-Policy: its inline scripts are allowed by their hashes, so a
 * page rendered once can be sent to everyone, and scripts it loads by 'self' (a nonce the page's bytes carry to every
 * visitor could not keep injected scripts out; 'strict-dynamic' would refuse its modulepreload links, which carry no
 * hash). Its inline styles and goober's run-time style element keep the nonce the page was rendered with: a style
 * cannot run code, and a new render (new content, a new availability moment) brings a new nonce.
 */
export function usePagePolicy(req: IncomingMessage, res: express.Response, policy: PagePolicy): void {
  res.locals.cspNonce = policy.styleNonce
  res.locals.cspPagePolicy = policy
  const apply = res.locals.applyContentSecurityPolicy as ((req: IncomingMessage, res: express.Response) => void) | undefined
  if (!apply) throw new Error('usePagePolicy(): the securityHeaders middleware did not run for this response')
  apply(req, res)
}

function scriptSources(res: express.Response): string {
  const pagePolicy = res.locals.cspPagePolicy as PagePolicy | undefined
  if (pagePolicy) return ["'self'", ...pagePolicy.scriptHashes].join(' ')
  // 'strict-dynamic' lets the nonce-carrying module scripts load the route chunks they import.
  return `'nonce-${cspNonce(res)}' 'strict-dynamic'`
}

/**
 * The security headers of every response (pages, API, static files, errors, redirects): a Content-Security-Policy
 * whose inline scripts and styles are allowed by a fresh per-response nonce (or, for a cached page, by hashes: see
 * usePagePolicy), nosniff, Referrer-Policy, Permissions-Policy, COOP and CORP, framing refused (but by the Studio, for
 * previews), and HSTS when the public origin is https.
 */
export function securityHeaders(options: SecurityHeadersOptions): express.RequestHandler {
  const https = new URL(options.siteUrl).protocol === 'https:'
  const framingOriginsOf = options.framingOrigins ?? (() => [])
  const nonceSource = (_req: unknown, res: unknown) => `'nonce-${cspNonce(res as express.Response)}'`
  const applyContentSecurityPolicy = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: [(_req, res) => scriptSources(res as express.Response)],
      styleSrc: [nonceSource],
      imgSrc: ["'self'", ...(options.imageOrigins ?? [])],
      connectSrc: ["'self'", ...(options.connectOrigins ?? [])],
      fontSrc: ["'self'"],
      manifestSrc: ["'self'"],
      formAction: ["'self'", new URL(options.siteUrl).origin, ...(options.formTargets ?? [])],
      frameAncestors: [(req) => framingOriginsOf(req).join(' ') || "'none'"],
      baseUri: ["'none'"],
      objectSrc: ["'none'"],
      ...(https ? { upgradeInsecureRequests: [] } : {}),
    },
  })
  const applyOtherHeaders = helmet({
    contentSecurityPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    // COEP would stop no attack here and would break cross-origin images in hosted mode.
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: https ? { maxAge: 63_072_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
  })
  const setPolicy = (req: IncomingMessage, res: express.Response) => applyContentSecurityPolicy(req, res, () => undefined)
  return (req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString('base64')
    res.locals.applyContentSecurityPolicy = setPolicy
    res.setHeader('Permissions-Policy', BACK_OFFICE.test(req.url ?? '') ? BACK_OFFICE_PERMISSIONS_POLICY : PERMISSIONS_POLICY)
    setPolicy(req, res)
    applyOtherHeaders(req, res, (error?: unknown) => {
      // A framed preview answers to frame-ancestors; X-Frame-Options knows no origin list and would refuse it.
      if (framingOriginsOf(req).length > 0) res.removeHeader('X-Frame-Options')
      next(error)
    })
  }
}
