import { fetchNamedContent, parseContentQuery } from '@events/content'
import type { SanityClient } from '@sanity/client'
import express from 'express'

const CONTENT_UNAVAILABLE = 'The content could not be loaded just now. Please try again in a moment.'

/**
 * GET /api/content/:queryName?param=value: the browser's content refetches. Runs only the named queries of
 * @events/content with their checked parameters; 404 for another name, 400 for parameters it does not take. The
 * client is the request's own: a preview cookie's holder reads drafts.
 */
export function createContentApiRouter(contentFor: (req: express.Request) => SanityClient): express.Router {
  const router = express.Router()

  router.get('/:queryName', (req, res) => {
    const search = new URL(req.originalUrl, 'http://site.invalid').searchParams
    const parsed = parseContentQuery(req.params.queryName, search)
    res.set('Cache-Control', 'no-cache')
    if (!parsed.ok) {
      const { refusal } = parsed
      res.status(refusal.code === 'unknown-query' ? 404 : 400).json({ error: { fields: {}, ...refusal } })
      return
    }
    fetchNamedContent(contentFor(req), parsed.name, parsed.params).then(
      (result) => res.json(result),
      (error: unknown) => {
        // The reason may name hosts or files: it goes to the log, the visitor gets a retryable 503.
        req.log.error(`Content API: ${parsed.name} did not load: ${(error as Error).message}`)
        res
          .status(503)
          .set('Retry-After', '5')
          .json({ error: { code: 'content-unavailable', message: CONTENT_UNAVAILABLE, fields: {} } })
      },
    )
  })

  router.all('/:queryName', (_req, res) => {
    res
      .status(405)
      .set('Allow', 'GET, HEAD')
      .json({ error: { code: 'method-not-allowed', message: 'Use GET.', fields: {} } })
  })

  return router
}
