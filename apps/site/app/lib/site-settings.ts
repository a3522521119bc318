import type { SiteSettingsQueryResult } from '@events/content/browser'
import { siteSettingsRequest } from '../root'
import { useContent } from './content'

/** The site settings prefetched by the root route. */
export function useSiteSettings(): SiteSettingsQueryResult {
  return useContent(siteSettingsRequest)
}
