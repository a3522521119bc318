import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { Resvg } from '@resvg/resvg-js'
import type { Plugin } from 'vite'
import { SOCIAL_IMAGE_HEIGHT, SOCIAL_IMAGE_WIDTH, socialImagePath } from '../app/lib/social-image.ts'

/**
 * A 1200×630 PNG of an SVG artwork, filling the frame and cut to it about the centre (social sites ignore SVG and
 * crop other shapes themselves).
 */
export function renderSocialImage(svg: string): Buffer {
  const framed = svg.replace(/<svg\b([^>]*)>/, (_root, attributes: string) => {
    const kept = attributes.replace(/\s(width|height|preserveAspectRatio)="[^"]*"/g, '')
    return `<svg${kept} width="${SOCIAL_IMAGE_WIDTH}" height="${SOCIAL_IMAGE_HEIGHT}" preserveAspectRatio="xMidYMid slice">`
  })
  return new Resvg(framed, { font: { loadSystemFonts: true } }).render().asPng()
}

type DatasetDocument = { _type?: string; card?: { image?: { _sanityAsset?: string } }; heroImage?: { _sanityAsset?: string } }

/** The shipped files of the events' card images and the pages' hero images, as `images/…svg` paths of the dataset. */
export function socialImageSources(ndjson: string): string[] {
  const files = ndjson
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as DatasetDocument)
    .map((document) =>
      document._type === 'event' ? document.card?.image?._sanityAsset : document._type === 'page' ? document.heroImage?._sanityAsset : undefined,
    )
    .flatMap((asset) => /^image@file:\/\/\.\/(.+\.svg)$/.exec(asset ?? '')?.[1] ?? [])
  return [...new Set(files)]
}

/** Emits the link-preview PNGs of the shipped dataset's events and pages into the client build. */
export function socialImagesPlugin({ datasetPath }: { datasetPath: string }): Plugin {
  return {
    name: 'events-social-images',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    async generateBundle() {
      const sources = socialImageSources(await readFile(datasetPath, 'utf8'))
      for (const source of sources) {
        const svg = await readFile(path.join(path.dirname(datasetPath), source), 'utf8')
        this.emitFile({ type: 'asset', fileName: socialImagePath(source).slice(1), source: renderSocialImage(svg) })
      }
    },
  }
}
