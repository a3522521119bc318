import { matchPath, matchRoutes, type RouteObject } from 'react-router'
import { describe, expect, it } from 'vitest'
import { SERVER_ROUTE_PATTERNS } from '../../server/route-patterns'
import routes from '../routes'
import { createSiteLinks, sitePaths } from './site-links'

const registration = { reference: 'ABCD2345', secret: 'c2VjcmV0LXNlY3JldA' }

/** The page route (not the catch-all) or the server route that answers a path of the site. */
function answeringRoute(path: string): string | undefined {
  const { pathname } = new URL(path, 'http://site.test')
  const server = SERVER_ROUTE_PATTERNS.find((pattern) => matchPath(pattern, pathname))
  if (server) return server
  const page = matchRoutes(routes as RouteObject[], pathname)?.at(-1)?.route.path
  return page === '*' ? undefined : page
}

describe('the site links', () => {
  it('lead to pages and downloads the site answers', () => {
    const paths = [
      sitePaths.registrationStatus(registration),
      sitePaths.registrationPayment(registration),
      ...(['success', 'cancel', 'failure'] as const).map((outcome) => sitePaths.paymentReturn(registration, outcome)),
      sitePaths.invoice(registration),
      sitePaths.creditNote(registration, 'CN-000001'),
      sitePaths.sandboxCheckout('ch_sandbox_1'),
      sitePaths.privacyNotice(),
      sitePaths.staffSignIn('/admin/staff'),
      sitePaths.staffTwoFactorSetup(),
      sitePaths.staffSetPassword('token'),
    ]
    for (const path of paths) expect(answeringRoute(path), path).toBeDefined()
  })

  it('are absolute under SITE_URL for e-mails and the card provider, with what they carry escaped', () => {
    const links = createSiteLinks('https://events.example.com/')
    expect(links.registrationStatus(registration)).toBe('https://events.example.com/registrations/ABCD2345/c2VjcmV0LXNlY3JldA')
    expect(links.registrationPayment(registration)).toBe('https://events.example.com/registrations/ABCD2345/c2VjcmV0LXNlY3JldA/pay')
    expect(links.paymentReturn(registration, 'cancel')).toBe('https://events.example.com/registrations/ABCD2345/c2VjcmV0LXNlY3JldA/payment/cancel')
    expect(links.privacyNotice()).toBe('https://events.example.com/privacy')
    expect(links.staffSignIn('/admin/registrations?page=2')).toBe('https://events.example.com/admin/sign-in?redirectTo=%2Fadmin%2Fregistrations%3Fpage%3D2')
    expect(links.staffSetPassword('a+b/c')).toBe('https://events.example.com/admin/set-password?token=a%2Bb%2Fc')
    expect(links.staffAuth()).toBe('https://events.example.com/admin/auth')
  })
})
