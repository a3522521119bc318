import type { SiteSettingsQueryResult } from '@events/content/browser'
import { contentRequest, useContent } from './content'

/** The site settings: prefetched by the root route for every page. */
export const siteSettingsRequest = contentRequest('siteSettings')

/** The site settings prefetched by the root route. */
export function useSiteSettings(): SiteSettingsQueryResult {
  return useContent(siteSettingsRequest)
}
