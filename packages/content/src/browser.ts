// What browser bundles get for `@events/content` (the "browser" export condition): everything but
// the local endpoint and dataset loading, which need Node's file system.
export {
  CONTENT_ENV_VARS,
  DEFAULT_SANITY_API_VERSION,
  contentMode,
  createContentClient,
  type ContentClientOptions,
  type ContentEnv,
  type ContentMode,
} from './client.ts'
export { LOCAL_CONTENT_PREFIX, LOCAL_DATASET } from './constants.ts'
export * from './placeholders.ts'
export * from './queries.ts'
export type * from './sanity.types.ts'
