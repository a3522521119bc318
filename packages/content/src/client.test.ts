import { describe, expect, it } from 'vitest'
import { DEFAULT_SANITY_API_VERSION, createContentClient } from './client.ts'

describe('createContentClient', () => {
  it('points at the local endpoint when no Sanity project is configured', () => {
    const client = createContentClient({}, { localApiHost: 'http://127.0.0.1:3000' })
    expect(client.getUrl(client.getDataUrl('query'), false)).toBe(`http://127.0.0.1:3000/_content/v${DEFAULT_SANITY_API_VERSION}/data/query/production`)
    expect(client.config()).toMatchObject({ useCdn: false, perspective: 'published', dataset: 'production' })
  })

  it('honours a custom local prefix, a trailing slash and the API version', () => {
    const client = createContentClient({ apiVersion: '2024-01-01' }, { localApiHost: 'http://localhost:8080/', localPrefix: '/content-api' })
    expect(client.getUrl(client.getDataUrl('query'))).toBe('http://localhost:8080/content-api/v2024-01-01/data/query/production')
  })

  it('reads from Sanity’s CDN for a Sanity project', () => {
    const client = createContentClient({ sanity: { projectId: 'abc123', dataset: 'live' } }, { localApiHost: 'http://127.0.0.1:3000' })
    expect(client.getUrl(client.getDataUrl('query'), true)).toBe(`https://abc123.apicdn.sanity.io/v${DEFAULT_SANITY_API_VERSION}/data/query/live`)
    expect(client.config()).toMatchObject({ useCdn: true, perspective: 'published', projectId: 'abc123', dataset: 'live' })
    expect(client.config().token).toBeUndefined()
  })

  it('uses the read token when one is configured', () => {
    const client = createContentClient({ sanity: { projectId: 'abc123', dataset: 'live', readToken: 'sk-read' } }, { localApiHost: 'http://127.0.0.1:3000' })
    expect(client.config().token).toBe('sk-read')
  })
})
