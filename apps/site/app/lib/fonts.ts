import interLatinUrl from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url'

/** The site's typeface, Inter (variable weight), latin subset: served from the site's own assets and preloaded. */
export const bodyFontUrl = interLatinUrl

// Written here rather than in the stylesheet because only the bundler knows the file's hashed URL.
// The latin range is fontsource's own; the rest of a page's text falls back to the metric-matched face in tokens.css.
export const bodyFontFace = `@font-face{font-family:'Inter Variable';font-style:normal;font-display:swap;font-weight:100 900;src:url(${interLatinUrl}) format('woff2-variations');unicode-range:U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD}`
