export type BioPreview = {
  /** The whole bio when it fits, otherwise its first characters followed by '…'. */
  text: string
  truncated: boolean
}

// Made on first use: building a segmenter loads the break rules, a long task on a slow phone, and a bio that fits
// needs none.
let graphemes: Intl.Segmenter | undefined

/**
 * The first `limit` characters of a bio (runs of whitespace count as one space) plus '…' when the bio is longer.
 * Characters are counted as the reader sees them, so an emoji or an accented letter is never cut in half.
 */
export function previewBio(bio: string | null | undefined, limit: number): BioPreview {
  const normalised = (bio ?? '').replace(/\s+/g, ' ').trim()
  // Never more characters than UTF-16 code units.
  if (normalised.length <= limit) return { text: normalised, truncated: false }
  graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' })
  const characters = Array.from(graphemes.segment(normalised), ({ segment }) => segment)
  if (characters.length <= limit) return { text: normalised, truncated: false }
  return { text: `${characters.slice(0, limit).join('').trimEnd()}…`, truncated: true }
}
