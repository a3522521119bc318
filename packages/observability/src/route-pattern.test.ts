import { describe, expect, it } from 'vitest'
import { UNMATCHED_ROUTE, createRoutePatternMatcher } from './route-pattern.ts'

const routePattern = createRoutePatternMatcher([
  '/',
  '/conference',
  '/conference/:slug',
  '/conference/:slug/contact',
  '/sponsorship',
  '/sponsorship/contact',
  '/registrations/:reference/:secret',
  '/registrations/:reference/:secret/pay',
  '/registrations/:reference/:secret/invoice.pdf',
  '/:kind/:slug/calendar.ics',
  '/api/registrations',
  '/assets/*',
])

describe('createRoutePatternMatcher', () => {
  it.each([
    ['/', '/'],
    ['/conference', '/conference'],
    ['/conference/', '/conference'],
    ['/conference/Resilience', '/conference/:slug'],
    ['/conference/Resilience/contact', '/conference/:slug/contact'],
    ['/sponsorship/contact', '/sponsorship/contact'],
    ['/registrations/ABC-123/c2VjcmV0', '/registrations/:reference/:secret'],
    ['/registrations/ABC-123/c2VjcmV0/pay', '/registrations/:reference/:secret/pay'],
    ['/registrations/ABC-123/c2VjcmV0/invoice.pdf', '/registrations/:reference/:secret/invoice.pdf'],
    ['/workshop/legalOpinion/calendar.ics', '/:kind/:slug/calendar.ics'],
    ['/api/registrations', '/api/registrations'],
    ['/assets/entry-abc123.js', '/assets/*'],
    ['/assets/chunks/deep/file.css', '/assets/*'],
    ['/wp-login.php', UNMATCHED_ROUTE],
    ['/conference/Resilience/contact/extra', UNMATCHED_ROUTE],
  ])('%s is %s', (path, pattern) => {
    expect(routePattern(path)).toBe(pattern)
  })

  it('prefers a literal segment over a parameter whatever the order of the patterns', () => {
    const reversed = createRoutePatternMatcher(['/:kind/:slug/calendar.ics', '/conference/:slug/calendar.ics'])
    expect(reversed('/conference/pfas/calendar.ics')).toBe('/conference/:slug/calendar.ics')
  })

  it('counts every unknown path as one route, behind a catch-all when there is one', () => {
    expect(createRoutePatternMatcher(['/', '/*'])('/no/such/page')).toBe('/*')
  })
})
