import { describe, expect, it } from 'vitest'
import { followRedirects, redirectLocation } from './redirects.ts'

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
