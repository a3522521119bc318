import { describe, expect, it } from 'vitest'
import { eventCardsQuery, eventPageQuery, registrationEventQuery, siteSettingsQuery } from './queries.ts'
import { keepWhole } from './whole-content.ts'

const event = (fields: Record<string, unknown>) => ({
  _id: 'event-resilience',
  title: 'Resilience',
  slug: 'Resilience',
  start: '2025-07-03T08:00:00+02:00',
  end: '2025-07-04T16:00:00+02:00',
  venue: { name: 'Indaba Hotel', address: 'Fourways' },
  ...fields,
})

describe('keepWhole', () => {
  it.each([
    {
      case: 'a deleted speaker (null from the dereference)',
      result: event({ speakers: [{ _id: 'speaker-1', name: 'Thandi' }, null] }),
      field: 'speakers',
      kept: [{ _id: 'speaker-1', name: 'Thandi' }],
      problem: { documentId: 'event-resilience', path: 'speakers[1]', reason: expect.stringContaining('does not exist') },
    },
    {
      case: 'a list of another shape',
      result: event({ speakers: 'speaker-1' }),
      field: 'speakers',
      kept: [],
      problem: { documentId: 'event-resilience', path: 'speakers', reason: 'is not a list' },
    },
    {
      case: 'a price without an amount',
      result: event({ priceOptions: [{ key: 'venue', amount: 8490 }, { key: 'online' }, { key: 'early-bird', amount: Number.NaN }] }),
      field: 'priceOptions',
      kept: [{ key: 'venue', amount: 8490 }],
      problem: { documentId: 'event-resilience', path: 'priceOptions[1]', reason: 'has no amount in amount' },
    },
    {
      case: 'a session without a title, in its day',
      result: event({ agendaDays: [{ date: '2025-07-03', sessions: [{ title: 'Welcome' }, { start: '08:00' }] }] }),
      field: 'agendaDays',
      kept: [{ date: '2025-07-03', sessions: [{ title: 'Welcome' }] }],
      problem: { documentId: 'event-resilience', path: 'agendaDays[0].sessions[1]', reason: 'has no title' },
    },
    {
      case: 'a venue of another shape',
      result: event({ venue: 'Indaba Hotel' }),
      field: 'venue',
      kept: undefined,
      problem: { documentId: 'event-resilience', path: 'venue', reason: 'is not an object' },
    },
  ])('leaves out $case and names the document', ({ result, field, kept, problem }) => {
    const { value, problems } = keepWhole(eventPageQuery, result)
    expect((value as Record<string, unknown>)[field]).toEqual(kept)
    expect(problems).toContainEqual(problem)
  })

  it('keeps the sessions registration and certificates read by their times, which carry no title', () => {
    const sessions = [{ start: '08:00', end: '09:00', isBreak: false }, { start: '09:00' }]
    const { value, problems } = keepWhole(registrationEventQuery, event({ agendaDays: [{ date: '2025-07-03', sessions }] }))
    expect((value as unknown as { agendaDays: { sessions: unknown[] }[] }).agendaDays[0]!.sessions).toEqual([{ start: '08:00', end: '09:00', isBreak: false }])
    expect(problems).toEqual([{ documentId: 'event-resilience', path: 'agendaDays[0].sessions[1]', reason: 'has no end' }])
  })

  it('reports a missing field the page does without, leaving the document as it is', () => {
    const { value, problems } = keepWhole(eventPageQuery, event({ venue: null }))
    expect(value).toMatchObject({ title: 'Resilience', venue: null })
    expect(problems).toEqual([{ documentId: 'event-resilience', path: 'venue', reason: 'is missing' }])
  })

  it('names each listed document by its own id', () => {
    const cards = [
      { _id: 'event-a', slug: 'a', priceOptions: [null] },
      { _id: 'event-b', priceOptions: [] },
    ]
    const { value, problems } = keepWhole(eventCardsQuery, cards)
    expect(value).toEqual([{ _id: 'event-a', slug: 'a', priceOptions: [] }])
    expect(problems).toEqual([
      { documentId: 'event-b', path: '[1]', reason: 'has no slug' },
      { documentId: 'event-a', path: 'priceOptions[0]', reason: expect.stringContaining('does not exist') },
    ])
  })

  it('names the settings singleton, whose query projects no id', () => {
    const { problems } = keepWhole(siteSettingsQuery, { siteName: 'Summit', addresses: ['1 Example Street', 7] })
    expect(problems).toEqual([{ documentId: 'siteSettings', path: 'addresses[1]', reason: 'is not text' }])
  })

  it('passes whole content through untouched', () => {
    const whole = event({ speakers: [{ _id: 'speaker-1', name: 'Thandi' }], priceOptions: [{ key: 'venue', amount: 8490 }] })
    expect(keepWhole(eventPageQuery, structuredClone(whole))).toEqual({ value: whole, problems: [] })
  })
})
