import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import * as fontkit from 'fontkit'
import { describe, expect, it } from 'vitest'
import { BODY_FONT_WEIGHTS, bodyFontCodePoints } from './body-font-subset'

function openFont(path: string) {
  const font = fontkit.create(readFileSync(path))
  if (!('characterSet' in font)) throw new Error(`${path} is a font collection`)
  return font
}

const subset = openFont(path.join(import.meta.dirname, '../fonts/inter-latin-wght-400-800.woff2'))
const upstream = openFont(createRequire(import.meta.filename).resolve('@fontsource-variable/inter/files/inter-latin-wght-normal.woff2'))

describe('the typeface subset (pnpm font:subset)', () => {
  it('keeps every weight the design uses on its variable axis', () => {
    const tokens = readFileSync(path.join(import.meta.dirname, '../styles/tokens.css'), 'utf8')
    const weights = [...tokens.matchAll(/--weight-[a-z]+:\s*(\d+)/g)].map(([, weight]) => Number(weight))
    expect(weights.length).toBeGreaterThan(3)
    expect(subset.variationAxes.wght).toMatchObject({ min: BODY_FONT_WEIGHTS.min, max: BODY_FONT_WEIGHTS.max })
    for (const weight of weights) {
      expect(weight).toBeGreaterThanOrEqual(BODY_FONT_WEIGHTS.min)
      expect(weight).toBeLessThanOrEqual(BODY_FONT_WEIGHTS.max)
    }
  })

  it('keeps every character of the declared range that the upstream file has', () => {
    const kept = new Set(subset.characterSet)
    const missing = bodyFontCodePoints().filter((codePoint) => upstream.hasGlyphForCodePoint(codePoint) && !kept.has(codePoint))
    expect(missing.map((codePoint) => `U+${codePoint.toString(16).toUpperCase()}`)).toEqual([])
    expect(kept.size).toBeGreaterThan(200)
  })
})
