// The server's answers without a browser: what a crawler or a visitor without JavaScript receives.
import { describe, expect, it } from 'vitest'
import { siteUrl } from '../support/browser.ts'
import { caseRedirects, contentPages } from '../support/routes.ts'

describe('server-rendered HTML', () => {
  it.each(contentPages)('%s answers 200 with an <h1>', async (pathname) => {
    const response = await fetch(siteUrl(pathname))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await response.text()).toMatch(/<h1[\s>]/)
  })

  it('an unknown path answers 404 with a page that links onwards', async () => {
    const response = await fetch(siteUrl('/no-such-page'))
    expect(response.status).toBe(404)
    const html = await response.text()
    expect(html).toMatch(/<h1[\s>]/)
    expect(html).toMatch(/<main[\s\S]*<a [^>]*href=[\s\S]*<\/main>/)
  })

  it.each(caseRedirects)('%s redirects permanently to %s', async (from, to) => {
    const response = await fetch(siteUrl(from), { redirect: 'manual' })
    expect(response.status).toBe(301)
    expect(new URL(response.headers.get('location') ?? '', siteUrl(from)).pathname).toBe(to)
  })

  it('/healthz answers 200', async () => {
    expect((await fetch(siteUrl('/healthz'))).status).toBe(200)
  })

  it('/sitemap.xml lists the pages and /robots.txt points to it', async () => {
    const sitemap = await fetch(siteUrl('/sitemap.xml'))
    expect(sitemap.status).toBe(200)
    expect(sitemap.headers.get('content-type')).toMatch(/xml/)
    const xml = await sitemap.text()
    expect(xml).toContain('<urlset')
    expect(xml).toContain('/conference/Resilience</loc>')

    const robots = await fetch(siteUrl('/robots.txt'))
    expect(robots.status).toBe(200)
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await robots.text()).toMatch(/^Sitemap: \S+\/sitemap\.xml$/m)
  })
})
