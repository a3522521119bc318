// What search engines and link previews read: titles, descriptions, canonical URLs, Open Graph and Twitter
// tags, the events' schema.org data, the sitemap and robots.txt. Read from the server's HTML, without JavaScript.
import { describe, expect, it } from 'vitest'
import { siteUrl } from '../support/browser.ts'
import { contentPages, eventPages } from '../support/routes.ts'

async function htmlOf(pathname: string): Promise<string> {
  const response = await fetch(siteUrl(pathname))
  expect(response.status).toBe(200)
  return response.text()
}

function metaContent(html: string, attribute: 'name' | 'property', key: string): string | undefined {
  const tag = html.match(new RegExp(`<meta[^>]*${attribute}="${key}"[^>]*>`))?.[0]
  return tag?.match(/content="([^"]*)"/)?.[1]
}

describe('every page describes itself', () => {
  const titles = new Map<string, string>()

  it.each(contentPages)('%s has a title, description, canonical URL, Open Graph and Twitter tags', async (pathname) => {
    const html = await htmlOf(pathname)
    const title = html.match(/<title>([^<]+)<\/title>/)?.[1]
    expect(title?.trim()).toBeTruthy()
    titles.set(pathname, title!)
    expect(metaContent(html, 'name', 'description')?.length).toBeGreaterThan(20)
    const canonical = html.match(/<link[^>]*rel="canonical"[^>]*href="([^"]+)"/)?.[1]
    expect(canonical).toBe(siteUrl(pathname))
    expect(metaContent(html, 'property', 'og:title')).toBeTruthy()
    expect(metaContent(html, 'property', 'og:url')).toBe(canonical)
    expect(metaContent(html, 'name', 'twitter:card')).toMatch(/^summary/)
  })

  it('no two pages share a title', () => {
    expect(new Set(titles.values()).size).toBe(titles.size)
  })
})

describe('event pages carry schema.org Event data', () => {
  it.each(eventPages)('%s', async (pathname) => {
    const html = await htmlOf(pathname)
    const json = html.match(/<script type="application\/ld\+json">([^<]+)<\/script>/)?.[1]
    expect(json).toBeDefined()
    const event = JSON.parse(json!) as Record<string, unknown> & { offers: Array<Record<string, string>>; organizer: Record<string, string> }
    expect(event['@type']).toBe('Event')
    expect(String(event.startDate)).toMatch(/^2025-/)
    expect(Date.parse(String(event.endDate))).toBeGreaterThan(Date.parse(String(event.startDate)))
    expect(String(event.eventAttendanceMode)).toMatch(/^https:\/\/schema\.org\/(Offline|Online|Mixed)EventAttendanceMode$/)
    expect(event.location).toBeDefined()
    expect(event.organizer['@type']).toBe('Organization')
    expect(event.offers.length).toBeGreaterThanOrEqual(3)
    for (const offer of event.offers) {
      expect(offer.priceCurrency).toBe('ZAR')
      expect(offer.price).toMatch(/^\d+\.\d{2}$/)
    }
  })

  it('prices the Resilience venue option incl. VAT as packages/pricing does', async () => {
    const html = await htmlOf('/conference/Resilience')
    const event = JSON.parse(html.match(/<script type="application\/ld\+json">([^<]+)<\/script>/)![1]!) as { offers: Array<{ price: string }> }
    expect(event.offers.map((offer) => offer.price)).toContain('9763.50')
  })
})

describe('sitemap and robots', () => {
  it('lists every event page and the main pages in the sitemap', async () => {
    const response = await fetch(siteUrl('/sitemap.xml'))
    expect(response.headers.get('content-type')).toMatch(/xml/)
    const xml = await response.text()
    for (const pathname of [...eventPages, '/', '/conference', '/workshop', '/terms']) {
      expect(xml).toContain(`<loc>${siteUrl(pathname)}</loc>`)
    }
  })

  it('points robots at the sitemap and keeps private registration pages out', async () => {
    const robots = await (await fetch(siteUrl('/robots.txt'))).text()
    expect(robots).toContain(`Sitemap: ${siteUrl('/sitemap.xml')}`)
    expect(robots).toContain('Disallow: /registrations/')
    expect(robots).toContain('Disallow: /pass/')
    expect(robots).toContain('Disallow: /join/')
    expect(robots).toContain('Disallow: /certificates/')
  })
})
