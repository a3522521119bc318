import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { renderToPipeableStream } from 'react-dom/server'
import { ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router'
import { InlineStylesContext } from './lib/inline-styles'
import siteStyles from './styles/app.css?inline'
import widgetStyles from './styles/event-widgets.css?inline'

const inlineStyles = siteStyles + widgetStyles

export const streamTimeout = 5_000

/**
 * React Router's Node entry, except that every response waits for the whole page and keeps Suspense boundaries
 * in place: lazily loaded panels and forms are then part of the HTML itself, so they work without JavaScript
 * (streamed or out-of-line Suspense content needs a script to show).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  _loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === 'HEAD') return new Response(null, { status: responseStatusCode, headers: responseHeaders })

  return new Promise<Response>((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000)
    const { pipe, abort } = renderToPipeableStream(
      <InlineStylesContext.Provider value={inlineStyles}>
        <ServerRouter context={routerContext} url={request.url} />
      </InlineStylesContext.Provider>,
      {
      // React moves large Suspense boundaries out of line to stream them; this page is sent whole, so keep them in place.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        const body = new PassThrough({
          final(callback) {
            clearTimeout(timeoutId)
            timeoutId = undefined
            callback()
          },
        })
        responseHeaders.set('Content-Type', 'text/html')
        pipe(body)
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
      },
      onShellError(error: unknown) {
        reject(error)
      },
      onError(error: unknown) {
        responseStatusCode = 500
        console.error(error)
      },
    })
  })
}
