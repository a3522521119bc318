import type { SanityClient } from '@sanity/client'
import { withImageSources, type WithImageSources } from './image-sources.ts'
import { withRichText, type WithRichText } from './rich-text.ts'
import { keepWhole, reportLeftOut } from './whole-content.ts'
import { divisionsQuery, eventCardsQuery, eventPageQuery, pageQuery, siteSettingsQuery, sponsorPackagesQuery } from './queries.ts'
import type {
  DivisionsQueryResult,
  EventCardsQueryResult,
  EventPageQueryResult,
  PageQueryResult,
  SiteSettingsQueryResult,
  SponsorPackagesQueryResult,
} from './sanity.types.ts'

// Slugs as the studio makes them: letters, digits and hyphens. Parameters only ever reach GROQ as `$` params,
// never spliced into a query, but a strict shape keeps the cache keys and the logs free of junk.
const SLUG = /^[A-Za-z0-9][A-Za-z0-9-]{0,95}$/
const EVENT_KIND = /^(conference|workshop)$/

/**
 * The queries the browser may have the site run for it, each with the parameters it takes and their shapes. The
 * other queries of this package (registrations, the sitemap, placeholders) are for the server alone.
 */
const namedQueries = {
  siteSettings: { query: siteSettingsQuery, params: {} },
  page: { query: pageQuery, params: { slug: SLUG } },
  divisions: { query: divisionsQuery, params: {} },
  eventCards: { query: eventCardsQuery, params: { kind: EVENT_KIND } },
  eventPage: { query: eventPageQuery, params: { kind: EVENT_KIND, slug: SLUG } },
  sponsorPackages: { query: sponsorPackagesQuery, params: {} },
} as const satisfies Record<string, { query: string; params: Record<string, RegExp> }>

/** A query result as pages get it: images with their URLs built, rich text as HTML and plain text. */
type Prepared<Result> = WithRichText<WithImageSources<Result>>

/** What each named query returns, from the TypeGen types, prepared on the server (withImageSources, withRichText). */
export interface ContentQueryResults {
  siteSettings: Prepared<SiteSettingsQueryResult>
  page: Prepared<PageQueryResult>
  divisions: Prepared<DivisionsQueryResult>
  eventCards: Prepared<EventCardsQueryResult>
  eventPage: Prepared<EventPageQueryResult>
  sponsorPackages: Prepared<SponsorPackagesQueryResult>
}

export type ContentQueryName = keyof typeof namedQueries & keyof ContentQueryResults

/** The string parameters a named query takes. */
export type ContentQueryParams<Name extends ContentQueryName> = { [Param in keyof (typeof namedQueries)[Name]['params']]: string }

/** Why a request for a named query was refused, in words a caller can show. */
export type ContentQueryRefusal = { code: 'unknown-query'; message: string } | { code: 'invalid-params'; message: string; fields: Record<string, string> }

export type ParsedContentQuery = { ok: true; name: ContentQueryName; params: Record<string, string> } | { ok: false; refusal: ContentQueryRefusal }

function isContentQueryName(name: string): name is ContentQueryName {
  return Object.hasOwn(namedQueries, name)
}

/**
 * Checks a request for a named query: a known name, exactly its parameters, each given once and of its shape.
 * `params` are the request's search parameters (repeated names appear more than once).
 */
export function parseContentQuery(name: string, params: Iterable<[string, string]>): ParsedContentQuery {
  if (!isContentQueryName(name)) {
    return { ok: false, refusal: { code: 'unknown-query', message: `There is no content named "${name.slice(0, 60)}".` } }
  }
  const shapes: Record<string, RegExp> = namedQueries[name].params
  const values: Record<string, string> = {}
  const fields: Record<string, string> = {}
  for (const [param, value] of params) {
    if (!Object.hasOwn(shapes, param)) fields[param] = 'This content takes no such parameter.'
    else if (Object.hasOwn(values, param)) fields[param] = 'Give this parameter once.'
    else if (!shapes[param]!.test(value)) fields[param] = 'This value is not in the expected form.'
    else values[param] = value
  }
  for (const param of Object.keys(shapes)) {
    if (!Object.hasOwn(values, param) && !fields[param]) fields[param] = 'This parameter is required.'
  }
  if (Object.keys(fields).length > 0) {
    return { ok: false, refusal: { code: 'invalid-params', message: 'The content parameters are not valid.', fields } }
  }
  return { ok: true, name, params: values }
}

/**
 * Runs a named query with the content client; its parameters are passed as GROQ `$` parameters. Images come back with
 * their URLs built here, on the server, and rich text comes back as HTML, so pages and the browser's refetches share
 * them and the browser needs neither an image URL builder nor a Portable Text renderer. Parts that are not whole (a
 * deleted speaker, a price without an amount) are left out first (keepWhole).
 */
export async function fetchNamedContent<Name extends ContentQueryName>(
  client: SanityClient,
  name: Name,
  params: ContentQueryParams<Name>,
): Promise<ContentQueryResults[Name]> {
  const { projectId, dataset } = client.config()
  const { value: result, problems } = keepWhole(namedQueries[name].query, await client.fetch<unknown>(namedQueries[name].query, params))
  reportLeftOut(problems)
  return withRichText(withImageSources(result, { projectId, dataset })) as ContentQueryResults[Name]
}
