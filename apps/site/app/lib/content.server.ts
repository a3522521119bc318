import type { SanityClient } from '@sanity/client'
import { dehydrate, QueryClient, type DehydratedState } from '@tanstack/react-query'
import { contentQueryKey, type ContentRequest } from './content'

/** Fetches every request into a fresh React Query cache; returns the results in order and the cache dehydrated for the browser. */
export async function prefetchContent(
  client: SanityClient,
  requests: ContentRequest[],
): Promise<{ dehydratedState: DehydratedState; results: unknown[] }> {
  const queryClient = new QueryClient()
  const results = await Promise.all(
    requests.map((request) =>
      queryClient.fetchQuery({ queryKey: contentQueryKey(request), queryFn: () => client.fetch(request.query, request.params) }),
    ),
  )
  return { dehydratedState: dehydrate(queryClient), results }
}
