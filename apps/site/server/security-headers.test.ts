import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { cspNonce, securityHeaders, type SecurityHeadersOptions } from './security-headers'

let close: (() => void) | undefined
afterEach(() => close?.())

/** Serves one route behind the middleware and answers with the headers of a GET and the nonce the route saw. */
async function headersFor(options: SecurityHeadersOptions, pathname = '/'): Promise<{ headers: Headers; nonce: string }> {
  const app = express()
  app.use(securityHeaders(options))
  app.get(pathname, (_req, res) => void res.send(cspNonce(res)))
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  close = () => server.close()
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${pathname}`)
  return { headers: response.headers, nonce: await response.text() }
}

describe('securityHeaders', () => {
  it('names the nonce the response used in script-src and style-src, and sends no HSTS for an http origin', async () => {
    const { headers, nonce } = await headersFor({ siteUrl: 'http://localhost:3000' })
    expect(headers.get('content-security-policy')).toContain(`script-src 'nonce-${nonce}' 'strict-dynamic';style-src 'nonce-${nonce}';`)
    expect(headers.get('strict-transport-security')).toBeNull()
    expect(headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests')
  })

  it('adds HSTS for an https origin and the given checkout, content and image origins', async () => {
    const { headers } = await headersFor({
      siteUrl: 'https://events.example.com',
      formTargets: ['https://c.yoco.com'],
      connectOrigins: ['https://abc123.apicdn.sanity.io'],
      imageOrigins: ['https://cdn.sanity.io'],
    })
    expect(headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains')
    const csp = headers.get('content-security-policy')
    expect(csp).toContain("form-action 'self' https://events.example.com https://c.yoco.com;")
    expect(csp).toContain("connect-src 'self' https://abc123.apicdn.sanity.io;")
    expect(csp).toContain("img-src 'self' https://cdn.sanity.io;")
    expect(csp).toContain('upgrade-insecure-requests')
  })

  it('lets a form lead to the public origin, which may not be the address the browser is on', async () => {
    // Browsing at 127.0.0.1 while SITE_URL is localhost: the Pay button's 303 to the site address is a form's redirect.
    const { headers } = await headersFor({ siteUrl: 'http://localhost:3000/' })
    expect(headers.get('content-security-policy')).toContain("form-action 'self' http://localhost:3000;")
  })

  it('refuses framing, but lets the given origins frame the responses they are given for', async () => {
    const closed = await headersFor({ siteUrl: 'http://localhost:3000' })
    expect(closed.headers.get('content-security-policy')).toContain("frame-ancestors 'none';")
    expect(closed.headers.get('x-frame-options')).toBe('DENY')
    const framed = await headersFor({ siteUrl: 'http://localhost:3000', framingOrigins: () => ['https://events.sanity.studio'] })
    expect(framed.headers.get('content-security-policy')).toContain('frame-ancestors https://events.sanity.studio;')
    expect(framed.headers.get('x-frame-options')).toBeNull()
  })

  it.each([
    ['/', '()'],
    ['/administration', '()'],
    ['/admin', '(self)'],
    ['/admin/sign-in', '(self)'],
    ['/admin/events/event-legal-opinion/check-in', '(self)'],
  ])('switches the camera and passkeys off on %s but for the back office, whose desk scans passes and staff use passkeys (%s)', async (pathname, allowed) => {
    const { headers } = await headersFor({ siteUrl: 'http://localhost:3000' }, pathname)
    const policy = headers.get('permissions-policy')!
    expect(policy).toContain(`camera=${allowed}`)
    expect(policy).toContain(`publickey-credentials-get=${allowed}`)
    expect(policy).toContain('microphone=()')
  })

  it('refuses to hand out a nonce for a response it did not see', () => {
    expect(() => cspNonce({ locals: {} } as express.Response)).toThrow(/securityHeaders middleware did not run/)
  })
})
