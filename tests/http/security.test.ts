// The security headers on every kind of response, HEAD and unsupported methods, visitor strings that name inherited
// object properties, and the sandbox checkout's loopback rule, against the built site over real HTTP.
import { createHash } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSite, type RunningSite } from '../support/site-server.ts'
import { registerForStatusPage, registrationBody } from '../support/registrations.ts'

const INHERITED_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf']
const YOCO_STAND_IN = 'http://127.0.0.1:9'
const YOCO_SITE_URL = 'https://events.example.test'
// Another machine, as the site sees it behind a proxy on loopback (TRUST_PROXY's default).
const REMOTE = { 'x-forwarded-for': '203.0.113.7' }

let site: RunningSite
let yocoSite: RunningSite
let stagingSite: RunningSite

beforeAll(async () => {
  ;[site, yocoSite, stagingSite] = await Promise.all([
    startSite({ env: { FORM_RATE_LIMIT: '0' } }),
    startSite({
      env: {
        SITE_URL: YOCO_SITE_URL,
        YOCO_SECRET_KEY: 'sk_test_security',
        YOCO_WEBHOOK_SECRET: `whsec_${Buffer.from('security-test-webhook-secret').toString('base64')}`,
        YOCO_API_BASE: YOCO_STAND_IN,
      },
    }),
    startSite({ env: { SITE_URL: 'https://staging.example.test', PAYMENTS_SANDBOX: '1', FORM_RATE_LIMIT: '0' } }),
  ])
})

afterAll(async () => {
  await Promise.all([site?.stop(), yocoSite?.stop(), stagingSite?.stop()])
})

interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** Any method, TRACE and PROPFIND included (fetch refuses to send some of them). */
function rawRequest(url: string, method: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        let text = ''
        response.on('data', (chunk: Buffer) => (text += chunk.toString()))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }))
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

function directives(csp: string): Map<string, string> {
  return new Map(
    csp
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values.join(' ')]),
  )
}

/**
 * Checks the headers every response carries and returns the CSP nonce. A cached public page (`cached`) allows its
 * inline scripts by their hashes and scripts from 'self' instead of a nonce, and keeps a nonce for its styles.
 */
function expectSecurityHeaders(headers: Headers, label: string, { cached = false } = {}): string {
  const csp = headers.get('content-security-policy') ?? ''
  const policy = directives(csp)
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy.get('style-src') ?? '')?.[1]
  expect(nonce, `${label}: ${csp}`).toMatch(/^[A-Za-z0-9+/]{22}==$/)
  if (cached) expect(policy.get('script-src'), label).toMatch(/^'self'( 'sha256-[A-Za-z0-9+/]{43}=')+$/)
  expect(Object.fromEntries(policy), label).toMatchObject({
    'default-src': "'none'",
    ...(cached ? {} : { 'script-src': `'nonce-${nonce}' 'strict-dynamic'` }),
    'style-src': `'nonce-${nonce}'`,
    'object-src': "'none'",
    'base-uri': "'none'",
    'frame-ancestors': "'none'",
    'form-action': `'self' ${site.baseUrl}`,
  })
  expect(headers.get('x-content-type-options'), label).toBe('nosniff')
  expect(headers.get('referrer-policy'), label).toBe('strict-origin-when-cross-origin')
  expect(headers.get('permissions-policy'), label).toMatch(/(^|, )camera=\(\)(, |$)/)
  expect(headers.get('permissions-policy'), label).toMatch(/(^|, )geolocation=\(\)(, |$)/)
  expect(headers.get('cross-origin-opener-policy'), label).toBe('same-origin')
  expect(headers.get('x-frame-options'), label).toBe('DENY')
  // The site's own origin is plain http here: HSTS belongs to https origins only.
  expect(headers.get('strict-transport-security'), label).toBeNull()
  return nonce!
}

describe('security headers', () => {
  it('are on pages, 404s, API answers, refusals, redirects, static files, hashed assets, the sitemap and the health check', async () => {
    const home = await fetch(`${site.baseUrl}/`)
    const html = await home.text()
    const asset = /\/assets\/[\w.-]+\.js/.exec(html)?.[0]
    expect(asset).toBeDefined()
    const form = new URLSearchParams({
      token: `security-${Math.random()}`,
      intent: 'submit',
      code: 'LOW2025',
      companyName: 'Header Check Ltd',
      address: '1 Main Road',
      email: 'headers@check.test',
      tel: '+27 11 555 0100',
      vatNumber: '4123456789',
      'delegates.0.name': 'Thandi Mokoena',
      'delegates.0.position': 'Attorney',
      'delegates.0.email': 'thandi@check.test',
      attendanceOption: 'online',
      paymentMethod: 'Bank Transfer',
      legalAgreement: 'on',
    })
    const answers: Array<[string, Response, number]> = [
      ['the home page', home, 200],
      ['a page that does not exist', await fetch(`${site.baseUrl}/no-such-page`), 404],
      ['a hashed asset', await fetch(`${site.baseUrl}${asset}`), 200],
      ['a hashed asset that does not exist', await fetch(`${site.baseUrl}/assets/missing-1234.js`), 404],
      ['a static file', await fetch(`${site.baseUrl}/favicon.svg`), 200],
      ['the sitemap', await fetch(`${site.baseUrl}/sitemap.xml`), 200],
      ['the health check', await fetch(`${site.baseUrl}/healthz`), 200],
      ['an API refusal', await fetch(`${site.baseUrl}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), 422],
      ['an API method refusal', await fetch(`${site.baseUrl}/api/contact`), 405],
      ['a form post redirect', await fetch(`${site.baseUrl}/workshop/legalOpinion?tab=register`, { method: 'POST', body: form, redirect: 'manual' }), 303],
    ]
    const nonces = new Set<string>()
    for (const [label, response, status] of answers) {
      expect(response.status, label).toBe(status)
      nonces.add(expectSecurityHeaders(response.headers, label, { cached: label === 'the home page' }))
    }
    expect(nonces.size, 'a fresh nonce for every response').toBe(answers.length)
  })

  it('allow a cached page’s inline scripts by hash on every response, and keep its style nonce with the page', async () => {
    const first = await fetch(`${site.baseUrl}/sponsorship`)
    const second = await fetch(`${site.baseUrl}/sponsorship`)
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'))
    const nonce = expectSecurityHeaders(second.headers, 'a cached page', { cached: true })
    expect(expectSecurityHeaders(first.headers, 'the same page when rendered', { cached: true })).toBe(nonce)
    expect(second.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'))
  })

  it('name the hash of every inline script and the page nonce on every style, and leave JSON-LD alone as data', async () => {
    const response = await fetch(`${site.baseUrl}/conference/Resilience`)
    const nonce = expectSecurityHeaders(response.headers, 'an event page', { cached: true })
    const scriptSources = directives(response.headers.get('content-security-policy') ?? '').get('script-src') ?? ''
    const html = await response.text()
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    const styles = html.match(/<style\b[^>]*>/g) ?? []
    const executable = scripts.filter(([, attributes]) => !attributes!.includes('type="application/ld+json"'))
    expect(executable.length).toBeGreaterThanOrEqual(3)
    expect(styles.length).toBeGreaterThanOrEqual(1)
    for (const [, , text] of executable) expect(scriptSources).toContain(`'sha256-${createHash('sha256').update(text!).digest('base64')}'`)
    for (const tag of styles) expect(tag).toContain(`nonce="${nonce}"`)
    expect(scripts.some(([, attributes]) => attributes!.includes('type="application/ld+json"'))).toBe(true)
    expect(html).not.toMatch(/\sstyle="/)
  })

  it('with https and Yoco: HSTS, and forms may lead to the Yoco checkout', async () => {
    const response = await fetch(`${yocoSite.baseUrl}/workshop/legalOpinion`)
    expect(response.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains')
    const policy = directives(response.headers.get('content-security-policy') ?? '')
    expect(policy.get('form-action')).toBe(`'self' ${YOCO_SITE_URL} https://c.yoco.com ${YOCO_STAND_IN}`)
    expect(policy.has('upgrade-insecure-requests')).toBe(true)
  })
})

describe('malformed addresses', () => {
  it.each([
    ['GET', '/registrations/%E0%A4%A/secret'],
    ['POST', '/registrations/REF123/%E0%A4%A/pay'],
  ])('%s %s answers 400 in the visitor’s words with the security headers', async (method, path) => {
    const answer = await fetch(`${site.baseUrl}${path}`, { method })
    expect(answer.status).toBe(400)
    expect(await answer.text()).toBe('This address is not valid. Please check the link and try again.')
    expectSecurityHeaders(answer.headers, path)
  })
})

describe('HEAD and unsupported methods', () => {
  it.each([['/'], ['/workshop/legalOpinion'], ['/favicon.svg'], ['/no-such-page']])('HEAD %s answers GET’s status and headers with no body', async (path) => {
    const get = await fetch(`${site.baseUrl}${path}`)
    await get.arrayBuffer()
    const head = await rawRequest(`${site.baseUrl}${path}`, 'HEAD')
    expect(head.status).toBe(get.status)
    expect(head.body).toBe('')
    for (const name of [
      'content-type',
      'cache-control',
      'x-robots-tag',
      'x-content-type-options',
      'referrer-policy',
      'permissions-policy',
      'cross-origin-opener-policy',
      'x-frame-options',
    ]) {
      expect(head.headers[name], `${path} ${name}`).toEqual(get.headers.get(name) ?? undefined)
    }
    expect(head.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/)
  })

  it('HEAD of a private status page answers its private headers', async () => {
    const statusUrl = await registerForStatusPage(site.baseUrl)
    const head = await rawRequest(statusUrl, 'HEAD', { accept: 'text/html' })
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
    expect(head.headers['content-type']).toMatch(/^text\/html/)
    expect(head.headers['cache-control']).toBe('private, no-store')
    expect(head.headers['x-robots-tag']).toBe('noindex')
  })

  it.each([
    ['TRACE', '/'],
    ['TRACE', '/workshop/legalOpinion'],
    ['PROPFIND', '/'],
    ['DELETE', '/workshop/legalOpinion'],
    ['PUT', '/'],
    ['PATCH', '/conference/Resilience/contact'],
    ['OPTIONS', '/'],
    ['TRACE', '/favicon.svg'],
    ['DELETE', '/assets/missing-1234.js'],
  ])('%s %s answers 405 with the methods a page takes', async (method, path) => {
    const answer = await rawRequest(
      `${site.baseUrl}${path}`,
      method,
      { 'content-type': 'application/x-www-form-urlencoded' },
      method === 'TRACE' || method === 'OPTIONS' ? undefined : 'fullName=A',
    )
    expect(answer.status).toBe(405)
    expect(answer.headers.allow).toBe('GET, HEAD, POST')
    expect(answer.body).toBe('This address does not answer that kind of request.')
    expect(answer.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/)
  })

  it.each([
    ['TRACE', '/api/contact'],
    ['DELETE', '/api/registrations'],
    ['PROPFIND', '/api/payments/yoco/webhook'],
    ['TRACE', '/api/no-such-endpoint'],
  ])('%s %s answers 405 in JSON', async (method, path) => {
    const answer = await rawRequest(`${site.baseUrl}${path}`, method)
    expect(answer.status).toBe(405)
    expect(answer.headers.allow).toBe('POST')
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'method-not-allowed', message: 'This address does not answer that kind of request.', fields: {} },
    })
  })
})

async function postJson(path: string, body: unknown) {
  const response = await fetch(`${site.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: response.status, json: (await response.json()) as { error?: { code: string; fields: Record<string, string> } } }
}

describe('visitor strings that name inherited object properties', () => {
  const contact = { fullName: 'Naledi Dlamini', email: 'naledi@example.org', phone: '+27 82 000 0000', message: 'Please send the programme.' }
  const training = { name: 'Sipho Mokoena', email: 'sipho@example.org', phone: '+27 11 000 0003', organization: 'City of Example', message: 'Governance' }

  it.each(INHERITED_NAMES)('are refused with 422 as a contact interest, a training kind, an option or a payment method: %s', async (name) => {
    const answers = {
      interest: await postJson('/api/contact', { ...contact, interest: name }),
      kind: await postJson('/api/training-requests', { ...training, kind: name }),
      attendanceOption: await postJson('/api/registrations', registrationBody({ attendanceOption: name })),
      paymentMethod: await postJson('/api/registrations', registrationBody({ paymentMethod: name })),
    }
    for (const [field, answer] of Object.entries(answers)) {
      expect(answer.status, field).toBe(422)
      expect(answer.json.error?.code, field).toBe('invalid-choice')
      expect(Object.keys(answer.json.error?.fields ?? {}), field).toEqual([field])
    }
    const event = await postJson('/api/registrations', registrationBody({ event: name }))
    expect(event.status).toBe(404)
  })

  it.each(INHERITED_NAMES)('are refused with 422 and the message in the page when the contact form posts the interest %s', async (name) => {
    const response = await fetch(`${site.baseUrl}/?index`, {
      method: 'POST',
      body: new URLSearchParams({ ...contact, companyName: '', interest: name }),
    })
    expect(response.status).toBe(422)
    const html = await response.text()
    expect(html).toContain('role="alert"')
    expect(html).toContain('Naledi Dlamini')
  })
})

describe('inherited property names in the registration form post', () => {
  it.each(INHERITED_NAMES)('answers 422 with the form again for the option or payment method %s', async (name) => {
    for (const field of ['attendanceOption', 'paymentMethod']) {
      const response = await fetch(`${site.baseUrl}/workshop/legalOpinion?tab=register`, {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams({
          token: `inherited-${Math.random()}`,
          intent: 'submit',
          code: 'LOW2025',
          companyName: 'Prototype Probe Ltd',
          address: '1 Main Road',
          email: 'probe@prototype.test',
          tel: '+27 11 555 0100',
          vatNumber: '4123456789',
          'delegates.0.name': 'Thandi Mokoena',
          'delegates.0.position': 'Attorney',
          'delegates.0.email': 'thandi@prototype.test',
          attendanceOption: 'online',
          paymentMethod: 'Bank Transfer',
          legalAgreement: 'on',
          [field]: name,
        }),
      })
      expect(response.status, field).toBe(422)
      const html = await response.text()
      expect(html, field).toContain('role="alert"')
      expect(html, field).toContain('Prototype Probe Ltd')
    }
  })
})

describe('the sandbox checkout', () => {
  async function sandboxCheckout(target: RunningSite): Promise<{ checkout: string; statusPath: string }> {
    const response = await fetch(`${target.baseUrl}/api/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(registrationBody({ paymentMethod: 'Credit/Debit Card' })),
    })
    const { statusUrl } = (await response.json()) as { statusUrl: string }
    const statusPath = new URL(statusUrl).pathname
    const pay = await fetch(`${target.baseUrl}${statusPath}/pay`, { method: 'POST', redirect: 'manual' })
    expect(pay.status).toBe(303)
    return { checkout: new URL(pay.headers.get('location')!).pathname, statusPath }
  }

  it('answers only this machine unless PAYMENTS_SANDBOX=1', async () => {
    const { checkout, statusPath } = await sandboxCheckout(site)
    expect(checkout).toMatch(/^\/payments\/sandbox\/ch_sandbox_/)
    expect((await fetch(`${site.baseUrl}${checkout}`)).status).toBe(200)

    const remotePage = await fetch(`${site.baseUrl}${checkout}`, { headers: REMOTE })
    expect(remotePage.status).toBe(403)
    expect(await remotePage.text()).toBe('The test checkout is only available on the computer that runs the site.')
    const remotePay = await fetch(`${site.baseUrl}${checkout}`, {
      method: 'POST',
      headers: REMOTE,
      body: new URLSearchParams({ action: 'pay' }),
      redirect: 'manual',
    })
    expect(remotePay.status).toBe(403)
    const status = (await (await fetch(`${site.baseUrl}${statusPath}`, { headers: { accept: 'application/json' } })).json()) as { status: string }
    expect(status.status, 'the refused Pay changed nothing').toBe('awaiting-payment')

    const { checkout: staged } = await sandboxCheckout(stagingSite)
    expect((await fetch(`${stagingSite.baseUrl}${staged}`, { headers: REMOTE })).status).toBe(200)
  })
})
