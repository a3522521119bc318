import { readFile } from 'node:fs/promises'
import { evaluate, parse } from 'groq-js'
import { describe, expect, it } from 'vitest'
import { parseNdjson } from './contentValidation.ts'
import { EVENT_PARTS } from './eventParts.ts'

const shipped = parseNdjson(await readFile(new URL('../../packages/content/dataset/production.ndjson', import.meta.url), 'utf8'))

async function partIds(dataset: object[], part: string, eventId: string): Promise<string[]> {
  const { filter } = EVENT_PARTS.find(({ id }) => id === part)!
  const params = { eventId }
  return (await (await evaluate(parse(`*[${filter}]._id`, { params }), { dataset, params })).get()) as string[]
}

describe('the parts of an event in the desk', () => {
  it.each([
    ['event-resilience', 'agenda', 23, 'session-resilience-d'],
    ['event-resilience', 'prices', 5, 'price-resilience-'],
    ['event-resilience', 'speakers', 16, 'speaker-resilience-'],
    ['event-resilience', 'sponsor-packages', 3, 'sponsor-'],
    ['event-board-management', 'agenda', 10, 'session-board-management-d1-'],
    ['event-board-management', 'prices', 3, 'price-board-management-'],
    ['event-board-management', 'speakers', 0, ''],
  ])('%s: %s', async (eventId, part, count, prefix) => {
    const ids = await partIds(shipped, part, eventId)
    expect(ids).toHaveLength(count)
    for (const id of ids) expect(id.startsWith(prefix), id).toBe(true)
  })

  it('lists what an unpublished change of the event adds', async () => {
    const event = shipped.find((document) => document._id === 'event-pfas')!
    const draft = { ...event, _id: 'drafts.event-pfas', priceOptions: [...(event.priceOptions as object[]), { _key: 'new', _type: 'reference', _ref: 'price-new' }] }
    const dataset = [...shipped, draft, { _id: 'price-new', _type: 'priceOption', key: 'online' }]
    expect(await partIds(dataset, 'prices', 'event-pfas')).toContain('price-new')
    expect(await partIds(shipped, 'prices', 'event-pfas')).not.toContain('price-new')
  })
})
