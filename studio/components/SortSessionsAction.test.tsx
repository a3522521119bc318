// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react'
import type { DocumentActionProps } from 'sanity'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { SortSessionsAction } from './SortSessionsAction.tsx'

const studio = vi.hoisted(() => ({ patches: [] as unknown[], toasts: [] as unknown[] }))

// The studio reduced to what the action uses: the draft's patch and toasts.
vi.mock('sanity', () => ({
  useDocumentOperation: () => ({ patch: { execute: (patches: unknown) => studio.patches.push(patches) } }),
}))
vi.mock('@sanity/ui', () => ({ useToast: () => ({ push: (toast: unknown) => studio.toasts.push(toast) }) }))

beforeEach(() => {
  studio.patches = []
  studio.toasts = []
})

function run(event: object | null) {
  const props = { id: 'event-x', type: 'event', draft: event, published: null, onComplete: vi.fn() } as unknown as DocumentActionProps
  const hook = renderHook(() => SortSessionsAction(props))
  act(() => {
    hook.result.current!.onHandle!()
  })
  return { hook, props }
}

describe('Sort sessions by start time', () => {
  it('patches the day whose sessions were retimed out of order', () => {
    const { props } = run({
      agendaDays: [
        {
          _key: 'd2',
          label: 'Day 2',
          sessions: [
            { _key: 'late', start: '11:00' },
            { _key: 'early', start: '09:00' },
          ],
        },
      ],
    })
    expect(studio.patches).toEqual([
      [
        {
          set: {
            'agendaDays[_key=="d2"].sessions': [
              { _key: 'early', start: '09:00' },
              { _key: 'late', start: '11:00' },
            ],
          },
        },
      ],
    ])
    expect(props.onComplete).toHaveBeenCalled()
  })

  it('says so and changes nothing when every day is in order', () => {
    run({ agendaDays: [{ _key: 'd1', sessions: [{ _key: 'a', start: '09:00' }] }] })
    expect(studio.patches).toEqual([])
    expect(studio.toasts).toEqual([{ status: 'info', title: 'Every agenda day is already in start-time order' }])
  })

  it('is disabled without an agenda', () => {
    expect(renderHook(() => SortSessionsAction({ draft: {}, published: null } as unknown as DocumentActionProps)).result.current).toMatchObject({
      disabled: true,
    })
  })
})
