// What a probe gets and leaves behind: a post to a path no page answers, or a form post another site made the browser
// send, is answered with a page in the visitor's words (404, 403), never the router's bare 400, and logs no error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSite, type RunningSite } from '../support/site-server.ts'

let site: RunningSite

beforeAll(async () => {
  site = await startSite({ env: { FORM_RATE_LIMIT: '0' } })
})
afterAll(async () => {
  await site?.stop()
})

const FORM = 'fullName=Probe&email=probe%40example.org&message=hello'

function postForm(pathname: string, headers: Record<string, string>): Promise<Response> {
  return fetch(`${site.baseUrl}${pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...headers },
    body: FORM,
  })
}

const logLines = () =>
  site
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))

describe('probes', () => {
  it.each(['/no-such-page', '/wp-login.php', '/admin/no-such-screen', '/events/no-such-event/register/extra'])(
    'a post to %s answers the not-found page',
    async (pathname) => {
      const response = await postForm(pathname, { origin: site.baseUrl, 'sec-fetch-site': 'same-origin' })
      expect(response.status).toBe(404)
      expect(response.headers.get('content-type')).toMatch(/^text\/html/)
      expect(await response.text()).toMatch(/<main/)
    },
  )

  it.each([
    ['another origin', { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' }],
    ['another origin without Fetch Metadata', { origin: 'https://attacker.example' }],
    ['an opaque origin', { origin: 'null' }],
    ['Fetch Metadata alone', { 'sec-fetch-site': 'cross-site' }],
  ])('a form post from %s to a page is refused with 403 in words', async (_from, headers) => {
    for (const pathname of ['/contact', '/admin/sign-in', '/no-such-page']) {
      const response = await postForm(pathname, headers)
      expect(response.status).toBe(403)
      expect(await response.text()).toContain('This form was sent from another site, so nothing was done.')
    }
  })

  it('logs them as warnings at most, never as errors', async () => {
    await postForm('/no-such-page', { origin: site.baseUrl })
    await postForm('/contact', { origin: 'https://attacker.example' })
    await expect.poll(() => logLines().some((line) => line.includes('"level":40') && line.includes('another site'))).toBe(true)
    // (A starting site answers /readyz 503 until it is ready; that line is not about a probe.)
    const errors = logLines().filter((line) => line.includes('"level":50') && !line.includes('"url":"/readyz"'))
    expect(errors.map((line) => line.slice(0, 400))).toEqual([])
  })
})
