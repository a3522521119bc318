// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react'
import type { DocumentActionProps } from 'sanity'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { AddStandardPriceOptionsAction } from './AddStandardPriceOptionsAction.tsx'

const studio = vi.hoisted(() => ({
  patches: [] as unknown[],
  toasts: [] as unknown[],
}))

// The studio reduced to what the action uses: the draft's patch and toasts.
vi.mock('sanity', () => ({
  useDocumentOperation: () => ({ patch: { execute: (patches: unknown) => studio.patches.push(patches) } }),
}))
vi.mock('@sanity/ui', () => ({ useToast: () => ({ push: (toast: unknown) => studio.toasts.push(toast) }) }))

beforeEach(() => {
  studio.patches = []
  studio.toasts = []
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
  it('appends the standard options a conference lacks to its price options', async () => {
    const { props } = await run({
      kind: 'conference',
      title: 'Mining Summit 2026',
      priceOptions: [{ _key: 'v', _type: 'priceOption', key: 'venue', amount: 8000 }],
    })
    expect(studio.patches).toHaveLength(1)
    const [setIfMissing, insert] = studio.patches[0] as [unknown, { insert: { after: string; items: { _key: string; key: string }[] } }]
    expect(setIfMissing).toEqual({ setIfMissing: { priceOptions: [] } })
    expect(insert.insert.after).toBe('priceOptions[-1]')
    expect(insert.insert.items.map((option) => option.key)).toEqual(['early-bird', 'online', 'table-5', 'table-10'])
    expect(insert.insert.items[0]).toMatchObject({ _type: 'priceOption', key: 'early-bird', label: 'Early-bird', amount: 6990 })
    expect(new Set(insert.insert.items.map((option) => option._key)).size).toBe(4)
    expect(props.onComplete).toHaveBeenCalled()
  })

  it('says so and changes nothing when the event has them all', async () => {
    await run({ kind: 'workshop', priceOptions: [{ key: 'venue' }, { key: 'early-bird' }, { key: 'online' }] })
    expect(studio.patches).toEqual([])
    expect(studio.toasts).toEqual([{ status: 'info', title: 'The event already has every standard price option' }])
  })

  it('waits until the event has been edited once', () => {
    const props = { id: 'event-new', type: 'event', draft: null, published: null, onComplete: vi.fn() } as unknown as DocumentActionProps
    expect(renderHook(() => AddStandardPriceOptionsAction(props)).result.current).toMatchObject({ disabled: true })
  })
})
