import { createClient, type SanityClient } from '@sanity/client'
import { LOCAL_CONTENT_PREFIX, LOCAL_DATASET } from './constants.ts'

/** Sanity API version used when SANITY_API_VERSION is not set. */
export const DEFAULT_SANITY_API_VERSION = '2025-02-19'

/** The environment variables that choose and configure the content backend, with their defaults. */
export const CONTENT_ENV_VARS = [
  {
    name: 'SANITY_PROJECT_ID',
    default: undefined,
    description: 'Sanity project ID; with SANITY_DATASET, reads content from Sanity instead of the embedded dataset',
  },
  {
    name: 'SANITY_DATASET',
    default: undefined,
    description: 'Sanity dataset name, e.g. "production"; needed together with SANITY_PROJECT_ID',
  },
  {
    name: 'SANITY_API_VERSION',
    default: DEFAULT_SANITY_API_VERSION,
    description: 'Sanity API version (YYYY-MM-DD)',
  },
  {
    name: 'SANITY_API_READ_TOKEN',
    default: undefined,
    description: 'Read token, needed for a private Sanity dataset and for draft previews',
  },
] as const

/** Environment variables the client factory reads (process.env fits). */
export type ContentEnv = Partial<Record<(typeof CONTENT_ENV_VARS)[number]['name'], string | undefined>>

/** Where the site's content comes from. */
export type ContentMode = 'hosted' | 'local'

/** "hosted" when SANITY_PROJECT_ID and SANITY_DATASET are both set, otherwise "local". */
export function contentMode(env: ContentEnv): ContentMode {
  return env.SANITY_PROJECT_ID && env.SANITY_DATASET ? 'hosted' : 'local'
}

/** Options for {@link createContentClient}. */
export interface ContentClientOptions {
  /** Origin of the server that mounts the local endpoint, e.g. "http://127.0.0.1:3000"; used in local mode. */
  localApiHost: string
  /** Path the local endpoint is mounted under. Default "/_content". */
  localPrefix?: string
}

/**
 * Creates the `@sanity/client` the site reads content with: Sanity's Content Lake (CDN, published
 * perspective) when SANITY_PROJECT_ID and SANITY_DATASET are set, otherwise the local endpoint.
 */
export function createContentClient(env: ContentEnv, options: ContentClientOptions): SanityClient {
  const apiVersion = env.SANITY_API_VERSION || DEFAULT_SANITY_API_VERSION
  if (contentMode(env) === 'hosted') {
    return createClient({
      projectId: env.SANITY_PROJECT_ID,
      dataset: env.SANITY_DATASET,
      apiVersion,
      useCdn: true,
      perspective: 'published',
      ...(env.SANITY_API_READ_TOKEN ? { token: env.SANITY_API_READ_TOKEN } : {}),
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
  })
}
