import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { parseNdjson } from './contentValidation.ts'
import { duplicateForNextYear, oneYearLater } from './nextYear.ts'
import { checkDocument, type ContentDocument } from './rules.ts'

const shipped = parseNdjson(await readFile(new URL('../../packages/content/dataset/production.ndjson', import.meta.url), 'utf8'))
const byId = new Map(shipped.map((document) => [document._id, document]))
const lookup = (id: string) => byId.get(id)

function counter() {
  let next = 0
  return () => `new-${++next}`
}

describe('oneYearLater', () => {
  it.each([
    ['2025-07-23T07:30:00+02:00', '2026-07-23T07:30:00+02:00'],
    ['2025-07-22T22:30:00.000Z', '2026-07-22T22:30:00.000Z'],
    ['2025-06-13', '2026-06-13'],
    ['2024-02-29', '2025-02-28'],
    ['2027-02-29T08:00:00+02:00', '2028-02-29T08:00:00+02:00'],
    ['2025-12-31', '2026-12-31'],
  ])('%s -> %s', (date, expected) => {
    expect(oneYearLater(date)).toBe(expected)
  })

  it('refuses what is not a date', () => {
    expect(() => oneYearLater('next July')).toThrow(RangeError)
  })
})

describe('duplicateForNextYear', () => {
  const before = structuredClone(shipped)
  const resilience = byId.get('event-resilience')!
  const { event, priceOptions, sessions } = duplicateForNextYear(
    { ...resilience, _rev: 'abc', _createdAt: '2025-01-01T00:00:00Z', _updatedAt: '2025-01-02T00:00:00Z' },
    lookup,
    counter(),
  )

  it('makes a draft event with its dates, days and yearly texts a year on', () => {
    expect(event).toMatchObject({
      _id: 'drafts.new-29',
      _type: 'event',
      title: 'Economic Resilience Conference 2026',
      slug: { _type: 'slug', current: 'Resilience-2026' },
      code: 'ERC2026',
      start: '2026-07-23T07:30:00+02:00',
      end: '2026-07-24T16:00:00+02:00',
      card: { dateLabel: '23-24 July 2026', location: 'Indaba Hotel, Sandton, Johannesburg', listed: true },
      tabs: resilience.tabs,
      speakers: resilience.speakers,
      sponsorPackages: resilience.sponsorPackages,
    })
    expect(event).not.toHaveProperty('_rev')
    expect(event).not.toHaveProperty('_createdAt')
    expect((event.agendaDays as { date: string; label: string }[]).map((day) => [day.label, day.date])).toEqual([
      ['Day 1', '2026-07-23'],
      ['Day 2', '2026-07-24'],
    ])
  })

  it('gives the event its own price options, early-bird date a year on', () => {
    const originals = (resilience.priceOptions as { _ref: string }[]).map((reference) => byId.get(reference._ref)!)
    expect(priceOptions.map((option) => option._id)).toEqual(['new-1', 'new-2', 'new-3', 'new-4', 'new-5'])
    expect((event.priceOptions as { _ref: string }[]).map((reference) => reference._ref)).toEqual(['new-1', 'new-2', 'new-3', 'new-4', 'new-5'])
    expect(priceOptions.map((option) => [option.key, option.amount])).toEqual(originals.map((option) => [option.key, option.amount]))
    expect(priceOptions.find((option) => option.key === 'early-bird')).toMatchObject({
      earlyBirdUntil: '2026-06-13',
      label: 'Early-bird: register and pay by 13 June 2026',
      title: 'Resilience 2026 — Early-bird: register and pay by 13 June 2026',
    })
  })

  it('copies the agenda sessions so next year\'s programme is edited apart', () => {
    const days = event.agendaDays as { sessions: { _ref: string }[] }[]
    expect(sessions).toHaveLength(23)
    expect(days.flatMap((day) => day.sessions.map((reference) => reference._ref))).toEqual(sessions.map((session) => session._id))
    expect(sessions[0]).toMatchObject({ _type: 'agendaSession', start: '07:30', end: '08:30', title: 'Registration and welcome coffee' })
  })

  it('leaves the original untouched and passes the content rules', () => {
    expect(shipped).toEqual(before)
    const copies = new Map<string, ContentDocument>([...priceOptions, ...sessions].map((document) => [document._id, document]))
    const copyLookup = (id: string) => copies.get(id) ?? lookup(id)
    expect([event, ...priceOptions, ...sessions].flatMap((document) => checkDocument(document, copyLookup))).toEqual([])
  })

  it('adds the year to a slug without one and keeps references it cannot resolve', () => {
    const { event: copy, priceOptions: options } = duplicateForNextYear(
      { _id: 'e', _type: 'event', title: 'Board Masterclass', slug: { current: 'boardManagement' }, start: '2027-02-28T08:00:00+02:00', priceOptions: [{ _key: 'gone', _ref: 'missing' }] },
      lookup,
      counter(),
    )
    expect(copy).toMatchObject({ title: 'Board Masterclass', slug: { current: 'boardManagement-2028' }, start: '2028-02-28T08:00:00+02:00' })
    expect(copy.priceOptions).toEqual([{ _key: 'gone', _ref: 'missing' }])
    expect(options).toEqual([])
  })
})
