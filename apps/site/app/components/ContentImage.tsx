import type { ImageSources } from '@events/content/browser'

interface ContentImageProps {
  image: ImageSources & { alt?: string | null }
  /** How wide the image is shown, for the browser to pick from the srcset (CSS `sizes` syntax). */
  sizes: string
  className?: string
  /** Overrides the image's own alternative text (the logo strip's hidden copies have none). */
  alt?: string
  /**
   * The image a page opens with on a phone, likely its largest paint: fetched at once and first, where a lazy image
   * would wait for layout to find it in view.
   */
  priority?: boolean
}

/**
 * An image of the content, with the URLs the server built for it: from Sanity's CDN a srcset the browser picks from
 * by `sizes`, from the embedded dataset its shipped file. Width and height are always set, so nothing shifts as it loads.
 */
export function ContentImage({ image, sizes, className, alt, priority = false }: ContentImageProps) {
  if (!image.url) return null
  return (
    <img
      className={className}
      src={image.url}
      srcSet={image.srcSet ?? undefined}
      sizes={image.srcSet ? sizes : undefined}
      width={image.width ?? undefined}
      height={image.height ?? undefined}
      alt={alt ?? image.alt ?? ''}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
    />
  )
}
