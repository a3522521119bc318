import { createImageUrlBuilder } from '@sanity/image-url'

/** Widths offered in a srcset, up to the image's own width. */
const SRCSET_WIDTHS = [320, 480, 640, 800, 1024, 1280, 1600, 1920]
/** Where Sanity serves a hosted project's images; its image pipeline crops, scales and converts them. */
const SANITY_CDN = 'https://cdn.sanity.io/'

export const OG_IMAGE_WIDTH = 1200
export const OG_IMAGE_HEIGHT = 630

/** The Sanity project images are built for. */
export interface ImageProject {
  projectId?: string
  dataset?: string
}

type Crop = { top?: number | null; bottom?: number | null; left?: number | null; right?: number | null }
type Hotspot = { x?: number | null; y?: number | null; width?: number | null; height?: number | null }

/** An image as the queries project it: the asset's URL and size, and what the editor chose in the studio. */
export interface ProjectedImage {
  url: string | null
  width: number | null
  height: number | null
  assetRef: string | null
  crop?: Crop | null
  hotspot?: Hotspot | null
  /** The shape the site shows it in (width / height); the hotspot decides what stays in the frame. */
  aspectRatio?: number | null
}

/** What an `<img>` needs: its URL, the srcset (hosted images only), and the width and height it is shown at. */
export interface ImageSources {
  url: string | null
  srcSet: string | null
  width: number | null
  height: number | null
}

const isHosted = (image: ProjectedImage, project: ImageProject): image is ProjectedImage & { assetRef: string } =>
  Boolean(image.assetRef && image.url?.startsWith(SANITY_CDN) && project.projectId && project.dataset)

function builderFor(image: ProjectedImage & { assetRef: string }, project: ImageProject) {
  const source = { asset: { _ref: image.assetRef }, crop: image.crop ?? undefined, hotspot: image.hotspot ?? undefined }
  return createImageUrlBuilder({ projectId: project.projectId!, dataset: project.dataset! }).image(
    source as Parameters<ReturnType<typeof createImageUrlBuilder>['image']>[0],
  )
}

/** The width and height the editor's crop leaves. */
function croppedSize(image: ProjectedImage): { width: number; height: number } | undefined {
  if (!image.width || !image.height) return undefined
  const crop = image.crop ?? {}
  return {
    width: Math.round(image.width * (1 - (crop.left ?? 0) - (crop.right ?? 0))),
    height: Math.round(image.height * (1 - (crop.top ?? 0) - (crop.bottom ?? 0))),
  }
}

/**
 * The sources of a projected image. From Sanity's CDN: URLs honouring the crop (`rect`) and, when the site shows
 * the image in another shape, the hotspot, at widths for a srcset, in the best format the browser takes. Other images
 * (the embedded dataset's shipped files) are served as they are.
 */
export function imageSources(image: ProjectedImage, project: ImageProject): ImageSources {
  const size = croppedSize(image)
  if (!isHosted(image, project) || !size) return { url: image.url, srcSet: null, width: image.width, height: image.height }
  const ratio = image.aspectRatio ?? size.width / size.height
  const heightAt = (width: number) => Math.round(width / ratio)
  const urlAt = (width: number) => builderFor(image, project).width(width).height(heightAt(width)).fit('crop').auto('format').url()
  const widths = [...SRCSET_WIDTHS.filter((width) => width < size.width), size.width]
  return {
    url: urlAt(Math.min(size.width, 1024)),
    srcSet: widths.map((width) => `${urlAt(width)} ${width}w`).join(', '),
    width: size.width,
    height: heightAt(size.width),
  }
}

/** A 1200×630 JPEG of a hosted image for link previews (social sites ignore SVG), or undefined for other images. */
export function socialImageUrl(image: ProjectedImage, project: ImageProject): string | undefined {
  if (!isHosted(image, project)) return undefined
  return builderFor(image, project).width(OG_IMAGE_WIDTH).height(OG_IMAGE_HEIGHT).fit('crop').format('jpg').url()
}

const PROJECTION_ONLY = ['assetRef', 'crop', 'hotspot', 'aspectRatio'] as const

/** A query result with each projected image replaced by its sources (and its alt text and other fields). */
export type WithImageSources<T> = T extends readonly (infer Item)[]
  ? WithImageSources<Item>[]
  : T extends { assetRef: unknown }
    ? Omit<T, (typeof PROJECTION_ONLY)[number] | keyof ImageSources> & ImageSources
    : T extends object
      ? { [Key in keyof T]: WithImageSources<T[Key]> }
      : T

const isProjectedImage = (value: object): value is ProjectedImage => 'assetRef' in value && 'url' in value

/** Replaces every projected image of a query result with its sources, so pages and the browser get ready URLs. */
export function withImageSources<T>(value: T, project: ImageProject): WithImageSources<T> {
  if (Array.isArray(value)) return value.map((item: unknown) => withImageSources(item, project)) as WithImageSources<T>
  if (value === null || typeof value !== 'object') return value as WithImageSources<T>
  const entries = Object.entries(value).map(([key, field]) => [key, withImageSources(field, project)])
  if (!isProjectedImage(value)) return Object.fromEntries(entries) as WithImageSources<T>
  const kept = entries.filter(([key]) => !(PROJECTION_ONLY as readonly string[]).includes(key as string))
  return { ...Object.fromEntries(kept), ...imageSources(value, project) } as WithImageSources<T>
}
