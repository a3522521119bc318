import type { MetaDescriptor } from 'react-router'
import { SOCIAL_IMAGE_HEIGHT, SOCIAL_IMAGE_WIDTH } from './social-image'

export interface PageMeta {
  title: string
  description: string
  /** Path of the canonical URL, e.g. "/conference/Resilience". */
  path: string
  siteUrl: string
  siteName?: string
  /** The link-preview image, 1200×630 (see socialImageOf). */
  image?: string | null
  type?: 'website' | 'article'
}

/** Title, description, canonical URL, Open Graph and Twitter tags for one page. */
export function pageMeta({ title, description, path, siteUrl, siteName, image, type = 'website' }: PageMeta): MetaDescriptor[] {
  const url = `${siteUrl}${path}`
  const fullTitle = siteName && !title.includes(siteName) ? `${title} | ${siteName}` : title
  const imageUrl = image ? new URL(image, siteUrl).toString() : undefined
  return [
    { title: fullTitle },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:type', content: type },
    { property: 'og:title', content: fullTitle },
    { property: 'og:description', content: description },
    { property: 'og:url', content: url },
    ...(siteName ? [{ property: 'og:site_name', content: siteName }] : []),
    ...(imageUrl
      ? [
          { property: 'og:image', content: imageUrl },
          { property: 'og:image:width', content: String(SOCIAL_IMAGE_WIDTH) },
          { property: 'og:image:height', content: String(SOCIAL_IMAGE_HEIGHT) },
        ]
      : []),
    { name: 'twitter:card', content: imageUrl ? 'summary_large_image' : 'summary' },
    { name: 'twitter:title', content: fullTitle },
    { name: 'twitter:description', content: description },
    ...(imageUrl ? [{ name: 'twitter:image', content: imageUrl }] : []),
  ]
}

/** The meta of a route whose loader returns its page's `meta` and the `siteUrl`; none when the loader failed. */
export function loaderPageMeta({ loaderData }: { loaderData: { meta: Omit<PageMeta, 'siteUrl'>; siteUrl: string } | undefined }): MetaDescriptor[] {
  return loaderData ? pageMeta({ ...loaderData.meta, siteUrl: loaderData.siteUrl }) : []
}
