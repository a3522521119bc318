import { useContext, type ReactNode } from 'react'
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError, useRouteLoaderData } from 'react-router'
import { siteSettingsQuery } from '@events/content/browser'
import type { Route } from './+types/root'
import { Footer } from './components/Footer'
import { Header } from './components/Header'
import { ContentBoundary, contentRequest } from './lib/content'
import { prefetchContent } from './lib/content.server'
import { InlineStylesContext } from './lib/inline-styles'
import { LazyToaster } from './lib/toast'
import { servicesContext } from './lib/services.server'
import { ErrorPage, NotFoundPage } from './components/ErrorPages'

export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export const siteSettingsRequest = contentRequest(siteSettingsQuery)

export async function loader({ context }: Route.LoaderArgs) {
  const { content, publicContentConfig, config } = context.get(servicesContext)
  return {
    dehydratedState: (await prefetchContent(content, [siteSettingsRequest])).dehydratedState,
    contentConfig: publicContentConfig,
    siteUrl: config.siteUrl,
    now: config.now().toISOString(),
  }
}

/** Only error pages use the root's title: every route sets its own. */
export function meta({ error }: Route.MetaArgs) {
  if (!error) return []
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return [{ title: notFound ? 'Page not found' : 'Something went wrong' }, { name: 'robots', content: 'noindex' }]
}

// Runs before first paint so enhanced widgets (menus, carousel) render collapsed without a layout shift;
// without JavaScript the class stays "no-js" and everything is shown expanded.
const enhancementFlag = `document.documentElement.className=document.documentElement.className.replace('no-js','js')`

export function Layout({ children }: { children: ReactNode }) {
  // The stylesheet travels inside the HTML: on mobile data a render-blocking request costs more than its bytes.
  // In the browser React finds the server's element by its href and keeps it.
  const styles = useContext(InlineStylesContext)
  return (
    <html lang="en-ZA" className="no-js">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b3d5c" />
        <script dangerouslySetInnerHTML={{ __html: enhancementFlag }} />
        <style href="site-styles" precedence="default">
          {styles}
        </style>
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
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

export default function App({ loaderData }: Route.ComponentProps) {
  return (
    <ContentBoundary state={loaderData.dehydratedState}>
      <Shell>
        <Outlet />
      </Shell>
    </ContentBoundary>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  const rootData = useRouteLoaderData<typeof loader>('root')
  const page = isRouteErrorResponse(error) && error.status === 404 ? <NotFoundPage /> : <ErrorPage error={error} />
  if (!rootData) return page
  return (
    <ContentBoundary state={rootData.dehydratedState}>
      <Shell>{page}</Shell>
    </ContentBoundary>
  )
}
