import type { ContentQueryName, ContentQueryParams, ContentQueryResults } from '@events/content/browser'
import { HydrationBoundary, queryOptions, useSuspenseQuery, type DehydratedState } from '@tanstack/react-query'
import { useMemo, type ComponentType, type ReactNode } from 'react'

/** A named content query of @events/content and its parameters: the unit React Query caches content by. */
export interface ContentRequest<Name extends ContentQueryName = ContentQueryName> {
  name: Name
  params: ContentQueryParams<Name>
}

type ParamsArgument<Name extends ContentQueryName> = object extends ContentQueryParams<Name> ? [] : [params: ContentQueryParams<Name>]

export function contentRequest<Name extends ContentQueryName>(name: Name, ...[params]: ParamsArgument<Name>): ContentRequest<Name> {
  return { name, params: (params ?? {}) as ContentQueryParams<Name> }
}

export function contentQueryKey(request: ContentRequest) {
  return ['content', request.name, request.params] as const
}

/** How long content fetched by the server counts as fresh in the browser before React Query refetches it. */
export const CONTENT_STALE_TIME_MS = 60_000

/** The site's own route for a named query: the browser never sends a query to a content endpoint. */
function contentUrl(request: ContentRequest): string {
  const search = new URLSearchParams(request.params as Record<string, string>).toString()
  return `/api/content/${request.name}${search ? `?${search}` : ''}`
}

async function fetchFromSite<Name extends ContentQueryName>(request: ContentRequest<Name>): Promise<ContentQueryResults[Name]> {
  const response = await fetch(contentUrl(request), { headers: { accept: 'application/json' } })
  if (!response.ok) throw new Error(`${contentUrl(request)} answered ${response.status}`)
  return (await response.json()) as ContentQueryResults[Name]
}

/**
 * The browser's query for a content request: refetched through the site's content route once the content is older
 * than CONTENT_STALE_TIME_MS (on window focus, for one). Its age counts from the server's fetch (the dehydrated
 * `dataUpdatedAt`), so a freshly rendered page is not fetched again as it hydrates.
 */
export function contentQuery<Name extends ContentQueryName>(request: ContentRequest<Name>) {
  return queryOptions({
    queryKey: contentQueryKey(request),
    queryFn: () => fetchFromSite(request),
    staleTime: CONTENT_STALE_TIME_MS,
  })
}

/**
 * The dehydrated content without the moments it was fetched and dehydrated (0 instead): a cached page must be the
 * same bytes on every instance for the same content, and those moments differ by instance and render.
 */
export function undatedContent(state: DehydratedState): DehydratedState {
  return { ...state, queries: state.queries.map((query) => ({ ...query, dehydratedAt: 0, state: { ...query.state, dataUpdatedAt: 0 } })) }
}

/** Undated content (undatedContent) dated at `now`: as fresh as the page that brought it. */
function datedContent(state: DehydratedState, now: number): DehydratedState {
  return {
    ...state,
    queries: state.queries.map((query) =>
      query.state.dataUpdatedAt === 0 ? { ...query, dehydratedAt: now, state: { ...query.state, dataUpdatedAt: now } } : query,
    ),
  }
}

/**
 * Wraps a route component in a HydrationBoundary holding its loader's prefetched content (prefetchContent), so
 * `useContent` in the component and below reads it on the first render, in the server's HTML and when it hydrates.
 * The content counts as fetched when this route first rendered it: its freshness runs from the page's arrival.
 */
export function withLoaderContent<Props extends { loaderData: { dehydratedState: DehydratedState } }>(RouteComponent: ComponentType<Props>) {
  return function RouteWithContent(props: Props) {
    return (
      <LoaderContent state={props.loaderData.dehydratedState}>
        <RouteComponent {...props} />
      </LoaderContent>
    )
  }
}

/**
 * A HydrationBoundary for a loader's prefetched content, dated when it arrives (a page load, a navigation, a
 * revalidation): the root's site settings as much as a route's content. Undated, React Query would take the content
 * for stale and fetch it again as the page hydrates.
 */
export function LoaderContent({ state, children }: { state: DehydratedState; children: ReactNode }) {
  const dated = useMemo(() => datedContent(state, Date.now()), [state])
  return <HydrationBoundary state={dated}>{children}</HydrationBoundary>
}

/**
 * The content of a request that a loader prefetched, kept current in the browser by React Query.
 *
 * It re-renders only when the content itself changes: the component reads nothing but `data`, which React Query
 * tracks, and a refetch that brings the same content keeps the same object. A re-render while a lazily loaded part
 * is still on its way would make React give up that part's server HTML.
 */
export function useContent<Name extends ContentQueryName>(request: ContentRequest<Name>): ContentQueryResults[Name] {
  return useSuspenseQuery(contentQuery(request)).data
}
