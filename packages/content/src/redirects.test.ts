import { describe, expect, it } from 'vitest'
import { followRedirects, redirectLocation, renamedEventSlug } from './redirects.ts'

const renamed = [{ from: '/conference/OldSlug', to: '/conference/new-slug' }]

describe('redirectLocation', () => {
  it('moves the old path and its sub-routes, whatever their casing', () => {
    expect(redirectLocation(renamed, '/conference/OldSlug')).toBe('/conference/new-slug')
    expect(redirectLocation(renamed, '/conference/oldslug/')).toBe('/conference/new-slug')
    expect(redirectLocation(renamed, '/conference/OldSlug/contact')).toBe('/conference/new-slug/contact')
  })

  it('leaves other paths, including ones that only share a prefix', () => {
    expect(redirectLocation(renamed, '/conference/OldSlugger')).toBeUndefined()
    expect(redirectLocation(renamed, '/workshop/OldSlug')).toBeUndefined()
  })

  it('collapses a chain into one hop', () => {
    const chain = [...renamed, { from: '/conference/new-slug', to: '/conference/newest' }]
    expect(redirectLocation(chain, '/conference/OldSlug/contact')).toBe('/conference/newest/contact')
  })

  it('refuses a loop', () => {
    const loop = [
      { from: '/conference/a', to: '/conference/b' },
      { from: '/conference/b', to: '/conference/A' },
    ]
    expect(redirectLocation(loop, '/conference/a')).toBeUndefined()
    expect(followRedirects(loop, '/conference/a')).toEqual({ kind: 'loop', paths: ['/conference/a', '/conference/b', '/conference/A'] })
  })
})

describe('renamedEventSlug', () => {
  it('finds the slug a renamed event has now, through a chain, for either kind', () => {
    expect(renamedEventSlug(renamed, 'OldSlug')).toBe('new-slug')
    expect(renamedEventSlug([...renamed, { from: '/conference/new-slug', to: '/conference/newest' }], 'oldslug')).toBe('newest')
    expect(renamedEventSlug([{ from: '/workshop/before', to: '/workshop/after' }], 'before')).toBe('after')
    expect(renamedEventSlug([{ from: '/conference/seminar', to: '/workshop/seminar-2026' }], 'seminar')).toBe('seminar-2026')
  })

  it('finds nothing for a slug no redirect moves, a loop, or a redirect away from the event pages', () => {
    expect(renamedEventSlug(renamed, 'other')).toBeUndefined()
    expect(
      renamedEventSlug(
        [
          { from: '/conference/a', to: '/conference/b' },
          { from: '/conference/b', to: '/conference/a' },
        ],
        'a',
      ),
    ).toBeUndefined()
    expect(renamedEventSlug([{ from: '/conference/gone', to: '/about' }], 'gone')).toBeUndefined()
    expect(renamedEventSlug([{ from: '/conference/gone', to: '/conference/gone/contact' }], 'gone')).toBeUndefined()
  })
})
