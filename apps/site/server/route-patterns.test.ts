import type { ServerBuild } from 'react-router'
import { describe, expect, it } from 'vitest'
import { pageRoutePatterns } from './route-patterns'

function route(id: string, fields: { path?: string; parentId?: string; index?: boolean }) {
  return { id, module: {}, ...fields }
}

describe('pageRoutePatterns', () => {
  it('joins each route path with its parents', () => {
    const routes = {
      root: route('root', { path: '' }),
      home: route('home', { index: true, parentId: 'root' }),
      page: route('page', { path: 'conference/:slug', parentId: 'root' }),
      nested: route('nested', { path: 'contact', parentId: 'page' }),
      status: route('status', { path: 'registrations/:reference/:secret', parentId: 'root' }),
      missing: route('missing', { path: '*', parentId: 'root' }),
    } as unknown as ServerBuild['routes']
    expect(pageRoutePatterns(routes)).toEqual(['/', '/', '/conference/:slug', '/conference/:slug/contact', '/registrations/:reference/:secret', '/*'])
  })
})
