import { PassThrough, Transform } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { renderToPipeableStream } from 'react-dom/server'
import { isRouteErrorResponse, ServerRouter, type EntryContext, type HandleErrorFunction, type RouterContextProvider } from 'react-router'
import { deferHydrationScripts } from './lib/deferred-scripts.server'
import { bodyFontFace } from './lib/fonts'
import { InlineStylesContext } from './lib/inline-styles'
import { NonceContext } from './lib/nonce'
import { requestFactsContext } from './lib/services.server'
import tokenStyles from './styles/tokens.css?inline'
import siteStyles from './styles/app.css?inline'
import widgetStyles from './styles/event-widgets.css?inline'

const inlineStyles = bodyFontFace + tokenStyles + siteStyles + widgetStyles

export const streamTimeout = 5_000

/**
 * React Router's Node entry, except that every response waits for the whole page and keeps Suspense boundaries
 * in place: lazily loaded panels and forms are then part of the HTML itself, so they work without JavaScript
 * (streamed or out-of-line Suspense content needs a script to show). Its scripts load after its first paint
 * (lib/deferred-scripts.server.ts).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  responseHeaders.set('Content-Type', 'text/html')
  // A HEAD answers GET's status and headers without rendering a body nobody reads.
  if (request.method.toUpperCase() === 'HEAD') return new Response(null, { status: responseStatusCode, headers: responseHeaders })
  const { cspNonce } = loadContext.get(requestFactsContext)

  return new Promise<Response>((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000)
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={cspNonce}>
        <InlineStylesContext.Provider value={inlineStyles}>
          <ServerRouter context={routerContext} url={request.url} nonce={cspNonce} />
        </InlineStylesContext.Provider>
      </NonceContext.Provider>,
      {
        // React's own inline scripts and the hoisted stylesheet carry the nonce the Content-Security-Policy names.
        nonce: { script: cspNonce, style: cspNonce },
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
          // The page is sent whole anyway: held until React has written it, then its scripts are deferred.
          const chunks: Buffer[] = []
          const deferScripts = new Transform({
            transform(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk)
              callback()
            },
            flush(callback) {
              callback(null, deferHydrationScripts(Buffer.concat(chunks).toString('utf8')))
            },
          })
          pipe(deferScripts).pipe(body)
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          loadContext.get(requestFactsContext).log.error({ err: error }, 'Rendering the page failed')
        },
      },
    )
  })
}

/** A loader or action that threw: logged with the request's id rather than printed to the console. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // A visitor who went away is not a fault.
  if (request.signal.aborted) return
  // A post to a path no route answers, or one the router refuses: the visitor's doing, not a fault of the site.
  const level = isRouteErrorResponse(error) && error.status < 500 ? 'warn' : 'error'
  context.get(requestFactsContext).log[level]({ err: error }, `${request.method} ${new URL(request.url).pathname} failed`)
}
