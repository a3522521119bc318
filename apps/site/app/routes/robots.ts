import type { Route } from './+types/robots'
import { servicesContext } from '../lib/services.server'

export function loader({ context }: Route.LoaderArgs) {
  const { config } = context.get(servicesContext)
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /registrations/',
    'Disallow: /pass/',
    'Disallow: /join/',
    'Disallow: /certificates/',
    'Disallow: /_content/',
    `Sitemap: ${config.siteUrl}/sitemap.xml`,
    '',
  ].join('\n')
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } })
}
