import { createClient, type SanityClient } from '@sanity/client'
import { LOCAL_CONTENT_PREFIX, LOCAL_DATASET } from './constants.ts'

/** Sanity API version used when SANITY_API_VERSION is not set. */
export const DEFAULT_SANITY_API_VERSION = '2025-02-19'

/** Where the content client reads: a Sanity project, or (without one) the embedded endpoint. Handed over by `@events/config`. */
export interface ContentSettings {
  /** SANITY_API_VERSION; default {@link DEFAULT_SANITY_API_VERSION}. */
  apiVersion?: string
  /** SANITY_PROJECT_ID and SANITY_DATASET (both set), with SANITY_API_READ_TOKEN for a private dataset and drafts. */
  sanity?: { projectId: string; dataset: string; readToken?: string | undefined }
}

/** Options for {@link createContentClient}. */
export interface ContentClientOptions {
  /** Origin of the server that mounts the local endpoint, e.g. "http://127.0.0.1:3000"; used in local mode. */
  localApiHost: string
  /** Path the local endpoint is mounted under. Default "/_content". */
  localPrefix?: string
  /** How often a failed request is tried again, with backoff. Default: the client's own (5). */
  maxRetries?: number
}

/**
 * Creates the `@sanity/client` the site reads content with: Sanity's Content Lake (CDN, published
 * perspective) for a Sanity project, otherwise the local endpoint.
 */
export function createContentClient(settings: ContentSettings, options: ContentClientOptions): SanityClient {
  const apiVersion = settings.apiVersion ?? DEFAULT_SANITY_API_VERSION
  const retries = options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }
  if (settings.sanity) {
    const { projectId, dataset, readToken } = settings.sanity
    return createClient({
      projectId,
      dataset,
      apiVersion,
      useCdn: true,
      perspective: 'published',
      ...retries,
      ...(readToken ? { token: readToken } : {}),
    })
  }
  const prefix = options.localPrefix ?? LOCAL_CONTENT_PREFIX
  // Without the project hostname the client builds `${apiHost}/v${apiVersion}/data/query/${dataset}`,
  // which is the route the local endpoint answers under its prefix.
  return createClient({
    apiHost: `${options.localApiHost.replace(/\/$/, '')}${prefix}`,
    useProjectHostname: false,
    projectId: 'local',
    dataset: LOCAL_DATASET,
    apiVersion,
    useCdn: false,
    perspective: 'published',
    ...retries,
  })
}
