export { DEFAULT_SANITY_API_VERSION, createContentClient, type ContentClientOptions, type ContentSettings } from './client.ts'
export {
  documentsForPerspective,
  loadDataset,
  type DatasetAssetFile,
  type LoadDatasetOptions,
  type LoadedDataset,
  type Perspective,
  type SanityDocument,
} from './dataset.ts'
export { LOCAL_CONTENT_PREFIX, LOCAL_DATASET } from './constants.ts'
export { eventDateLabel, formatDay } from './event-dates.ts'
export { venueLabel } from './venue.ts'
export { watchDataset, type DatasetWatch } from './dataset-watch.ts'
export { createLocalContentSource, type ContentHealth, type LocalContentSource, type LocalContentSourceOptions } from './local-source.ts'
export {
  fetchNamedContent,
  parseContentQuery,
  type ContentQueryName,
  type ContentQueryParams,
  type ContentQueryRefusal,
  type ContentQueryResults,
  type ParsedContentQuery,
} from './named-queries.ts'
export * from './placeholders.ts'
export {
  imageSources,
  OG_IMAGE_HEIGHT,
  OG_IMAGE_WIDTH,
  socialImageUrl,
  withImageSources,
  type ImageProject,
  type ImageSources,
  type ProjectedImage,
  type WithImageSources,
} from './image-sources.ts'
export { renderRichText, withRichText, type RichText, type WithRichText } from './rich-text.ts'
export { safeHref } from './rich-text-links.ts'
export { fetchWholeContent, forgetReportedContentProblems, keepWhole, reportContentProblemsTo, type ContentProblem } from './whole-content.ts'
export { followRedirects, redirectLocation, redirectsOf, renamedEventSlug, type Redirect, type RedirectOutcome } from './redirects.ts'
export * from './queries.ts'
export type * from './sanity.types.ts'
export * from './sponsor-benefits.ts'
