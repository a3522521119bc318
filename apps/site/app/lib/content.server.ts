import { fetchNamedContent, type ContentQueryName, type ContentQueryResults } from '@events/content'
import type { Logger } from '@events/observability'
import type { SanityClient } from '@sanity/client'
import { dehydrate, QueryClient, type DehydratedState } from '@tanstack/react-query'
import { data } from 'react-router'
import { contentQueryKey, undatedContent, type ContentRequest } from './content'

type Results<Requests extends readonly ContentRequest[]> = { [Index in keyof Requests]: ContentQueryResults[Requests[Index]['name']] }

/** How long visitors are asked to wait when the content source does not answer: it is usually a brief outage. */
const CONTENT_RETRY_AFTER_SECONDS = 10

/**
 * Fetches every request into a fresh React Query cache; returns the results in order and the cache dehydrated for the
 * browser, without the moments it was fetched: the same content then renders the same bytes on every instance, and
 * the browser dates it when the page hydrates (withLoaderContent).
 *
 * A content source that cannot be reached (or answers with its own fault) becomes the branded "temporarily
 * unavailable" page with 503 and Retry-After, as the content route answers: the same request will work once the
 * source is back. A refusal of the query itself (4xx) is a fault of ours and stays an error. The reason may name
 * hosts, so it goes to `log`, never to the page.
 */
export async function prefetchContent<const Requests extends readonly ContentRequest[]>(
  client: SanityClient,
  requests: Requests,
  log?: Logger,
): Promise<{ dehydratedState: DehydratedState; results: Results<Requests> }> {
  const queryClient = new QueryClient()
  try {
    const results = await Promise.all(
      requests.map((request: ContentRequest<ContentQueryName>) =>
        queryClient.fetchQuery({ queryKey: contentQueryKey(request), queryFn: () => fetchNamedContent(client, request.name, request.params) }),
      ),
    )
    return { dehydratedState: undatedContent(dehydrate(queryClient)), results: results as Results<Requests> }
  } catch (error) {
    if (isQueryRefusal(error)) throw error
    log?.error({ err: error }, 'A page could not read the content source')
    throw data('The content source is unavailable', {
      status: 503,
      headers: { 'Cache-Control': 'no-store', 'Retry-After': String(CONTENT_RETRY_AFTER_SECONDS) },
    })
  }
}

/** The content source answered and refused the query (4xx other than rate limiting): our query is wrong. */
function isQueryRefusal(error: unknown): boolean {
  // By its status rather than by class: the client's errors may come from another copy of @sanity/client.
  const status = (error as { statusCode?: unknown } | null)?.statusCode
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 429
}
