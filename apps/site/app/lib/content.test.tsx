import { dehydrate, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { act, render, screen } from '@testing-library/react'
import { useState, type ReactNode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CONTENT_STALE_TIME_MS, contentQuery, contentQueryKey, contentRequest, undatedContent, useContent, withLoaderContent } from './content'

const termsRequest = contentRequest('page', { slug: 'terms' })

/** What the loader of a page showing `termsRequest` hands the browser: its content dehydrated, as fetched `ageMs` ago. */
function loaderData(title: string, ageMs = 0) {
  const serverClient = new QueryClient()
  serverClient.setQueryData(contentQueryKey(termsRequest), { title }, { updatedAt: Date.now() - ageMs })
  return { dehydratedState: dehydrate(serverClient) }
}

let renders = 0
const TermsRoute = withLoaderContent(function Terms(_props: { loaderData: ReturnType<typeof loaderData> }) {
  renders += 1
  const page = useContent(termsRequest)
  return <h1>{page?.title}</h1>
})

// A page's QueryClient, on the server and in the browser, as the root's layout provides it.
function Page({ data, children }: { data: ReturnType<typeof loaderData>; children?: ReactNode }): ReactNode {
  const [queryClient] = useState(() => new QueryClient())
  return (
    <QueryClientProvider client={queryClient}>
      <TermsRoute loaderData={data} />
      {children}
    </QueryClientProvider>
  )
}

// Another reader of the same query, which does follow its fetches: when it shows a refetch as settled, every
// reader has been told of it.
function FetchStatus() {
  const { isFetching } = useQuery(contentQuery(termsRequest))
  return <p>{isFetching ? 'refetching' : 'settled'}</p>
}

function answerContent(title: string) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async () => Response.json({ title }))
}

// React Query starts a fetch on mount or focus and settles it in promise callbacks: let them run.
const settle = () => act(async () => {})

afterEach(() => {
  renders = 0
  vi.useRealTimers()
})

describe('content from a loader', () => {
  it('hydrates the server’s HTML without a mismatch and without fetching it again', async () => {
    const fetchSpy = answerContent('Refetched')
    // Half the stale time old: a page the server rendered a moment ago, sent on from its cache.
    const data = loaderData('Terms and conditions', CONTENT_STALE_TIME_MS / 2)
    const container = document.createElement('div')
    container.innerHTML = renderToString(<Page data={data} />)
    document.body.append(container)
    const recoverableErrors: unknown[] = []

    const root = await act(async () => hydrateRoot(container, <Page data={data} />, { onRecoverableError: (error) => recoverableErrors.push(error) }))
    await settle()

    expect(recoverableErrors).toEqual([])
    expect(container.querySelector('h1')?.textContent).toBe('Terms and conditions')
    expect(fetchSpy).not.toHaveBeenCalled()
    act(() => root.unmount())
    container.remove()
  })

  it('dates undated content (a cached page, the same bytes on every instance) when the page arrives: no refetch as it hydrates', async () => {
    const fetchSpy = answerContent('Refetched')
    // Rendered long ago and kept: the page carries no moment of its own.
    const data = { dehydratedState: undatedContent(loaderData('Terms and conditions', 10 * CONTENT_STALE_TIME_MS).dehydratedState) }
    expect(JSON.stringify(data)).not.toMatch(/"(dataUpdatedAt|dehydratedAt)":[1-9]/)
    const container = document.createElement('div')
    container.innerHTML = renderToString(<Page data={data} />)
    document.body.append(container)
    const root = await act(async () => hydrateRoot(container, <Page data={data} />))
    await settle()
    expect(container.querySelector('h1')?.textContent).toBe('Terms and conditions')
    expect(fetchSpy).not.toHaveBeenCalled()
    act(() => root.unmount())
    container.remove()
  })

  it('refetches content older than the stale time through the site’s content route', async () => {
    const fetchSpy = answerContent('Terms, as edited')
    render(<Page data={loaderData('Terms and conditions', CONTENT_STALE_TIME_MS + 1_000)} />)
    expect(screen.getByRole('heading')).toHaveTextContent('Terms and conditions')

    expect(await screen.findByRole('heading', { name: 'Terms, as edited' })).toBeInTheDocument()
    expect(fetchSpy).toHaveBeenCalledTimes(1)
    expect(String(fetchSpy.mock.calls[0]![0])).toBe('/api/content/page?slug=terms')
  })

  it('does not render again when a refetch brings the same content', async () => {
    const fetchSpy = answerContent('Terms and conditions')
    render(
      <Page data={loaderData('Terms and conditions', CONTENT_STALE_TIME_MS + 1_000)}>
        <FetchStatus />
      </Page>,
    )
    expect(screen.getByText('refetching')).toBeInTheDocument()

    expect(await screen.findByText('settled')).toBeInTheDocument()
    expect(fetchSpy).toHaveBeenCalledTimes(1)
    expect(renders).toBe(1)
  })

  it('refetches on window focus once the content has gone stale', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const fetchSpy = answerContent('Terms, as edited')
    render(<Page data={loaderData('Terms and conditions', CONTENT_STALE_TIME_MS / 2)} />)
    await settle()
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }))
    await settle()
    expect(fetchSpy).not.toHaveBeenCalled()

    vi.setSystemTime(Date.now() + CONTENT_STALE_TIME_MS / 2 + 1_000)
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }))

    expect(await screen.findByRole('heading', { name: 'Terms, as edited' })).toBeInTheDocument()
    expect(fetchSpy).toHaveBeenCalledTimes(1)
  })
})
