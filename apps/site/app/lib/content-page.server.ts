import type { ContentQueryResults } from '@events/content/browser'
import { data, type RouterContextProvider } from 'react-router'
import { contentRequest, type ContentRequest } from './content'
import { prefetchContent } from './content.server'
import { pageSlug } from './page-path'
import { requestFactsContext, servicesContext } from './services.server'
import { socialImageOf } from './social-image.server'

/**
 * The loader of a content page named by its path ('/terms', '/inhouse-training'): the page and any `extra`
 * content prefetched for the browser, and the page's meta. A slug with no page answers 404.
 */
export async function loadContentPage(context: Readonly<RouterContextProvider>, request: Request, extra: ContentRequest[] = []) {
  const { content, config } = context.get(servicesContext)
  const slug = pageSlug(request)
  const { dehydratedState, results } = await prefetchContent(content, [contentRequest('page', { slug }), ...extra], context.get(requestFactsContext).log)
  const page = results[0] as ContentQueryResults['page']
  if (!page) throw data('Page not found', { status: 404 })
  const image = await socialImageOf(content, page._id)
  return {
    dehydratedState,
    slug,
    siteUrl: config.siteUrl,
    meta: { title: page.title ?? '', description: page.seoDescription ?? '', path: `/${slug}`, image },
  }
}
