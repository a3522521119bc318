import { redirectLocation, redirectsOf, redirectsQuery, type RedirectsQueryResult } from '@events/content'
import type { SanityClient } from '@sanity/client'
import { data, redirect } from 'react-router'
import { pagePathname } from './page-path'

/**
 * What a path nothing answers gets: a 301 to where the editors' redirects (a renamed event's old slug, say) send it,
 * with its query kept, or else the 404 page with `message`. Always throws, for a loader to end with.
 */
export async function throwRedirectOrNotFound(content: SanityClient, request: Request, message: string): Promise<never> {
  const redirects = await content.fetch<RedirectsQueryResult>(redirectsQuery)
  const location = redirectLocation(redirectsOf(redirects), pagePathname(request))
  if (location !== undefined) {
    // React Router's data requests name the routes to load; the page's own query is what the new address keeps.
    const search = new URL(request.url).searchParams
    search.delete('_routes')
    const query = search.toString()
    throw redirect(query ? `${location}?${query}` : location, 301)
  }
  throw data(message, { status: 404 })
}
