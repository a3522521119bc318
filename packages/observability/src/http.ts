import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from 'pino'
import { pinoHttp } from 'pino-http'
import type { SiteMetrics } from './metrics.ts'
import { requestIdFrom } from './request-id.ts'

type Next = (error?: unknown) => void
type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void

export interface RequestObservationOptions {
  logger: Logger
  metrics: SiteMetrics
  /** The route pattern a request path is counted under (never the raw path). */
  routePattern: (path: string) => string
}

/** A 503 from /readyz (starting, draining, unavailable) is an answer to the load balancer, not a failed request. */
function isReadinessAnswer(req: IncomingMessage, error: Error | undefined): boolean {
  return pathOf(req) === '/readyz' && (error === undefined || error.message.startsWith('failed with status code'))
}

function pathOf(req: IncomingMessage): string {
  // Routers rewrite req.url as they mount; the original is what the client asked for.
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/'
  const query = url.indexOf('?')
  return query === -1 ? url : url.slice(0, query)
}

/**
 * Gives every request an id (the client's sane X-Request-Id or a new one, echoed in the response), a child logger
 * at `req.log` that carries it, one JSON log line when the response is sent, and an observation in the request
 * duration histogram.
 */
export function observeRequests({ logger, metrics, routePattern }: RequestObservationOptions): Middleware {
  const logRequest = pinoHttp({
    logger,
    genReqId(req, res) {
      const id = requestIdFrom(req.headers['x-request-id'])
      res.setHeader('X-Request-Id', id)
      return id
    },
    // Only what an operator needs: headers carry cookies and tokens, and response headers carry redirect URLs.
    serializers: {
      req: (req: { id: unknown; method: string; url: string; remoteAddress?: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    // Lines a handler logs through req.log carry the request id alone, not the whole request again.
    quietReqLogger: true,
    customLogLevel: (req, res, error) => (isReadinessAnswer(req, error) ? 'info' : error || res.statusCode >= 500 ? 'error' : 'info'),
    // ... and without an error object and its stack: the readiness module logs why the instance is not ready.
    customErrorObject: (req, _res, error, fields: Record<string, unknown>) =>
      isReadinessAnswer(req, error) ? { res: fields.res, responseTime: fields.responseTime } : fields,
    customErrorMessage: (req, _res, error) => (isReadinessAnswer(req, error) ? 'request completed' : 'request errored'),
  })
  return (req, res, next) => {
    const started = process.hrtime.bigint()
    res.once('finish', () => {
      metrics.observeRequest({
        method: req.method ?? 'GET',
        route: routePattern(pathOf(req)),
        status: res.statusCode,
        durationSeconds: Number(process.hrtime.bigint() - started) / 1e9,
      })
    })
    logRequest(req, res)
    next()
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}

/** True when the request carries `Authorization: Bearer <token>`, compared in constant time. */
export function hasBearerToken(req: IncomingMessage, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')
  // Digests have one length whatever was sent, so the comparison time says nothing about the token.
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token))
}

/** GET /metrics in Prometheus' text format, for holders of the token only, never cached. */
export function metricsEndpoint({ metrics, token }: { metrics: SiteMetrics; token: string }): Middleware {
  return (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store')
    if (!hasBearerToken(req, token)) {
      res.statusCode = 401
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"')
      res.setHeader('Content-Type', 'text/plain; charset=utf-8')
      res.end('A valid bearer token is needed to read the metrics.\n')
      return
    }
    metrics.registry.metrics().then((text) => {
      res.setHeader('Content-Type', metrics.registry.contentType)
      res.end(text)
    }, next)
  }
}
