import { LOCAL_CONTENT_PREFIX, socialImageQuery, socialImageUrl, type SocialImageQueryResult } from '@events/content'
import type { SanityClient } from '@sanity/client'
import { DEFAULT_SOCIAL_IMAGE, socialImagePath } from './social-image'

/**
 * The 1200×630 link-preview image of an event or page: from Sanity's CDN, cut about the editor's hotspot; for the
 * embedded dataset's SVG artwork, the PNG the build made of it; otherwise the site's own.
 */
export async function socialImageOf(content: SanityClient, documentId: string): Promise<string> {
  const image = (await content.fetch<SocialImageQueryResult>(socialImageQuery, { id: documentId }))?.image
  if (!image) return DEFAULT_SOCIAL_IMAGE
  const { projectId, dataset } = content.config()
  const hosted = socialImageUrl(image, { projectId, dataset })
  if (hosted) return hosted
  return image.url?.startsWith(LOCAL_CONTENT_PREFIX) && image.url.endsWith('.svg') ? socialImagePath(image.url) : DEFAULT_SOCIAL_IMAGE
}
