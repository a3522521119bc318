// What the site keeps of Inter, its typeface: the subset `pnpm font:subset` cuts from @fontsource-variable/inter's latin
// file into app/fonts/. Read by the @font-face rule (fonts.ts) and by that script, so the two cannot disagree.

/** The weights the design uses (--weight-regular to --weight-heavy in styles/tokens.css): the variable axis is cut to them. */
export const BODY_FONT_WEIGHTS = { min: 400, max: 800 } as const

/** fontsource's latin range; text outside it falls back to the metric-matched face in tokens.css. */
export const BODY_FONT_UNICODE_RANGE =
  'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD'

/** The code points of BODY_FONT_UNICODE_RANGE. */
export function bodyFontCodePoints(): number[] {
  return BODY_FONT_UNICODE_RANGE.split(',').flatMap((range) => {
    const [first, last = first] = range
      .slice('U+'.length)
      .split('-')
      .map((hex) => Number.parseInt(hex, 16))
    return Array.from({ length: last! - first! + 1 }, (_, offset) => first! + offset)
  })
}
