import type { ContentQueryName, ContentQueryParams, ContentQueryResults } from '@events/content/browser'
import type { DehydratedState, QueryClient, QueryObserverResult } from '@tanstack/react-query'
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'

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
export function contentUrl(request: ContentRequest): string {
  const search = new URLSearchParams(request.params as Record<string, string>).toString()
  return `/api/content/${request.name}${search ? `?${search}` : ''}`
}

async function fetchFromSite<Name extends ContentQueryName>(request: ContentRequest<Name>): Promise<ContentQueryResults[Name]> {
  const response = await fetch(contentUrl(request), { headers: { accept: 'application/json' } })
  if (!response.ok) throw new Error(`${contentUrl(request)} answered ${response.status}`)
  return (await response.json()) as ContentQueryResults[Name]
}

const DehydratedContext = createContext<readonly DehydratedState[]>([])

/** Makes a loader's dehydrated React Query cache readable by `useContent` below it (nested boundaries add up). */
export function ContentBoundary({ state, children }: { state: DehydratedState; children: ReactNode }) {
  const parents = useContext(DehydratedContext)
  const states = useMemo(() => [state, ...parents], [state, parents])
  return <DehydratedContext.Provider value={states}>{children}</DehydratedContext.Provider>
}

interface Snapshot {
  data: unknown
  updatedAt: number
}

// A key's identity independent of property order, as React Query compares keys; computed here so that
// React Query itself need not be in the page's initial JavaScript.
function keyIdentity(queryKey: readonly unknown[]): string {
  return JSON.stringify(queryKey, (_name, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  )
}

function findPrefetched(states: readonly DehydratedState[], queryHash: string): Snapshot | undefined {
  for (const state of states) {
    const query = state.queries.find((candidate) => keyIdentity(candidate.queryKey) === queryHash)
    if (query) return { data: query.state.data, updatedAt: query.state.dataUpdatedAt }
  }
  return undefined
}

// React Query loads after the page is interactive: the server already rendered the content, and in the initial
// JavaScript React Query's client, provider, hydration boundary and hooks would add about 10 KB gzip, taking the
// event pages to about 127 KB against their 118 KB budget (tests/support/page-weight.ts).
interface BrowserRuntime {
  queryClient: QueryClient
  QueryObserver: typeof import('@tanstack/react-query').QueryObserver
}

let browserRuntime: Promise<BrowserRuntime> | undefined

// No QueryClientProvider mounts this client, and only a mounted client refetches on window focus and reconnect.
function mountedQueryClient(queryClient: QueryClient): QueryClient {
  queryClient.mount()
  return queryClient
}

function loadBrowserRuntime(): Promise<BrowserRuntime> {
  browserRuntime ??= import('@tanstack/react-query').then((reactQuery) => ({
    queryClient: mountedQueryClient(new reactQuery.QueryClient({ defaultOptions: { queries: { staleTime: CONTENT_STALE_TIME_MS } } })),
    QueryObserver: reactQuery.QueryObserver,
  }))
  return browserRuntime
}

/**
 * Reads content the server prefetched, so the first render matches the server's HTML; in the browser a React
 * Query observer then keeps it current through the site's content route (refetching when stale, e.g. on window
 * focus).
 */
export function useContent<Name extends ContentQueryName>(request: ContentRequest<Name>): ContentQueryResults[Name] {
  const states = useContext(DehydratedContext)
  const queryKey = contentQueryKey(request)
  const queryHash = keyIdentity(queryKey)
  const prefetched = findPrefetched(states, queryHash)
  const [live, setLive] = useState<(Snapshot & { queryHash: string }) | undefined>()

  useEffect(() => {
    let unsubscribe: (() => void) | undefined
    let cancelled = false
    void loadBrowserRuntime().then(({ queryClient, QueryObserver }) => {
      if (cancelled) return
      if (prefetched && !queryClient.getQueryData(queryKey)) {
        queryClient.setQueryData(queryKey, prefetched.data, { updatedAt: prefetched.updatedAt })
      }
      const observer = new QueryObserver(queryClient, { queryKey, queryFn: () => fetchFromSite(request) })
      unsubscribe = observer.subscribe((result: QueryObserverResult) => {
        // Re-render only for newer content: an update right after hydration would make React give up the server
        // HTML of any lazily loaded part still on its way.
        if (result.status === 'success' && result.dataUpdatedAt > (prefetched?.updatedAt ?? 0)) {
          setLive({ queryHash, data: result.data, updatedAt: result.dataUpdatedAt })
        }
      })
    })
    return () => {
      cancelled = true
      unsubscribe?.()
    }
    // The hash stands for the whole key; the loaded runtime is process-wide.
  }, [queryHash])

  const current = live?.queryHash === queryHash && (!prefetched || live.updatedAt >= prefetched.updatedAt) ? live : prefetched
  if (!current) throw new Error(`Content was not prefetched for ${contentUrl(request)}`)
  return current.data as ContentQueryResults[Name]
}
