// The running server's JSON logs (request ids, nothing private) and its /metrics, against the built site.
import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'

const METRICS_TOKEN = 'ops-test-metrics-token-5f2c1a'
const SMTP_PASSWORD = 'Sm7pPassw0rdNeverLogged'

/** The site writing e-mails to files (its log names each file's recipients). */
let filesSite: RunningSite
/** The site with an SMTP server that refuses connections, so its e-mails wait in the outbox. */
let stalledSite: RunningSite
/** The site as shipped: no METRICS_TOKEN. */
let plainSite: RunningSite
let sitesStartedAt: number

async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const address = probe.address()
  await new Promise((resolve) => probe.close(resolve))
  return typeof address === 'object' && address ? address.port : 0
}

beforeAll(async () => {
  const smtpPort = await closedPort()
  sitesStartedAt = Date.now()
  ;[filesSite, stalledSite, plainSite] = await Promise.all([
    startSite({ keepOutput: true, env: { METRICS_TOKEN, FORM_RATE_LIMIT: '0' } }),
    startSite({ keepOutput: true, env: { METRICS_TOKEN, FORM_RATE_LIMIT: '0', SMTP_URL: `smtp://mailer:${SMTP_PASSWORD}@127.0.0.1:${smtpPort}` } }),
    startSite(),
  ])
})

afterAll(async () => {
  await Promise.all([filesSite?.stop(), stalledSite?.stop(), plainSite?.stop()])
})

interface LogLine {
  level: number
  msg: string
  reqId?: string
  req?: { id: string; method: string; url: string }
  res?: { statusCode: number }
  [field: string]: unknown
}

/** Every line the server printed, parsed; a line that is not JSON fails the test. */
function logLines(site: RunningSite): LogLine[] {
  return site
    .output()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine
      } catch {
        throw new Error(`The server printed a line that is not JSON: ${line}`)
      }
    })
}

async function register(site: RunningSite, body: ReturnType<typeof registrationBody>): Promise<RegistrationReceipt> {
  const response = await fetch(`${site.baseUrl}/api/registrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status).toBe(201)
  return (await response.json()) as RegistrationReceipt
}

async function scrape(site: RunningSite, token = METRICS_TOKEN): Promise<Response> {
  return fetch(`${site.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${token}` } })
}

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('request ids', () => {
  it('honours a sane X-Request-Id, echoes it and logs the request with it', async () => {
    const response = await fetch(`${filesSite.baseUrl}/conference`, { headers: { 'X-Request-Id': 'lb-7f3e9a2c-0001' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-request-id')).toBe('lb-7f3e9a2c-0001')
    await response.text()
    await expect
      .poll(() => logLines(filesSite).find((line) => line.reqId === 'lb-7f3e9a2c-0001'))
      .toMatchObject({
        level: 30,
        msg: 'request completed',
        req: { id: 'lb-7f3e9a2c-0001', method: 'GET', url: '/conference' },
        res: { statusCode: 200 },
      })
  })

  it('generates an id when none or an unsafe one is sent, and logs under the generated id', async () => {
    const unsafe = await fetch(`${filesSite.baseUrl}/healthz`, { headers: { 'X-Request-Id': 'x"} injected'.padEnd(300, 'x') } })
    const none = await fetch(`${filesSite.baseUrl}/healthz`)
    const ids = [unsafe.headers.get('x-request-id'), none.headers.get('x-request-id')]
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(ids[0]).not.toBe(ids[1])
    await expect.poll(() => logLines(filesSite).filter((line) => ids.includes(line.reqId ?? '')).length).toBe(2)
    expect(filesSite.output()).not.toContain('injected')
  })
})

describe('the log of a registration', () => {
  it('prints only JSON lines, with no registrant e-mail address and no status secret in any of them', async () => {
    const body = registrationBody({ paymentMethod: 'Credit/Debit Card' })
    const receipt = await register(filesSite, body)
    const statusPath = new URL(receipt.statusUrl).pathname
    const secret = statusPath.split('/').at(-1) ?? ''
    expect(secret.length).toBeGreaterThan(20)

    const page = await fetch(`${filesSite.baseUrl}${statusPath}`)
    expect(page.status).toBe(200)
    await page.text()
    const json = await fetch(`${filesSite.baseUrl}${statusPath}`, { headers: { Accept: 'application/json' } })
    expect(await json.json()).toMatchObject({ reference: receipt.reference })
    const pay = await fetch(`${filesSite.baseUrl}${statusPath}/pay`, { method: 'POST', headers: { Accept: 'application/json' } })
    expect(pay.status).toBe(200)
    const invoice = await fetch(`${filesSite.baseUrl}${statusPath}/invoice.pdf`)
    expect(invoice.status).toBe(200)
    await invoice.arrayBuffer()

    // The file transport logs each e-mail it writes with its recipients, masked: wait for the registrant's, as the
    // organiser's and the delegates' may be written first.
    await expect
      .poll(
        () => logLines(filesSite).some((line) => line.msg.startsWith('mail: ') && line.msg.includes(receipt.reference) && /b\*\*\*@acme\.test/.test(line.msg)),
        {
          timeout: 15_000,
        },
      )
      .toBe(true)
    await expect.poll(() => logLines(filesSite).filter((line) => line.req?.url.includes(receipt.reference)).length).toBe(4)

    const lines = logLines(filesSite)
    const log = filesSite.output()
    for (const address of [body.email, ...body.delegates.map((delegate) => delegate.email)]) expect(log).not.toContain(address)
    expect(log).not.toContain(secret)
    expect(lines.filter((line) => line.req?.url.includes(receipt.reference)).map((line) => line.req?.url)).toEqual(
      expect.arrayContaining([`/registrations/${receipt.reference}/[redacted]`, `/registrations/${receipt.reference}/[redacted]/pay`]),
    )
  })

  it('keeps the SMTP password out of the log when delivery fails', async () => {
    await register(stalledSite, registrationBody({ paymentMethod: 'Bank Transfer' }))
    await expect.poll(() => logLines(stalledSite).find((line) => line.msg.startsWith('outbox: will retry')), { timeout: 15_000 }).toMatchObject({ level: 40 })
    expect(stalledSite.output()).not.toContain(SMTP_PASSWORD)
    expect(logLines(stalledSite).length).toBeGreaterThan(0)
  })
})

describe('failures in the log', () => {
  it('logs a request Express itself refuses as a JSON line with its id, not a stack trace', async () => {
    const response = await fetch(`${filesSite.baseUrl}/payments/sandbox/chk_unknown`, {
      method: 'POST',
      headers: { 'X-Request-Id': 'oversized-form-1' },
      body: new URLSearchParams({ action: 'pay', padding: 'x'.repeat(4096) }),
    })
    expect(response.status).toBe(413)
    await response.text()
    await expect.poll(() => logLines(filesSite).find((line) => line.reqId === 'oversized-form-1' && line.msg === 'Request failed')).toMatchObject({ level: 40 })
  })

  it.each([
    [{ METRICS_TOKEN: 'too-short' }, /^Cannot start: METRICS_TOKEN must be at least 16 characters/],
    [{ LOG_LEVEL: 'verbose' }, /^Cannot start: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/],
  ])('stops with a JSON line saying why when the configuration is wrong: %j', async (env, reason) => {
    const failure = await startSite({ env }).then(
      () => undefined,
      (error: unknown) => error as Error,
    )
    const lines = (failure?.message ?? '').split('\n').filter((line) => line.startsWith('{'))
    const fatal = lines.map((line) => JSON.parse(line) as LogLine).find((line) => line.level === 60)
    expect(fatal?.msg).toMatch(reason)
  })
})

describe('/metrics', () => {
  it('is not found without METRICS_TOKEN set', async () => {
    const response = await fetch(`${plainSite.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
    expect(response.status).toBe(404)
    expect(await response.text()).not.toContain('http_request_duration_seconds')
  })

  it('answers 401 without the token or with a wrong one', async () => {
    const missing = await fetch(`${filesSite.baseUrl}/metrics`)
    expect(missing.status).toBe(401)
    expect(missing.headers.get('cache-control')).toBe('no-store')
    expect(await missing.text()).not.toContain('outbox_')
    const wrong = await scrape(filesSite, `${METRICS_TOKEN}0`)
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).not.toContain('outbox_')
  })

  it('answers the holder of the token with route-labelled request times and the counters of registrations and card payments', async () => {
    const receipt = await register(filesSite, registrationBody({ paymentMethod: 'Credit/Debit Card' }))
    await register(filesSite, registrationBody({ paymentMethod: 'Bank Transfer' }))
    const statusPath = new URL(receipt.statusUrl).pathname
    await (await fetch(`${filesSite.baseUrl}${statusPath}`)).text()
    await (await fetch(`${filesSite.baseUrl}/workshop/legalOpinion`)).text()
    await (await fetch(`${filesSite.baseUrl}/no/such/page`)).text()
    const pay = (await (await fetch(`${filesSite.baseUrl}${statusPath}/pay`, { method: 'POST', headers: { Accept: 'application/json' } })).json()) as {
      redirectUrl: string
    }
    const sandbox = await fetch(pay.redirectUrl, { method: 'POST', body: new URLSearchParams({ action: 'pay' }), redirect: 'manual' })
    expect(sandbox.status).toBe(303)

    const response = await scrape(filesSite)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const text = await response.text()

    expect(sample(text, 'http_request_duration_seconds_count{method="POST",route="/api/registrations",status="201"}')).toBeGreaterThanOrEqual(2)
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/registrations/:reference/:secret",status="200"}')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/workshop/:slug",status="200"}')).toBe(1)
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/*",status="404"}')).toBe(1)
    expect(sample(text, 'http_request_duration_seconds_count{method="POST",route="/payments/sandbox/:checkoutId",status="303"}')).toBe(1)
    expect(text).not.toContain(receipt.reference)
    expect(text).not.toContain('legalOpinion')

    // The earlier test registered one card payment here too.
    expect(sample(text, 'registrations_created_total{payment_method="card"}')).toBe(2)
    expect(sample(text, 'registrations_created_total{payment_method="bank-transfer"}')).toBe(1)
    expect(sample(text, 'card_payments_succeeded_total')).toBe(1)
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0)
  })

  it('reads the outbox gauges from the database at the scrape', async () => {
    await register(stalledSite, registrationBody({ paymentMethod: 'Bank Transfer' }))
    // Nothing can be delivered: the e-mails of both registrations wait, the oldest since the earlier test's, so its
    // age reaches a second (scraped again only until it has; usually the earlier tests took longer than that).
    let text = ''
    await expect
      .poll(async () => {
        text = await (await scrape(stalledSite)).text()
        return sample(text, 'outbox_oldest_pending_age_seconds') ?? 0
      })
      .toBeGreaterThanOrEqual(1)
    const pending = sample(text, 'outbox_pending_messages') ?? 0
    expect(pending).toBeGreaterThanOrEqual(4)
    expect(pending % 1).toBe(0)
    const age = sample(text, 'outbox_oldest_pending_age_seconds') ?? 0
    expect(age).toBeLessThanOrEqual((Date.now() - sitesStartedAt) / 1000)
    expect(sample(text, 'outbox_failed_messages')).toBe(0)

    // Where the e-mails can be delivered, the outbox empties.
    await expect.poll(async () => sample(await (await scrape(filesSite)).text(), 'outbox_pending_messages'), { timeout: 15_000 }).toBe(0)
    expect(sample(await (await scrape(filesSite)).text(), 'outbox_oldest_pending_age_seconds')).toBe(0)
  })
})
