import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { buildDataset } from '../build.ts'
import { eventCardSvg, heroSvg, PALETTE, portraitSvg } from './images.ts'

const tokens = readFileSync(new URL('../../../../apps/site/app/styles/tokens.css', import.meta.url), 'utf8')

describe('placeholder artwork', () => {
  it.each([
    ['brand', '--color-brand'],
    ['brandDark', '--color-brand-dark'],
    ['brandTint', '--color-brand-tint'],
    ['accent', '--color-accent'],
    ['onBrandMuted', '--color-on-brand-muted'],
  ] as const)('paints with the site’s %s colour (%s)', (name, property) => {
    expect(tokens).toContain(`${property}: ${PALETTE[name]};`)
  })

  it.each([
    ['an event card', eventCardSvg(210)],
    ['a page hero', heroSvg(30)],
    ['a portrait', portraitSvg('Dr Lerato Mokoena', 120)],
  ])('%s uses only the palette', (_kind, svg) => {
    expect(svg).not.toMatch(/hsl\(/)
    expect(svg).toContain(PALETTE.accent)
  })

  it.each([
    ['an event card', eventCardSvg(210)],
    ['a page hero', heroSvg(30)],
  ])('%s is designed artwork with no words in it: no text, no title, no placeholder caption', (_kind, svg) => {
    expect(svg).not.toMatch(/<text|<title|Placeholder/i)
    expect(svg).toMatch(/<pattern /)
  })

  it('every generated card and hero of the dataset is without words', () => {
    const wordless = buildDataset().images.filter((image) => /^(event|page)-/.test(image.file))
    expect(wordless.length).toBeGreaterThanOrEqual(10)
    for (const image of wordless) expect(image.svg, image.file).not.toMatch(/<text|<title|Placeholder/i)
  })

  it('shows a speaker’s initials, without a title', () => {
    expect(portraitSvg('Dr Lerato Mokoena', 0)).toMatch(/>LM<\/text>/)
  })

  it('varies each card’s motif with its hue, not its colours', () => {
    const first = eventCardSvg(10)
    const second = eventCardSvg(200)
    expect(first).not.toBe(second)
    expect(first.replace(/c[xy]="\d+"/g, '')).toBe(second.replace(/c[xy]="\d+"/g, ''))
  })
})
