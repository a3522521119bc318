// @vitest-environment jsdom
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { act, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react'
import type { DocumentActionProps } from 'sanity'
import { describe, expect, it, vi } from 'vitest'
import { parseNdjson } from '../lib/contentValidation.ts'
import { DuplicateForNextYearAction } from './DuplicateForNextYearAction.tsx'

const studio = vi.hoisted(() => ({
  documents: [] as { _id: string }[],
  created: [] as { _id: string; _type: string; [field: string]: unknown }[],
  navigate: vi.fn(),
  toasts: [] as { title: string; description: string; duration?: number }[],
}))

// The Content Lake client reduced to what the action uses: creating one document.
vi.mock('sanity', () => ({
  useClient: () => ({
    create: async (document: { _id: string; _type: string }) => (studio.created.push(document), document),
  }),
}))
vi.mock('sanity/router', () => ({ useRouter: () => ({ navigate: studio.navigate }) }))
vi.mock('@sanity/ui', () => ({ useToast: () => ({ push: (toast: { title: string; description: string; duration?: number }) => studio.toasts.push(toast) }) }))

const shippedDataset = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../packages/content/dataset/production.ndjson')
studio.documents = parseNdjson(await readFile(shippedDataset, 'utf8'))

/** Chooses Duplicate for next year, answers its dialog as given, and waits for the copy. */
async function duplicate(hook: ReturnType<typeof action>['hook'], answer: (dialog: typeof screen) => void = () => {}) {
  const created = studio.created.length
  act(() => {
    hook.result.current!.onHandle!()
  })
  const dialog = hook.result.current!.dialog as { content: React.ReactElement }
  const view = render(dialog.content)
  answer(screen)
  fireEvent.click(screen.getByRole('button', { name: 'Duplicate' }))
  await waitFor(() => expect(studio.created.length).toBe(created + 1))
  view.unmount()
  return studio.created.at(-1)!
}

function action(event: object | null) {
  const props = { id: 'event-pfas', type: 'event', draft: null, published: event, onComplete: vi.fn() } as unknown as DocumentActionProps
  return { props, hook: renderHook(() => DuplicateForNextYearAction(props)) }
}

describe('Duplicate for next year', () => {
  it("creates next year's draft event, holding its own price options and agenda, then opens it", async () => {
    const pfas = studio.documents.find((document) => document._id === 'event-pfas')!
    const { props, hook } = action(pfas)
    expect(hook.result.current).toMatchObject({ label: 'Duplicate for next year', disabled: false })

    const event = await duplicate(hook)
    expect(studio.created).toHaveLength(1)
    // The same weekday a year on unless chosen otherwise.
    expect(event).toMatchObject({ _type: 'event', title: 'PFAS Conference 2026', start: '2026-05-20T07:30:00+02:00' })
    expect(event._id).toMatch(/^drafts\.[0-9a-f-]{36}$/)
    expect(event.priceOptions).toHaveLength(5)
    expect((event.agendaDays as { sessions: unknown[] }[]).flatMap((day) => day.sessions)).toHaveLength(22)
    expect(studio.navigate).toHaveBeenCalledWith({ panes: [[{ id: 'events' }], [{ id: event._id.slice('drafts.'.length) }], [{ id: 'event' }]] })
    expect(studio.toasts).toEqual([])
    await waitFor(() => expect(props.onComplete).toHaveBeenCalled())
  })

  it('keeps the same calendar date and changes the prices when asked', async () => {
    const pfas = studio.documents.find((document) => document._id === 'event-pfas')!
    const event = await duplicate(action(pfas).hook, (dialog) => {
      fireEvent.click(dialog.getByLabelText('The same calendar date'))
      fireEvent.change(dialog.getByLabelText(/Change every price by/), { target: { value: '10' } })
    })
    expect(event).toMatchObject({ start: '2026-05-21T07:30:00+02:00' })
    const venue = ((pfas as { priceOptions?: unknown }).priceOptions as { key: string; amount: number }[]).find((option) => option.key === 'venue')!
    expect((event.priceOptions as { key: string; amount: number }[]).find((option) => option.key === 'venue')!.amount).toBe(Math.round(venue.amount * 1.1))
  })

  it('lists the fields that still mention last year', async () => {
    const resilience = studio.documents.find((document) => document._id === 'event-resilience')!
    await duplicate(action(resilience).hook)
    await waitFor(() => expect(studio.toasts).not.toHaveLength(0))
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
