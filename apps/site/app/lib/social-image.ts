/** Link-preview images are 1200×630, the size social sites show large. */
export const SOCIAL_IMAGE_WIDTH = 1200
export const SOCIAL_IMAGE_HEIGHT = 630

/** The link-preview PNG the build makes of a shipped SVG file: `/og/event-pfas.png` for `…/images/event-pfas.svg`. */
export function socialImagePath(svgFile: string): string {
  const name = svgFile
    .split('/')
    .at(-1)!
    .replace(/\.svg$/, '')
  return `/og/${name}.png`
}

/** The site's own preview image, for pages without a picture: the home page's artwork. */
export const DEFAULT_SOCIAL_IMAGE = socialImagePath('page-home.svg')
