// The server's answers without a browser: what a crawler or a visitor without JavaScript receives.
import { describe, expect, it } from 'vitest'
import { siteUrl } from '../support/browser.ts'
import { caseRedirects, contentPages } from '../support/routes.ts'

/** The visible text of one element of the page (scripts and the dehydrated state left out), spaces collapsed. */
function textOf(html: string, element: 'main' | 'footer'): string {
  const inner = new RegExp(`<${element}[\\s>][\\s\\S]*?</${element}>`).exec(html)?.[0] ?? ''
  return inner
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&amp;', '&')
    .replaceAll('&#x27;', "'")
    .replace(/\s+/g, ' ')
}

// What the specification says each page shows, checked in the HTML the server sends (no JavaScript involved).
interface PageContent {
  pathname: string
  shown: readonly string[]
  notShown?: readonly string[]
}

const pageContent: readonly PageContent[] = [
  { pathname: '/', shown: ['Mission', 'Vision', 'Core Values', '1250+', '2180+', '95%', 'Fill in the form below', 'Online Training'] },
  {
    pathname: '/workshop',
    shown: [
      'Workshops',
      'Intelligent Business',
      'Legal Opinion Writing 2025',
      '3–4 July 2025',
      'Legal Secretary Workshop 2025',
      'Office Professionals 2025',
      'Indaba Hotel, Fourways, Sandton, Johannesburg',
      'More-Info',
    ],
    notShown: ['Board Management'],
  },
  { pathname: '/conference', shown: ['Conferences', 'Intelligent Business', 'Economic Resilience Conference 2025', '23–24 July 2025', 'More-Info'] },
  { pathname: '/conference/Resilience', shown: ['Overview', 'Agenda', 'Register', 'Speakers', 'Sponsor', 'Economic Resilience Conference 2025'] },
  { pathname: '/terms', shown: ['5 days', '14 working days', '50%', '100%'] },
  { pathname: '/sponsorship', shown: ['Platinum', 'Gold', 'Silver'] },
  { pathname: '/inhouse-training', shown: ['Request a training proposal'] },
  { pathname: '/online-training', shown: ['Request a training proposal'] },
  { pathname: '/privacy', shown: ['What we collect', 'Why we use it', 'How long we keep it', 'Your rights', 'Information officer'] },
  // Each form says what it collects and links the privacy notice (POPIA).
  { pathname: '/conference/Resilience/contact', shown: ['privacy notice'] },
  { pathname: '/inhouse-training/request', shown: ['privacy notice'] },
]

describe('server-rendered HTML', () => {
  it.each(contentPages)('%s answers 200 with exactly one <h1>', async (pathname) => {
    const response = await fetch(siteUrl(pathname))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect((await response.text()).match(/<h1[\s>]/g)).toHaveLength(1)
  })

  it.each(pageContent)('$pathname shows its content in the server HTML', async ({ pathname, shown, notShown = [] }) => {
    const main = textOf(await (await fetch(siteUrl(pathname))).text(), 'main')
    for (const text of shown) expect(main).toContain(text)
    for (const text of notShown) expect(main).not.toContain(text)
  })

  it('lists the workshops in the order the events team set, not by date', async () => {
    const html = await (await fetch(siteUrl('/workshop'))).text()
    const titles = [...html.matchAll(/<h2>([^<]+)<\/h2>/g)].map((match) => match[1])
    expect(titles).toEqual(['Legal Opinion Writing 2025', 'Legal Secretary Workshop 2025', 'Office Professionals 2025'])
  })

  it('every page has the footer quick links, social links and copyright', async () => {
    const footer = textOf(await (await fetch(siteUrl('/mission'))).text(), 'footer')
    for (const text of ['Home', 'About', 'Divisions', 'Ts & Cs', 'Contact', 'Facebook', 'Instagram', 'LinkedIn', '©']) expect(footer).toContain(text)
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
