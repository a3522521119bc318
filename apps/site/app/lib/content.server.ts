import { fetchNamedContent, type ContentQueryName, type ContentQueryResults } from '@events/content'
import type { SanityClient } from '@sanity/client'
import { dehydrate, QueryClient, type DehydratedState } from '@tanstack/react-query'
import { contentQueryKey, undatedContent, type ContentRequest } from './content'

type Results<Requests extends readonly ContentRequest[]> = { [Index in keyof Requests]: ContentQueryResults[Requests[Index]['name']] }

/**
 * Fetches every request into a fresh React Query cache; returns the results in order and the cache dehydrated for the
 * browser, without the moments it was fetched: the same content then renders the same bytes on every instance, and
 * the browser dates it when the page hydrates (withLoaderContent).
 */
export async function prefetchContent<const Requests extends readonly ContentRequest[]>(
  client: SanityClient,
  requests: Requests,
): Promise<{ dehydratedState: DehydratedState; results: Results<Requests> }> {
  const queryClient = new QueryClient()
  const results = await Promise.all(
    requests.map((request: ContentRequest<ContentQueryName>) =>
      queryClient.fetchQuery({ queryKey: contentQueryKey(request), queryFn: () => fetchNamedContent(client, request.name, request.params) }),
    ),
  )
  return { dehydratedState: undatedContent(dehydrate(queryClient)), results: results as Results<Requests> }
}
