import interLatinUrl from '../fonts/inter-latin-wght-400-800.woff2?url'
import { BODY_FONT_UNICODE_RANGE, BODY_FONT_WEIGHTS } from './body-font-subset'

/** The site's typeface, Inter (variable weight), cut to the site's weights and latin: served from its own assets and preloaded. */
export const bodyFontUrl = interLatinUrl

// Written here rather than in the stylesheet because only the bundler knows the file's hashed URL.
export const bodyFontFace = `@font-face{font-family:'Inter Variable';font-style:normal;font-display:swap;font-weight:${BODY_FONT_WEIGHTS.min} ${BODY_FONT_WEIGHTS.max};src:url(${interLatinUrl}) format('woff2-variations');unicode-range:${BODY_FONT_UNICODE_RANGE}}`
