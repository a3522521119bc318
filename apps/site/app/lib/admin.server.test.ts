import { createLogger } from '@events/observability'
import { RouterContextProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { afterSignInPath, refuseCrossSitePost } from './admin.server'
import { requestFactsContext, servicesContext, type SiteServices } from './services.server'

const SITE = 'https://events.example.co.za'

function argsFor(headers: Record<string, string>) {
  const context = new RouterContextProvider()
  context.set(servicesContext, { config: { siteUrl: SITE } } as SiteServices)
  context.set(requestFactsContext, { clientIp: '198.51.100.7', log: createLogger({ level: 'silent' }), cspNonce: '', preview: false, dataRequest: false })
  return { request: new Request(`${SITE}/admin/staff`, { method: 'POST', headers }), context }
}

function refusal(headers: Record<string, string>): number | null {
  try {
    refuseCrossSitePost(argsFor(headers))
    return null
  } catch (error) {
    return (error as { init?: { status?: number } }).init?.status ?? -1
  }
}

describe('refuseCrossSitePost', () => {
  it('admits a post from the site itself', () => {
    expect(refusal({ origin: SITE, 'sec-fetch-site': 'same-origin' })).toBeNull()
    expect(refusal({ origin: SITE })).toBeNull()
    expect(refusal({ 'sec-fetch-site': 'same-origin' })).toBeNull()
  })

  it('refuses with 403 a post from another site, a sibling subdomain, or one that says nothing of where it came from', () => {
    expect(refusal({ origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' })).toBe(403)
    expect(refusal({ origin: 'https://shop.example.co.za', 'sec-fetch-site': 'same-site' })).toBe(403)
    expect(refusal({ 'sec-fetch-site': 'cross-site' })).toBe(403)
    expect(refusal({ origin: 'null' })).toBe(403)
    expect(refusal({ origin: 'http://events.example.co.za' })).toBe(403)
    expect(refusal({})).toBe(403)
  })
})

describe('afterSignInPath', () => {
  it('returns to the back-office page asked for, and never leaves the back office', () => {
    expect(afterSignInPath('/admin/audit?page=2')).toBe('/admin/audit?page=2')
    expect(afterSignInPath(null)).toBe('/admin')
    expect(afterSignInPath('https://attacker.example/admin')).toBe('/admin')
    expect(afterSignInPath('//attacker.example')).toBe('/admin')
    expect(afterSignInPath('/admin/sign-in')).toBe('/admin')
  })
})
