// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react'
import type { DocumentActionProps } from 'sanity'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { AddStandardPriceOptionsAction } from './AddStandardPriceOptionsAction.tsx'

const studio = vi.hoisted(() => ({
  keys: {} as Record<string, string>,
  created: [] as { _id: string; key: string }[],
  patches: [] as unknown[],
  toasts: [] as unknown[],
}))

// The studio reduced to what the action uses: reading option keys, one transaction, the draft's patch, toasts.
vi.mock('sanity', () => ({
  useClient: () => ({
    fetch: async (_query: string, { ids }: { ids: string[] }) => ids.map((id) => studio.keys[id]),
    transaction: () => {
      const transaction = { create: (document: { _id: string; key: string }) => (studio.created.push(document), transaction), commit: async () => undefined }
      return transaction
    },
  }),
  useDocumentOperation: () => ({ patch: { execute: (patches: unknown) => studio.patches.push(patches) } }),
}))
vi.mock('@sanity/ui', () => ({ useToast: () => ({ push: (toast: unknown) => studio.toasts.push(toast) }) }))

beforeEach(() => {
  studio.created = []
  studio.patches = []
  studio.toasts = []
  studio.keys = { 'price-venue': 'venue' }
})

async function run(event: object | null) {
  const props = { id: 'event-new', type: 'event', draft: event, published: null, onComplete: vi.fn() } as unknown as DocumentActionProps
  const hook = renderHook(() => AddStandardPriceOptionsAction(props))
  await act(async () => {
    await hook.result.current!.onHandle!()
  })
  return { hook, props }
}

describe('Add standard price options', () => {
  it('creates the standard options a conference lacks and appends them to its price options', async () => {
    const { props } = await run({ kind: 'conference', title: 'Mining Summit 2026', priceOptions: [{ _key: 'v', _ref: 'price-venue' }] })
    expect(studio.created.map((option) => option.key)).toEqual(['early-bird', 'online', 'table-5', 'table-10'])
    expect(studio.created[0]).toMatchObject({ _type: 'priceOption', title: 'Mining Summit 2026 — Early-bird', amount: 6990 })
    expect(studio.patches).toEqual([
      [
        { setIfMissing: { priceOptions: [] } },
        { insert: { after: 'priceOptions[-1]', items: studio.created.map((option) => ({ _key: option._id, _type: 'reference', _ref: option._id })) } },
      ],
    ])
    expect(props.onComplete).toHaveBeenCalled()
  })

  it('says so and changes nothing when the event has them all', async () => {
    studio.keys = { a: 'venue', b: 'early-bird', c: 'online' }
    await run({ kind: 'workshop', priceOptions: [{ _ref: 'a' }, { _ref: 'b' }, { _ref: 'c' }] })
    expect(studio.created).toEqual([])
    expect(studio.patches).toEqual([])
    expect(studio.toasts).toEqual([{ status: 'info', title: 'The event already has every standard price option' }])
  })

  it('waits until the event has been edited once', () => {
    const props = { id: 'event-new', type: 'event', draft: null, published: null, onComplete: vi.fn() } as unknown as DocumentActionProps
    expect(renderHook(() => AddStandardPriceOptionsAction(props)).result.current).toMatchObject({ disabled: true })
  })
})
