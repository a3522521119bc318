// Generated placeholder artwork: flat SVGs with explicit width and height (the local content endpoint reads
// them for image dimensions). Every image says it is a placeholder so none is mistaken for final artwork.

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

function svg(width: number, height: number, title: string, body: string): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">`,
    `<title>${escapeXml(title)}</title>`,
    body,
    '</svg>',
    '',
  ].join('\n')
}

function gradient(id: string, hue: number): string {
  return [
    `<defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1">`,
    `<stop offset="0" stop-color="hsl(${hue}, 55%, 28%)"/>`,
    `<stop offset="1" stop-color="hsl(${(hue + 40) % 360}, 60%, 16%)"/>`,
    '</linearGradient></defs>',
  ].join('')
}

const FONT = 'font-family="Helvetica, Arial, sans-serif"'

/** A 1200×800 card image with the event title on a coloured background. */
export function eventCardSvg(title: string, caption: string, hue: number): string {
  const lines = wrap(title, 26)
  const firstLineY = 400 - ((lines.length - 1) * 72) / 2
  const text = lines
    .map((line, index) => `<text x="80" y="${firstLineY + index * 72}" ${FONT} font-size="60" font-weight="700" fill="#fff">${escapeXml(line)}</text>`)
    .join('')
  return svg(
    1200,
    800,
    title,
    [
      gradient('background', hue),
      '<rect width="1200" height="800" fill="url(#background)"/>',
      `<circle cx="1040" cy="140" r="260" fill="hsl(${(hue + 80) % 360}, 70%, 60%)" fill-opacity="0.18"/>`,
      `<rect x="80" y="${firstLineY - 130}" width="120" height="8" fill="hsl(${(hue + 80) % 360}, 80%, 65%)"/>`,
      text,
      `<text x="80" y="${firstLineY + lines.length * 72 + 20}" ${FONT} font-size="32" fill="#fff" fill-opacity="0.85">${escapeXml(caption)}</text>`,
      `<text x="80" y="740" ${FONT} font-size="22" fill="#fff" fill-opacity="0.6">Placeholder image</text>`,
    ].join(''),
  )
}

/** A 1600×700 page hero with a title on a coloured background. */
export function heroSvg(title: string, hue: number): string {
  const lines = wrap(title, 34)
  const text = lines
    .map((line, index) => `<text x="100" y="${330 + index * 76 - ((lines.length - 1) * 76) / 2}" ${FONT} font-size="64" font-weight="700" fill="#fff">${escapeXml(line)}</text>`)
    .join('')
  return svg(
    1600,
    700,
    title,
    [
      gradient('background', hue),
      '<rect width="1600" height="700" fill="url(#background)"/>',
      `<path d="M1100 700 L1600 200 L1600 700 Z" fill="hsl(${(hue + 80) % 360}, 70%, 60%)" fill-opacity="0.16"/>`,
      text,
      `<text x="100" y="640" ${FONT} font-size="24" fill="#fff" fill-opacity="0.6">Placeholder image</text>`,
    ].join(''),
  )
}

/** A 400×400 portrait placeholder: a neutral silhouette with the speaker's initials. */
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
    `Placeholder portrait: ${name}`,
    [
      `<rect width="400" height="400" fill="hsl(${hue}, 30%, 88%)"/>`,
      `<circle cx="200" cy="160" r="78" fill="hsl(${hue}, 25%, 70%)"/>`,
      `<path d="M60 400 C60 290 130 250 200 250 C270 250 340 290 340 400 Z" fill="hsl(${hue}, 25%, 70%)"/>`,
      `<text x="200" y="182" text-anchor="middle" ${FONT} font-size="64" font-weight="700" fill="hsl(${hue}, 35%, 30%)">${escapeXml(initials)}</text>`,
    ].join(''),
  )
}

/** A 320×160 logo placeholder with the company name. */
export function logoSvg(name: string, hue: number): string {
  return svg(
    320,
    160,
    `Placeholder logo: ${name}`,
    [
      '<rect width="320" height="160" fill="#fff"/>',
      `<rect x="24" y="52" width="56" height="56" rx="12" fill="hsl(${hue}, 55%, 40%)"/>`,
      `<text x="96" y="90" ${FONT} font-size="22" font-weight="700" fill="hsl(${hue}, 40%, 25%)">${escapeXml(name)}</text>`,
      `<text x="96" y="116" ${FONT} font-size="13" fill="#666">Placeholder logo</text>`,
    ].join(''),
  )
}
