// What browser bundles get for `@events/content` (the "browser" export condition): the queries' names, shapes and
// result types, never the content client or the local endpoint. The browser reads content through the site.
export { LOCAL_CONTENT_PREFIX, LOCAL_DATASET } from './constants.ts'
export type { ContentQueryName, ContentQueryParams, ContentQueryResults } from './named-queries.ts'
export * from './placeholders.ts'
export type { ImageSources, WithImageSources } from './image-sources.ts'
export type { RichText, WithRichText } from './rich-text.ts'
export * from './queries.ts'
export type * from './sanity.types.ts'
export * from './sponsor-benefits.ts'
