import type { QueryParams, SanityClient } from '@sanity/client'
import type { DehydratedState, QueryClient, QueryObserverResult } from '@tanstack/react-query'
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { useRouteLoaderData } from 'react-router'
import type { PublicContentConfig } from './services.server'

/** A GROQ query and its parameters: the unit React Query caches content by. */
export interface ContentRequest {
  query: string
  params: QueryParams
}

export function contentRequest(query: string, params: QueryParams = {}): ContentRequest {
  return { query, params }
}

export function contentQueryKey(request: ContentRequest) {
  return ['content', request.query, request.params] as const
}

/** How long content fetched by the server counts as fresh in the browser before React Query refetches it. */
export const CONTENT_STALE_TIME_MS = 60_000

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

// React Query and the Sanity client load after the page is interactive: the server already rendered the
// content, so neither belongs in a page's initial JavaScript.
interface BrowserRuntime {
  queryClient: QueryClient
  QueryObserver: typeof import('@tanstack/react-query').QueryObserver
  client: SanityClient
}

let browserRuntime: Promise<BrowserRuntime> | undefined

// No QueryClientProvider mounts this client, and only a mounted client refetches on window focus and reconnect.
function mountedQueryClient(queryClient: QueryClient): QueryClient {
  queryClient.mount()
  return queryClient
}

function loadBrowserRuntime(config: PublicContentConfig): Promise<BrowserRuntime> {
  browserRuntime ??= Promise.all([import('@tanstack/react-query'), import('@sanity/client')]).then(([reactQuery, sanity]) => ({
    queryClient: mountedQueryClient(new reactQuery.QueryClient({ defaultOptions: { queries: { staleTime: CONTENT_STALE_TIME_MS } } })),
    QueryObserver: reactQuery.QueryObserver,
    client: sanity.createClient({
      projectId: config.projectId,
      dataset: config.dataset,
      apiVersion: config.apiVersion,
      useCdn: config.useCdn,
      perspective: 'published',
      ...(config.apiHost ? { apiHost: `${window.location.origin}${config.apiHost}`, useProjectHostname: false } : {}),
    }),
  }))
  return browserRuntime
}

/**
 * Reads content the server prefetched, so the first render matches the server's HTML; in the browser a
 * React Query observer then keeps it current (refetching when stale, e.g. on window focus).
 */
export function useContent<T>(request: ContentRequest): T {
  const states = useContext(DehydratedContext)
  const root = useRouteLoaderData('root') as { contentConfig: PublicContentConfig } | undefined
  const queryKey = contentQueryKey(request)
  const queryHash = keyIdentity(queryKey)
  const prefetched = findPrefetched(states, queryHash)
  const [live, setLive] = useState<(Snapshot & { queryHash: string }) | undefined>()

  useEffect(() => {
    if (!root) return
    let unsubscribe: (() => void) | undefined
    let cancelled = false
    void loadBrowserRuntime(root.contentConfig).then(({ queryClient, QueryObserver, client }) => {
      if (cancelled) return
      if (prefetched && !queryClient.getQueryData(queryKey)) {
        queryClient.setQueryData(queryKey, prefetched.data, { updatedAt: prefetched.updatedAt })
      }
      const observer = new QueryObserver(queryClient, {
        queryKey,
        queryFn: () => client.fetch<T>(request.query, request.params),
      })
      unsubscribe = observer.subscribe((result: QueryObserverResult<T>) => {
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
    // The hash stands for the whole key; the loaded runtime and config are process-wide.
  }, [queryHash])

  const current = live?.queryHash === queryHash && (!prefetched || live.updatedAt >= prefetched.updatedAt) ? live : prefetched
  if (!current) throw new Error(`Content was not prefetched for ${queryHash}`)
  return current.data as T
}
