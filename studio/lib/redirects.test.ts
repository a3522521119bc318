import { describe, expect, it } from 'vitest'
import { checkRedirect, redirectChangesForRename, sitePaths } from './redirects.ts'

describe('redirectChangesForRename', () => {
  const published = { kind: 'conference', slug: 'OldSlug' }

  it('redirects the published path to the new one', () => {
    expect(redirectChangesForRename(published, { kind: 'conference', slug: 'new-slug' }, [])).toEqual({
      create: { from: '/conference/OldSlug', to: '/conference/new-slug' },
      retarget: [],
      remove: [],
    })
  })

  it('follows a change of kind', () => {
    expect(redirectChangesForRename(published, { kind: 'workshop', slug: 'OldSlug' }, [])?.create).toEqual({
      from: '/conference/OldSlug',
      to: '/workshop/OldSlug',
    })
  })

  it('collapses chains: redirects to the published path now go to the new one', () => {
    const existing = [
      { _id: 'r1', from: '/conference/first-name', to: '/conference/oldslug' },
      { _id: 'r2', from: '/workshop/other', to: '/workshop/elsewhere' },
    ]
    expect(redirectChangesForRename(published, { kind: 'conference', slug: 'third-name' }, existing)?.retarget).toEqual([
      { _id: 'r1', to: '/conference/third-name' },
    ])
  })

  it('drops the redirect from a slug the event takes back', () => {
    const existing = [{ _id: 'r1', from: '/conference/first-name', to: '/conference/OldSlug' }]
    const changes = redirectChangesForRename(published, { kind: 'conference', slug: 'first-name' }, existing)
    expect(changes?.remove).toEqual(['r1'])
    expect(changes?.retarget).toEqual([])
  })

  it('writes nothing when the path stays, changes only its casing, or the event was never published', () => {
    expect(redirectChangesForRename(published, published, [])).toBeUndefined()
    expect(redirectChangesForRename(published, { kind: 'conference', slug: 'oldslug' }, [])).toBeUndefined()
    expect(redirectChangesForRename({}, { kind: 'conference', slug: 'new-slug' }, [])).toBeUndefined()
  })
})

describe('checkRedirect', () => {
  const paths = sitePaths([{ kind: 'conference', slug: 'NewSlug' }], ['home', 'mission', 'inhouse-training'])

  it('accepts a target that is an event, its sub-route or a page, also through a chain', () => {
    const redirects = [
      { from: '/conference/old', to: '/conference/older' },
      { from: '/conference/older', to: '/conference/NewSlug' },
    ]
    expect(checkRedirect(redirects[0]!, redirects, paths)).toEqual([])
    expect(checkRedirect({ from: '/old-contact', to: '/conference/newslug/contact' }, [], paths)).toEqual([])
    expect(checkRedirect({ from: '/about', to: '/mission' }, [], paths)).toEqual([])
    expect(checkRedirect({ from: '/training', to: '/inhouse-training/request' }, [], paths)).toEqual([])
  })

  it('flags a target that does not exist', () => {
    expect(checkRedirect({ from: '/conference/old', to: '/conference/gone' }, [], paths)).toEqual([
      'Nothing on the site is at /conference/gone: point the redirect at an existing event or page',
    ])
  })

  it('flags a loop', () => {
    const redirects = [
      { from: '/conference/a', to: '/conference/b' },
      { from: '/conference/b', to: '/conference/a' },
    ]
    expect(checkRedirect(redirects[0]!, redirects, paths)).toEqual(['These redirects go round in a loop: /conference/a → /conference/b → /conference/a'])
  })

  it('flags paths that do not start with a slash', () => {
    expect(checkRedirect({ from: 'conference/a', to: '/mission' }, [], paths)).toEqual(['"conference/a" is not a path of this site; start it with "/"'])
  })
})
