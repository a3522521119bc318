import { describe, expect, it } from 'vitest'
import { CONTENT_ENV_VARS, DEFAULT_SANITY_API_VERSION, contentMode, createContentClient } from './client.ts'

describe('createContentClient', () => {
  it('points at the local endpoint when no Sanity project is configured', () => {
    const client = createContentClient({}, { localApiHost: 'http://127.0.0.1:3000' })
    expect(contentMode({})).toBe('local')
    expect(client.getUrl(client.getDataUrl('query'), false)).toBe(
      `http://127.0.0.1:3000/_content/v${DEFAULT_SANITY_API_VERSION}/data/query/production`,
    )
    expect(client.config()).toMatchObject({ useCdn: false, perspective: 'published', dataset: 'production' })
  })

  it('honours a custom local prefix, a trailing slash and SANITY_API_VERSION', () => {
    const client = createContentClient(
      { SANITY_API_VERSION: '2024-01-01' },
      { localApiHost: 'http://localhost:8080/', localPrefix: '/content-api' },
    )
    expect(client.getUrl(client.getDataUrl('query'))).toBe('http://localhost:8080/content-api/v2024-01-01/data/query/production')
  })

  it('stays local when only one of SANITY_PROJECT_ID and SANITY_DATASET is set', () => {
    expect(contentMode({ SANITY_PROJECT_ID: 'abc123' })).toBe('local')
    expect(contentMode({ SANITY_DATASET: 'production' })).toBe('local')
  })

  it('reads from Sanity’s CDN when SANITY_PROJECT_ID and SANITY_DATASET are set', () => {
    const env = { SANITY_PROJECT_ID: 'abc123', SANITY_DATASET: 'live' }
    const client = createContentClient(env, { localApiHost: 'http://127.0.0.1:3000' })
    expect(contentMode(env)).toBe('hosted')
    expect(client.getUrl(client.getDataUrl('query'), true)).toBe(
      `https://abc123.apicdn.sanity.io/v${DEFAULT_SANITY_API_VERSION}/data/query/live`,
    )
    expect(client.config()).toMatchObject({ useCdn: true, perspective: 'published', projectId: 'abc123', dataset: 'live' })
    expect(client.config().token).toBeUndefined()
  })

  it('uses the read token when one is configured', () => {
    const client = createContentClient(
      { SANITY_PROJECT_ID: 'abc123', SANITY_DATASET: 'live', SANITY_API_READ_TOKEN: 'sk-read' },
      { localApiHost: 'http://127.0.0.1:3000' },
    )
    expect(client.config().token).toBe('sk-read')
  })

  it('lists every environment variable it reads', () => {
    expect(CONTENT_ENV_VARS.map((variable) => variable.name)).toEqual([
      'SANITY_PROJECT_ID',
      'SANITY_DATASET',
      'SANITY_API_VERSION',
      'SANITY_API_READ_TOKEN',
    ])
  })
})
