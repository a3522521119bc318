import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
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
    ['an event card', eventCardSvg('Economic Resilience Conference 2025', '23-24 July 2025', 210)],
    ['a page hero', heroSvg('Sponsorship', 30)],
    ['a portrait', portraitSvg('Dr Lerato Mokoena', 120)],
  ])('%s uses only the palette and says it is a placeholder', (_kind, svg) => {
    expect(svg).not.toMatch(/hsl\(/)
    expect(svg).toContain(PALETTE.accent)
    expect(svg).toMatch(/Placeholder (image|portrait)/)
  })

  it('shows a speaker’s initials, without a title', () => {
    expect(portraitSvg('Dr Lerato Mokoena', 0)).toMatch(/>LM<\/text>/)
  })

  it('varies each card’s motif with its hue, not its colours', () => {
    const first = eventCardSvg('Title', 'Caption', 10)
    const second = eventCardSvg('Title', 'Caption', 200)
    expect(first).not.toBe(second)
    expect(first.replace(/c[xy]="\d+"/g, '')).toBe(second.replace(/c[xy]="\d+"/g, ''))
  })
})
