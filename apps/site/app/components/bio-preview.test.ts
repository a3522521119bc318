import { describe, expect, it } from 'vitest'
import { previewBio } from './bio-preview'

const fifty = 'a'.repeat(50)

describe('previewBio', () => {
  it.each([
    { case: 'no bio', bio: null, expected: { text: '', truncated: false } },
    { case: 'whitespace only', bio: ' \n\t ', expected: { text: '', truncated: false } },
    { case: 'a short bio', bio: 'Economist.', expected: { text: 'Economist.', truncated: false } },
    { case: 'exactly 50 characters', bio: fifty, expected: { text: fifty, truncated: false } },
    { case: '51 characters', bio: `${fifty}b`, expected: { text: `${fifty}…`, truncated: true } },
    { case: 'surrounding whitespace not counted', bio: `  ${fifty}\n`, expected: { text: fifty, truncated: false } },
    {
      case: 'runs of whitespace counted as one space',
      bio: `${'a'.repeat(24)}\n\n   ${'b'.repeat(25)}`,
      expected: { text: `${'a'.repeat(24)} ${'b'.repeat(25)}`, truncated: false },
    },
    {
      case: 'no space left before the ellipsis',
      bio: `${'a'.repeat(49)} more words`,
      expected: { text: `${'a'.repeat(49)}…`, truncated: true },
    },
  ])('$case', ({ bio, expected }) => {
    expect(previewBio(bio, 50)).toEqual(expected)
  })

  it('counts an emoji made of a surrogate pair as one character and never splits it', () => {
    const bio = `${'a'.repeat(49)}🎤🎤`
    expect(previewBio(bio, 50)).toEqual({ text: `${'a'.repeat(49)}🎤…`, truncated: true })
    expect(previewBio(`${'a'.repeat(48)}🎤🎤`, 50)).toEqual({ text: `${'a'.repeat(48)}🎤🎤`, truncated: false })
  })

  it('keeps joined emoji and combining accents whole', () => {
    const family = '👩‍👩‍👧'
    const accented = 'e\u0301'
    expect(previewBio(`${'a'.repeat(49)}${family}x`, 50).text).toBe(`${'a'.repeat(49)}${family}…`)
    expect(previewBio(`${'a'.repeat(49)}${accented}x`, 50).text).toBe(`${'a'.repeat(49)}${accented}…`)
  })
})
