import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { parseNdjson } from './contentValidation.ts'
import { duplicateForNextYear, oneYearLater, sameWeekdayAYearLater } from './nextYear.ts'
import { checkDocument, formatPath } from './rules.ts'

const shipped = parseNdjson(await readFile(new URL('../../packages/content/dataset/production.ndjson', import.meta.url), 'utf8'))
const byId = new Map(shipped.map((document) => [document._id, document]))
const lookup = (id: string) => byId.get(id)
type Option = { _key: string; key: string; amount: number; label: string; earlyBirdUntil?: string }
type Day = { _key: string; label: string; date: string; sessions: { _key: string; title: string }[] }

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

describe('sameWeekdayAYearLater', () => {
  it.each([
    // Wednesday 23 July 2025 -> Wednesday 22 July 2026: 52 weeks on.
    ['2025-07-23T07:30:00+02:00', '2026-07-22T07:30:00+02:00'],
    ['2025-06-13', '2026-06-12'],
    ['2025-01-01', '2025-12-31'],
    ['2024-03-01', '2025-02-28'],
  ])('%s -> %s', (date, expected) => {
    expect(sameWeekdayAYearLater(date)).toBe(expected)
    expect(new Date(expected.slice(0, 10)).getUTCDay()).toBe(new Date(date.slice(0, 10)).getUTCDay())
  })

  it('refuses what is not a date', () => {
    expect(() => sameWeekdayAYearLater('next July')).toThrow(RangeError)
  })
})

describe('duplicateForNextYear on the same weekday, with a price change', () => {
  const resilience = byId.get('event-resilience')!
  const event = duplicateForNextYear(resilience, counter(), { dates: 'same-weekday', priceChangePercent: 6 })

  it('moves every date 52 weeks on, so each day keeps its weekday', () => {
    expect(event).toMatchObject({ start: '2026-07-22T07:30:00+02:00', end: '2026-07-23T16:00:00+02:00' })
    expect((event.agendaDays as Day[]).map((day) => day.date)).toEqual(['2026-07-22', '2026-07-23'])
  })

  it("writes the early-bird label's date from the new early-bird date", () => {
    expect((event.priceOptions as Option[]).find((option) => option.key === 'early-bird')).toMatchObject({
      earlyBirdUntil: '2026-06-12',
      label: 'Early-bird: register and pay by 12 June 2026',
    })
  })

  it('changes every price by the percentage, rounded to the rand', () => {
    // R 8 490 + 6% = R 8 999.40 -> R 8 999; R 34 950 + 6% = R 37 047.
    expect((event.priceOptions as Option[]).map((option) => [option.key, option.amount])).toEqual([
      ['venue', 8999],
      ['early-bird', 7939],
      ['online', 5819],
      ['table-5', 37_047],
      ['table-10', 63_494],
    ])
  })

  it('passes the content rules, the price moves within 25% of the previous edition', () => {
    expect(checkDocument(event, lookup).filter((problem) => problem.level === 'error')).toEqual([])
    expect(checkDocument(event, lookup).filter((problem) => problem.message.includes('price moved'))).toEqual([])
  })
})

describe('duplicateForNextYear', () => {
  const before = structuredClone(shipped)
  const resilience = byId.get('event-resilience')!
  const event = duplicateForNextYear({ ...resilience, _rev: 'abc', _createdAt: '2025-01-01T00:00:00Z', _updatedAt: '2025-01-02T00:00:00Z' }, counter(), {
    dates: 'same-date',
  })

  it('makes a draft event with its dates, days and yearly texts a year on', () => {
    expect(event).toMatchObject({
      _id: 'drafts.new-1',
      _type: 'event',
      title: 'Economic Resilience Conference 2026',
      slug: { _type: 'slug', current: 'Resilience-2026' },
      code: 'ERC2026',
      start: '2026-07-23T07:30:00+02:00',
      end: '2026-07-24T16:00:00+02:00',
      // Unlisted until its checklist is clear and someone lists it.
      card: { listed: false },
      tabs: resilience.tabs,
      speakers: resilience.speakers,
      sponsorPackages: resilience.sponsorPackages,
      previousEdition: { _type: 'reference', _ref: 'event-resilience', _weak: true },
    })
    expect(event).not.toHaveProperty('_rev')
    expect(event).not.toHaveProperty('_createdAt')
    expect((event.agendaDays as Day[]).map((day) => [day.label, day.date])).toEqual([
      ['Day 1', '2026-07-23'],
      ['Day 2', '2026-07-24'],
    ])
  })

  it('updates the year in the alternative text of its images', () => {
    expect((event.card as { image: { alt: string } }).image.alt).toBe('Economic Resilience Conference 2026')
    expect((resilience.card as { image: { alt: string } }).image.alt).toBe('Economic Resilience Conference 2025')
  })

  it('holds its own copy of the price options, early-bird date and label a year on', () => {
    const originals = resilience.priceOptions as Option[]
    const options = event.priceOptions as Option[]
    expect(options.map((option) => [option._key, option.key, option.amount])).toEqual(originals.map((option) => [option._key, option.key, option.amount]))
    expect(options.find((option) => option.key === 'early-bird')).toMatchObject({
      earlyBirdUntil: '2026-06-13',
      label: 'Early-bird: register and pay by 13 June 2026',
    })
  })

  it('holds the same programme on the new days', () => {
    const days = event.agendaDays as Day[]
    expect(days.flatMap((day) => day.sessions)).toHaveLength(23)
    expect(days.flatMap((day) => day.sessions)).toEqual((resilience.agendaDays as Day[]).flatMap((day) => day.sessions))
  })

  it('leaves the original untouched and passes the content rules', () => {
    expect(shipped).toEqual(before)
    expect(checkDocument(event, lookup).filter((problem) => problem.level === 'error')).toEqual([])
  })

  it('lists the fields that still mention last year as warnings, the checklist to go through before publishing', () => {
    const checklist = checkDocument(event, lookup).filter((problem) => problem.level === 'warning')
    expect(checklist.every((problem) => problem.message === 'Still mentions 2025: check it is right for this edition')).toBe(true)
    expect(checklist.map((problem) => formatPath(problem.path))).toEqual([
      'overview.objectives[_key=="objective-1"].children[_key=="objective-1-text"].text',
      'agendaDays[_key=="day-2"].sessions[_key=="session-resilience-d2-02"].title',
    ])
    expect(checkDocument(resilience, lookup).filter((problem) => problem.level === 'warning')).toEqual([])
  })

  it('adds the year to a slug without one', () => {
    const copy = duplicateForNextYear(
      { _id: 'e', _type: 'event', title: 'Board Masterclass', slug: { current: 'boardManagement' }, start: '2027-02-28T08:00:00+02:00' },
      counter(),
      { dates: 'same-date' },
    )
    expect(copy).toMatchObject({ title: 'Board Masterclass', slug: { current: 'boardManagement-2028' }, start: '2028-02-28T08:00:00+02:00' })
  })
})
