// @vitest-environment jsdom
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { act, renderHook } from '@testing-library/react'
import type { DocumentActionProps } from 'sanity'
import { describe, expect, it, vi } from 'vitest'
import { parseNdjson } from '../lib/contentValidation.ts'
import { DuplicateForNextYearAction } from './DuplicateForNextYearAction.tsx'

const studio = vi.hoisted(() => ({
  documents: [] as { _id: string }[],
  created: [] as { _id: string; _type: string; [field: string]: unknown }[],
  navigateIntent: vi.fn(),
  toasts: [] as { title: string; description: string; duration?: number }[],
}))

// The Content Lake client reduced to what the action uses: creating one document.
vi.mock('sanity', () => ({
  useClient: () => ({
    create: async (document: { _id: string; _type: string }) => (studio.created.push(document), document),
  }),
}))
vi.mock('sanity/router', () => ({ useRouter: () => ({ navigateIntent: studio.navigateIntent }) }))
vi.mock('@sanity/ui', () => ({ useToast: () => ({ push: (toast: { title: string; description: string; duration?: number }) => studio.toasts.push(toast) }) }))

const shippedDataset = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../packages/content/dataset/production.ndjson')
studio.documents = parseNdjson(await readFile(shippedDataset, 'utf8'))

function action(event: object | null) {
  const props = { id: 'event-pfas', type: 'event', draft: null, published: event, onComplete: vi.fn() } as unknown as DocumentActionProps
  return { props, hook: renderHook(() => DuplicateForNextYearAction(props)) }
}

describe('Duplicate for next year', () => {
  it("creates next year's draft event, holding its own price options and agenda, then opens it", async () => {
    const pfas = studio.documents.find((document) => document._id === 'event-pfas')!
    const { props, hook } = action(pfas)
    expect(hook.result.current).toMatchObject({ label: 'Duplicate for next year', disabled: false })

    await act(async () => {
      await hook.result.current!.onHandle!()
    })

    expect(studio.created).toHaveLength(1)
    const event = studio.created[0]!
    expect(event).toMatchObject({ _type: 'event', title: 'PFAS Conference 2026', start: '2026-05-20T07:30:00+02:00' })
    expect(event._id).toMatch(/^drafts\.[0-9a-f-]{36}$/)
    expect(event.priceOptions).toHaveLength(5)
    expect((event.agendaDays as { sessions: unknown[] }[]).flatMap((day) => day.sessions)).toHaveLength(22)
    expect(studio.navigateIntent).toHaveBeenCalledWith('edit', { id: event._id.slice('drafts.'.length), type: 'event' })
    expect(studio.toasts).toEqual([])
    expect(props.onComplete).toHaveBeenCalled()
  })

  it('lists the fields that still mention last year', async () => {
    const resilience = studio.documents.find((document) => document._id === 'event-resilience')!
    const { hook } = action(resilience)
    await act(async () => {
      await hook.result.current!.onHandle!()
    })
    expect(studio.toasts.at(-1)).toMatchObject({
      title: '2 fields still mention last year',
      description: "Overview, objectives: still mentions 2025; Day 2, session 'The economic outlook for South Africa, 2025–2026', title: still mentions 2025",
      duration: Infinity,
    })
  })

  it('is disabled until the event has been saved', () => {
    expect(action(null).hook.result.current).toMatchObject({ disabled: true })
  })
})
