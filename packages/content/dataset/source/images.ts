// Generated placeholder artwork: flat SVGs with explicit width and height (the local content endpoint reads
// them for image dimensions). Cards and heroes are wordless designed artwork; portraits and logos say they are
// placeholders. Every one stays in the dataset's `placeholders` lists, which startup, the build and the Studio report.

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

function wrap(text: string, maxCharacters: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line && `${line} ${word}`.length > maxCharacters) {
      lines.push(line)
      line = word
    } else {
      line = line ? `${line} ${word}` : word
    }
  }
  if (line) lines.push(line)
  return lines
}

// Artwork without words (cards, heroes) has no title either: the page's alt text describes it.
function svg(width: number, height: number, body: string, title?: string): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">`,
    ...(title === undefined ? [] : [`<title>${escapeXml(title)}</title>`]),
    body,
    '</svg>',
    '',
  ].join('\n')
}

/**
 * The site's palette (apps/site/app/styles/tokens.css), so placeholder artwork looks like part of the site it is shown
 * on; a test keeps the two in step.
 */
export const PALETTE = {
  brand: '#0b3d5c',
  brandDark: '#072a40',
  brandTint: '#e6f0f6',
  accent: '#f2a900',
  onBrandMuted: '#d4e2ec',
} as const

function brandGradient(id: string): string {
  return [
    `<defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1">`,
    `<stop offset="0" stop-color="${PALETTE.brand}"/>`,
    `<stop offset="1" stop-color="${PALETTE.brandDark}"/>`,
    '</linearGradient></defs>',
  ].join('')
}

// Each artwork's `hue` (a number per document in the source) places its motif, so cards differ in shape, not colour.
function motifOffset(hue: number, range: number): number {
  return Math.round(((hue % 360) / 360) * range)
}

const FONT = 'font-family="Helvetica, Arial, sans-serif"'

// The brand's pattern: a grid of pale dots on the navy, under the amber rings and rule of the site's hero.
function dotPattern(id: string): string {
  return `<defs><pattern id="${id}" width="40" height="40" patternUnits="userSpaceOnUse"><circle cx="20" cy="20" r="2.5" fill="${PALETTE.onBrandMuted}" fill-opacity="0.18"/></pattern></defs>`
}

/**
 * A 1200×800 card image: the brand's navy and dot pattern, amber rings placed by `hue`. It carries no words: the card
 * beside it prints the title, dates and venue, and the dataset's `placeholders` list says it is to be replaced.
 */
export function eventCardSvg(hue: number): string {
  const ringX = 860 + motifOffset(hue, 260)
  const ringY = 60 + motifOffset(hue * 7, 240)
  return svg(
    1200,
    800,
    [
      brandGradient('background'),
      dotPattern('dots'),
      '<rect width="1200" height="800" fill="url(#background)"/>',
      '<rect width="1200" height="800" fill="url(#dots)"/>',
      `<circle cx="${ringX}" cy="${ringY}" r="260" fill="none" stroke="${PALETTE.accent}" stroke-opacity="0.35" stroke-width="28"/>`,
      `<circle cx="${ringX}" cy="${ringY}" r="170" fill="${PALETTE.onBrandMuted}" fill-opacity="0.08"/>`,
      `<circle cx="${1200 - ringX}" cy="${800 - ringY}" r="120" fill="none" stroke="${PALETTE.onBrandMuted}" stroke-opacity="0.2" stroke-width="14"/>`,
      `<rect x="80" y="640" width="160" height="10" fill="${PALETTE.accent}"/>`,
    ].join(''),
  )
}

/** A 1600×700 page hero: the brand's navy and dot pattern with an amber wedge placed by `hue`, and no words. */
export function heroSvg(hue: number): string {
  const wedgeStart = 1000 + motifOffset(hue, 200)
  return svg(
    1600,
    700,
    [
      brandGradient('background'),
      dotPattern('dots'),
      '<rect width="1600" height="700" fill="url(#background)"/>',
      '<rect width="1600" height="700" fill="url(#dots)"/>',
      `<path d="M${wedgeStart} 700 L1600 150 L1600 700 Z" fill="${PALETTE.accent}" fill-opacity="0.2"/>`,
      `<rect x="100" y="560" width="160" height="10" fill="${PALETTE.accent}"/>`,
    ].join(''),
  )
}

/** A 400×400 portrait placeholder: the speaker's initials on the brand's tint, under an amber rule. */
export function portraitSvg(name: string, hue: number): string {
  const initials = name
    .replace(/^(Dr|Prof|Mr|Ms|Mrs|Adv)\.?\s+/i, '')
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase()
  return svg(
    400,
    400,
    [
      `<rect width="400" height="400" fill="${PALETTE.brandTint}"/>`,
      `<circle cx="${80 + motifOffset(hue, 240)}" cy="400" r="150" fill="${PALETTE.onBrandMuted}"/>`,
      `<circle cx="200" cy="185" r="110" fill="${PALETTE.brand}"/>`,
      `<text x="200" y="208" text-anchor="middle" ${FONT} font-size="72" font-weight="700" fill="#fff">${escapeXml(initials)}</text>`,
      `<rect x="160" y="330" width="80" height="6" fill="${PALETTE.accent}"/>`,
    ].join(''),
    `Placeholder portrait: ${name}`,
  )
}

/**
 * A 320×160 logo placeholder with the company name, wrapped so that it is shown whole: the 208 px beside the mark
 * hold about 15 characters of 22 px bold lettering, so a longer name takes two or three lines.
 */
export function logoSvg(name: string, hue: number): string {
  const lines = wrap(name, 15)
  const lineHeight = 26
  const firstBaseline = 80 - ((lines.length - 1) * lineHeight) / 2 + 10
  const text = lines
    .map((line, index) => `<text x="96" y="${firstBaseline + index * lineHeight}" ${FONT} font-size="22" font-weight="700" fill="hsl(${hue}, 40%, 25%)">${escapeXml(line)}</text>`)
    .join('')
  return svg(
    320,
    160,
    [
      '<rect width="320" height="160" fill="#fff"/>',
      `<rect x="24" y="52" width="56" height="56" rx="12" fill="hsl(${hue}, 55%, 40%)"/>`,
      text,
      `<text x="96" y="${firstBaseline + (lines.length - 1) * lineHeight + 24}" ${FONT} font-size="13" fill="#666">Placeholder logo</text>`,
    ].join(''),
    `Placeholder logo: ${name}`,
  )
}
