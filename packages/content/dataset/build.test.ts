import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { evaluate, parse } from 'groq-js'
import { describe, expect, it } from 'vitest'
import { eventPageQuery } from '../src/queries.ts'
import { buildDataset, DATASET_FILE, toNdjson, type DatasetDocument } from './build.ts'
import { sponsorBenefitLines, type SponsorPackageBenefits } from '../src/sponsor-benefits.ts'

const datasetDir = path.dirname(fileURLToPath(import.meta.url))
const { documents, images } = buildDataset()
const byId = new Map(documents.map((document) => [document._id, document]))

function get(id: string): DatasetDocument {
  const document = byId.get(id)
  if (!document) throw new Error(`missing ${id}`)
  return document
}

function referencedIds(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencedIds)
  if (value === null || typeof value !== 'object') return []
  const record = value as Record<string, unknown>
  const own = typeof record._ref === 'string' ? [record._ref] : []
  return [...own, ...Object.values(record).flatMap(referencedIds)]
}

describe('the committed dataset', () => {
  it('equals what the generator writes (run `pnpm --filter @events/content generate:dataset` after editing source/)', async () => {
    expect(await readFile(path.join(datasetDir, DATASET_FILE), 'utf8')).toBe(toNdjson(documents))
    const committedImages = (await readdir(path.join(datasetDir, 'images'))).sort()
    expect(committedImages).toEqual(images.map((image) => image.file).sort())
    for (const image of images) {
      expect(await readFile(path.join(datasetDir, 'images', image.file), 'utf8'), image.file).toBe(image.svg)
    }
  })
})

describe('the generated dataset', () => {
  it('has unique ids, resolvable references and existing images', () => {
    expect(byId.size).toBe(documents.length)
    for (const document of documents) {
      for (const id of referencedIds(document)) expect(byId.has(id), `${document._id} -> ${id}`).toBe(true)
    }
    const imageFiles = new Set(images.map((image) => image.file))
    const assetFiles = [...toNdjson(documents).matchAll(/image@file:\/\/\.\/images\/([^"]+)"/g)].map((match) => match[1])
    expect(assetFiles.length).toBeGreaterThan(0)
    for (const file of assetFiles) expect(imageFiles.has(file ?? ''), file).toBe(true)
  })

  it('gives every SVG a width and a height', () => {
    for (const image of images) expect(image.svg, image.file).toMatch(/^<svg [^>]*width="\d+" height="\d+"/)
  })

  it('holds the six events of the specification with their routes, dates and subjects', () => {
    const events = documents.filter((document) => document._type === 'event')
    expect(
      events.map((event) => [
        (event.slug as { current: string }).current,
        event.kind,
        event.start,
        event.registrationSubject,
        (event.card as { listed: boolean }).listed,
      ]),
    ).toEqual([
      ['Resilience', 'conference', '2025-07-23T07:30:00+02:00', 'Resilience Delegate Registration', true],
      ['pfas', 'conference', '2025-05-21T07:30:00+02:00', 'PFAS Delegate Registration', false],
      ['legalOpinion', 'workshop', '2025-07-03T08:00:00+02:00', 'Legal Opinion Delegate Registration', true],
      ['legalSecreatary', 'workshop', '2025-06-25T08:00:00+02:00', 'Legal Secretary Delegate Registration', true],
      ['officeP', 'workshop', '2025-07-03T08:00:00+02:00', 'Office Professionals Delegate Registration', true],
      ['boardManagement', 'workshop', '2025-06-06T08:00:00+02:00', 'Board Management Delegate Registration', false],
    ])
    expect((get('event-board-management').agendaDays as unknown[]).length).toBe(1)
    expect((get('event-resilience').agendaDays as unknown[]).length).toBe(2)
    expect(get('event-resilience').tabs).toEqual(['overview', 'agenda', 'register', 'speakers', 'sponsor'])
    expect(get('event-pfas').tabs).toEqual(['overview', 'agenda', 'speakers', 'register', 'sponsor'])
    expect(get('event-legal-opinion').tabs).toEqual(['overview', 'agenda', 'register', 'sponsor'])
  })

  it('prices every event as the specification and the design decisions say', () => {
    const prices = (eventId: string) =>
      (get(eventId).priceOptions as { _type: string; key: string; amount: number; earlyBirdUntil?: string }[]).map((option) => {
        expect(option._type).toBe('priceOption')
        return [option.key, option.amount, option.earlyBirdUntil ?? null]
      })
    expect(prices('event-resilience')).toEqual([
      ['venue', 8490, null],
      ['early-bird', 7490, '2025-06-13'],
      ['online', 5490, null],
      ['table-5', 34950, null],
      ['table-10', 59900, null],
    ])
    expect(prices('event-pfas').slice(0, 3)).toEqual([['venue', 7990, null], ['early-bird', 6990, '2025-03-25'], ['online', 5490, null]])
    expect(prices('event-office-professionals')).toEqual([['venue', 7990, null], ['early-bird', 6990, '2025-04-25'], ['online', 5490, null]])
    expect(prices('event-legal-opinion')).toEqual([['venue', 8990, null], ['early-bird', 7990, '2025-04-25'], ['online', 5990, null]])
    expect(prices('event-board-management')).toEqual([['venue', 4990, null], ['early-bird', 4490, '2025-03-31'], ['online', 3490, null]])
    expect(prices('event-legal-secretary')).toEqual([['venue', 8990, null], ['early-bird', 7990, '2025-04-25'], ['online', 7490, null]])
  })

  it('has 16 Resilience speakers (3 with bios) and 11 PFAS speakers', () => {
    const resilience = referencedIds(get('event-resilience').speakers).map(get)
    expect(resilience).toHaveLength(16)
    expect(resilience.filter((speaker) => speaker.bio)).toHaveLength(3)
    expect(referencedIds(get('event-pfas').speakers)).toHaveLength(11)
  })

  it('gives the event page each session as "HH:mm – HH:mm" with its speakers as "Name, Position"', async () => {
    const params = { kind: 'conference', slug: 'Resilience' }
    const page = (await (await evaluate(parse(eventPageQuery, { params }), { dataset: documents, params })).get()) as {
      agendaDays: { sessions: { time: string; title: string; speaker: string | null; isBreak: boolean }[] }[]
    }
    const [day1, day2] = page.agendaDays
    expect(day1?.sessions[0]).toMatchObject({ time: '07:30 – 08:30', title: 'Registration and welcome coffee', speaker: null, isBreak: true })
    expect(day1?.sessions[1]).toMatchObject({ time: '08:30 – 09:00', speaker: 'Lerato Molefe, Director: Economic Policy' })
    expect(day1?.sessions.find((session) => session.title.startsWith('Panel: Building'))?.speaker).toBe('Panel of business leaders')
    expect(day2?.sessions.find((session) => session.title.startsWith('Startup panel'))?.speaker).toBe(
      'Prof. Anele Khumalo, Professor of Entrepreneurship; Kagiso Mahlangu, Founder and Managing Director; Mandla Radebe, Chief Executive Officer; Rethabile Mokoena, Investment Principal',
    )
    expect(day2?.sessions.at(-1)).toMatchObject({ time: '15:45 – 16:00', title: 'Closing remarks and close of conference' })
  })

  it('presents conference sessions by speaker documents of the event', () => {
    const days = get('event-resilience').agendaDays as { sessions: { _key: string; _type: string; speakers?: unknown }[] }[]
    const sessions = days.flatMap((day) => day.sessions)
    expect(sessions.every((session) => session._type === 'agendaSession')).toBe(true)
    const presented = sessions.filter((session) => session.speakers)
    expect(presented.length).toBeGreaterThan(10)
    const eventSpeakers = new Set(referencedIds(get('event-resilience').speakers))
    for (const session of presented) for (const id of referencedIds(session.speakers)) expect(eventSpeakers.has(id), `${session._key} -> ${id}`).toBe(true)
  })

  it('holds each event\'s price options and agenda in the event, so one Publish puts them live together', () => {
    expect(documents.filter((document) => document._type === 'priceOption' || document._type === 'agendaSession')).toEqual([])
  })

  it('lists every benefit of the three sponsor tiers', () => {
    expect(sponsorBenefitLines(get('sponsor-platinum') as SponsorPackageBenefits)).toEqual([
      '3 complimentary seats',
      '50% discount for your participants',
      '100 words of promotional text',
      '10 pages of literature',
      '45-minute case study',
    ])
    expect(sponsorBenefitLines(get('sponsor-silver') as SponsorPackageBenefits).at(-1)).toBe('Half-day workshop')
  })

  it('links the six divisions and shows the home statistics', () => {
    const divisions = documents.filter((document) => document._type === 'division').map((division) => division.href)
    expect(divisions).toEqual(['/conference', '/inhouse-training', '/workshop', '/?interest=other#contact', '/sponsorship', '/online-training'])
    const statistics = (get('page-home').statistics as { value: string }[]).map((statistic) => statistic.value)
    expect(statistics).toEqual(['1250+', '2180+', '95%'])
    expect(get('page-home').contactSubtitle).toBe('Fill in the form below')
  })
})
