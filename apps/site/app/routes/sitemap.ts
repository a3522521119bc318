import { eventSlugsQuery, type EventSlugsQueryResult } from '@events/content/browser'
import { fetchWholeContent } from '@events/content/whole-content'
import type { Route } from './+types/sitemap'
import { servicesContext } from '../lib/services.server'

const staticPaths = [
  '/',
  '/conference',
  '/workshop',
  '/inhouse-training',
  '/online-training',
  '/sponsorship',
  '/mission',
  '/vision',
  '/values',
  '/terms',
  '/privacy',
]

function escapeXml(value: string) {
  return value.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`)
}

export async function loader({ context }: Route.LoaderArgs) {
  const { content, config } = context.get(servicesContext)
  const events = await fetchWholeContent<EventSlugsQueryResult>(content, eventSlugsQuery)
  const entries = [
    ...staticPaths.map((path) => ({ path, lastModified: undefined as string | undefined })),
    ...events.map((event) => ({ path: `/${event.kind}/${event.slug}`, lastModified: event._updatedAt })),
  ]
  const urls = entries
    .map(
      ({ path, lastModified }) =>
        `  <url><loc>${escapeXml(config.siteUrl + path)}</loc>${lastModified ? `<lastmod>${escapeXml(lastModified)}</lastmod>` : ''}</url>`,
    )
    .join('\n')
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } })
}
