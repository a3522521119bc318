import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Logger } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { metricsEndpoint, observeRequests } from './http.ts'
import { createLogger } from './logger.ts'
import { createMetrics, type SiteMetrics } from './metrics.ts'
import { createRoutePatternMatcher } from './route-pattern.ts'

const TOKEN = 'metrics-token-0123456789'
let server: Server | undefined

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

/** A real HTTP server: the observation middleware, /metrics, and pages that answer 200 (/fail 500, /readyz 503). */
async function serve(): Promise<{ base: string; lines: Record<string, unknown>[]; metrics: SiteMetrics }> {
  const lines: Record<string, unknown>[] = []
  const logger = createLogger({ destination: { write: (line: string) => void lines.push(JSON.parse(line)) } })
  const metrics = createMetrics()
  const observe = observeRequests({
    logger,
    metrics,
    routePattern: createRoutePatternMatcher(['/conference/:slug', '/registrations/:reference/:secret', '/metrics']),
  })
  const scrape = metricsEndpoint({ metrics, token: TOKEN })
  server = createServer((req: IncomingMessage & { log?: Logger }, res: ServerResponse) => {
    observe(req, res, () => {
      if (req.url === '/metrics') {
        scrape(req, res, () => res.end())
        return
      }
      req.log?.info('handling')
      res.statusCode = req.url === '/fail' ? 500 : req.url === '/readyz' ? 503 : 200
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  return { base: `http://127.0.0.1:${(server?.address() as AddressInfo).port}`, lines, metrics }
}

describe('observeRequests', () => {
  it('echoes a sane X-Request-Id and logs the request and its handler lines with it', async () => {
    const { base, lines } = await serve()
    const response = await fetch(`${base}/conference/Resilience?tab=agenda`, { headers: { 'X-Request-Id': 'lb-4f2a9c' } })
    expect(response.headers.get('x-request-id')).toBe('lb-4f2a9c')
    await response.text()
    await expect.poll(() => lines.length).toBe(2)
    expect(lines[0]).toMatchObject({ reqId: 'lb-4f2a9c', msg: 'handling' })
    expect(lines[1]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { id: 'lb-4f2a9c', method: 'GET', url: '/conference/Resilience?tab=agenda' },
      res: { statusCode: 200 },
    })
    expect(lines[1]?.req).not.toHaveProperty('headers')
  })

  it('logs a 503 from /readyz as an answer: info level, no error object or stack', async () => {
    const { base, lines } = await serve()
    await (await fetch(`${base}/readyz`)).text()
    await expect.poll(() => lines.filter((line) => line.res !== undefined).length).toBe(1)
    const line = lines.find((entry) => entry.res !== undefined)
    expect(line).toMatchObject({ level: 30, msg: 'request completed', res: { statusCode: 503 } })
    expect(line).not.toHaveProperty('err')
  })

  it('replaces an unsafe or missing request id with a new one', async () => {
    const { base } = await serve()
    const unsafe = await fetch(`${base}/`, { headers: { 'X-Request-Id': 'x'.repeat(200) } })
    const missing = await fetch(`${base}/`)
    const ids = [unsafe.headers.get('x-request-id'), missing.headers.get('x-request-id')]
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(ids[0]).not.toBe(ids[1])
  })

  it('logs server errors at error level and never the status secret', async () => {
    const { base, lines } = await serve()
    await (await fetch(`${base}/fail`)).text()
    await (await fetch(`${base}/registrations/ABC-123/c2VjcmV0LXNlY3JldA`)).text()
    await expect.poll(() => lines.filter((line) => line.res !== undefined).length).toBe(2)
    expect(lines.find((line) => (line.res as { statusCode: number } | undefined)?.statusCode === 500)).toMatchObject({ level: 50, msg: 'request errored' })
    expect(JSON.stringify(lines)).not.toContain('c2VjcmV0LXNlY3JldA')
  })

  it('times each request under its route pattern', async () => {
    const { base, metrics } = await serve()
    await (await fetch(`${base}/registrations/ABC-123/c2VjcmV0LXNlY3JldA`)).text()
    await (await fetch(`${base}/wp-admin/setup.php`)).text()
    await expect.poll(async () => (await metrics.registry.metrics()).includes('route="unmatched"')).toBe(true)
    const text = await metrics.registry.metrics()
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/registrations/:reference/:secret",status="200"} 1')
    expect(text).not.toContain('c2VjcmV0')
    expect(text).not.toContain('wp-admin')
  })
})

describe('metricsEndpoint', () => {
  it.each([
    ['no token', undefined],
    ['a wrong token', `Bearer ${TOKEN}x`],
    ['another scheme', `Basic ${TOKEN}`],
  ])('answers 401 to %s', async (_case, authorization) => {
    const { base } = await serve()
    const response = await fetch(`${base}/metrics`, { headers: authorization ? { Authorization: authorization } : {} })
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.text()).not.toContain('process_')
  })

  it('answers the Prometheus text, never cached, to the holder of the token', async () => {
    const { base } = await serve()
    const response = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.text()).toContain('# TYPE http_request_duration_seconds histogram')
  })
})
