// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react'
import type { DocumentActionComponent, DocumentActionProps } from 'sanity'
import { describe, expect, it, vi } from 'vitest'
import { withSlugRedirect } from './PublishWithRedirectAction.tsx'

const lake = vi.hoisted(() => ({
  redirects: [] as { _id: string; from: string; to: string }[],
  operations: [] as unknown[][],
}))

// The Content Lake client reduced to what the action uses: the redirects query and one transaction.
vi.mock('sanity', () => ({
  useClient: () => ({
    fetch: async () => lake.redirects,
    transaction: () => {
      const transaction = {
        create: (document: object) => (lake.operations.push(['create', document]), transaction),
        patch: (id: string, patch: object) => (lake.operations.push(['patch', id, patch]), transaction),
        delete: (id: string) => (lake.operations.push(['delete', id]), transaction),
        commit: async () => void lake.operations.push(['commit']),
      }
      return transaction
    },
  }),
}))

const publishHandled = vi.fn(() => void lake.operations.push(['publish']))
const publish: DocumentActionComponent = () => ({ label: 'Publish', onHandle: publishHandled })
publish.action = 'publish'

async function publishEvent(published: object | null, draft: object) {
  lake.operations = []
  const props = { id: 'event-x', type: 'event', published, draft, onComplete: vi.fn() } as unknown as DocumentActionProps
  const { result } = renderHook(() => withSlugRedirect(publish)(props))
  expect(result.current?.label).toBe('Publish')
  await act(async () => result.current!.onHandle!())
  return lake.operations
}

const event = (slug: string) => ({ _id: 'event-x', _type: 'event', kind: 'conference', slug: { current: slug } })

describe('Publish with redirect', () => {
  it('keeps the publish action', () => {
    expect(withSlugRedirect(publish).action).toBe('publish')
  })

  it('writes the redirect from the old address, collapsing chains, before publishing', async () => {
    lake.redirects = [{ _id: 'redirect-older', from: '/conference/older', to: '/conference/OldSlug' }]
    const operations = await publishEvent(event('OldSlug'), event('new-slug'))
    expect(operations).toEqual([
      ['create', expect.objectContaining({ _type: 'redirect', from: '/conference/OldSlug', to: '/conference/new-slug' })],
      ['patch', 'redirect-older', { set: { to: '/conference/new-slug' } }],
      ['commit'],
      ['publish'],
    ])
  })

  it('only publishes when the slug stays or the event is new', async () => {
    lake.redirects = []
    expect(await publishEvent(event('OldSlug'), event('OldSlug'))).toEqual([['publish']])
    expect(await publishEvent(null, event('new-slug'))).toEqual([['publish']])
  })
})
