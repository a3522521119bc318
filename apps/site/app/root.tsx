import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { lazy, Suspense, useContext, useState, type ReactNode } from 'react'
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteError, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/root'
import { Footer } from './components/Footer'
import { Header } from './components/Header'
import { prefetchContent } from './lib/content.server'
import { LoaderContent } from './lib/content'
import { bodyFontUrl } from './lib/fonts'
import { InlineStylesContext } from './lib/inline-styles'
import { useNonce } from './lib/nonce'
import { siteSettingsRequest } from './lib/site-settings'
import { LazyToaster } from './lib/toast'
import { requestFactsContext, servicesContext } from './lib/services.server'
import { ErrorPage, NotFoundPage, UnavailablePage } from './components/ErrorPages'

export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  // Fetched with the HTML rather than after the stylesheet is parsed, so text is rarely drawn in the fallback first.
  { rel: 'preload', href: bodyFontUrl, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
]

// Loaded only for an editor in draft mode, so public pages' JavaScript stays as it is.
const PreviewTools = lazy(() => import('./components/PreviewTools'))

export async function loader({ context }: Route.LoaderArgs) {
  const { content, config } = context.get(servicesContext)
  const { preview, log } = context.get(requestFactsContext)
  return {
    preview,
    dehydratedState: (await prefetchContent(content, [siteSettingsRequest], log)).dehydratedState,
    siteUrl: config.siteUrl,
    now: config.now().toISOString(),
  }
}

/** Only error pages use the root's title: every route sets its own. */
export function meta({ error }: Route.MetaArgs) {
  if (!error) return []
  const status = isRouteErrorResponse(error) ? error.status : undefined
  const title = status === 404 ? 'Page not found' : status === 503 ? 'Temporarily unavailable' : 'Something went wrong'
  return [{ title }, { name: 'robots', content: 'noindex' }]
}

// Runs before first paint so enhanced widgets (menus, carousel) render collapsed without a layout shift;
// without JavaScript the class stays "no-js" and everything is shown expanded.
// It also hands the nonce to goober, which react-hot-toast uses to add its <style> element at run time.
const enhancementFlag = `document.documentElement.className=document.documentElement.className.replace('no-js','js');window.__nonce__=document.currentScript.nonce`

export function Layout({ children }: { children: ReactNode }) {
  // The stylesheet travels inside the HTML: on mobile data a render-blocking request costs more than its bytes.
  // In the browser React finds the server's element by its href and keeps it.
  const styles = useContext(InlineStylesContext)
  const nonce = useNonce()
  // React Query's cache of the page's content (lib/content.tsx): a new one for each server render, so no request's
  // content reaches another's page, and one for the browser session, as the layout stays mounted across navigations.
  const [queryClient] = useState(() => new QueryClient())
  return (
    <html lang="en-ZA" className="no-js">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b3d5c" />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: enhancementFlag }} />
        <style href="site-styles" precedence="default" nonce={nonce}>
          {styles}
        </style>
        <Meta />
        <Links />
      </head>
      <body>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
      <LazyToaster />
    </>
  )
}

/** The id of the back office's layout route (routes.ts), which brings its own header instead of the site's. */
const ADMIN_LAYOUT_ID = 'admin'

export default function App({ loaderData }: Route.ComponentProps) {
  const backOffice = useMatches().some((match) => match.id === ADMIN_LAYOUT_ID)
  if (backOffice) return <Outlet />
  return (
    <LoaderContent state={loaderData.dehydratedState}>
      <Shell>
        <Outlet />
      </Shell>
      {loaderData.preview ? (
        <Suspense>
          <PreviewTools />
        </Suspense>
      ) : null}
    </LoaderContent>
  )
}

// A page whose loader failed is rendered by this boundary, with the headers its failure carried: no caching, and
// Retry-After while the database is away.
export function headers({ errorHeaders }: Route.HeadersArgs) {
  return errorHeaders ?? new Headers()
}

export function ErrorBoundary() {
  const error = useRouteError()
  const rootData = useRouteLoaderData<typeof loader>('root')
  const status = isRouteErrorResponse(error) ? error.status : undefined
  // 503: the page's data could not be read just now (lib/database.server.ts, lib/content.server.ts), not a fault in the page.
  const page = status === 404 ? <NotFoundPage /> : status === 503 ? <UnavailablePage /> : <ErrorPage error={error} />
  // Without the root's data (the content source is out of reach) there are no site settings for the header and
  // footer: the card stands alone, still in the page's main landmark.
  if (!rootData)
    return (
      <main id="main" className="main--standalone">
        {page}
      </main>
    )
  return (
    <LoaderContent state={rootData.dehydratedState}>
      <Shell>{page}</Shell>
    </LoaderContent>
  )
}
