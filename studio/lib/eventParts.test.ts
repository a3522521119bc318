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
    ['event-resilience', 'speakers', 16, 'speaker-resilience-'],
    ['event-resilience', 'sponsor-packages', 3, 'sponsor-'],
    ['event-board-management', 'speakers', 0, ''],
  ])('%s: %s', async (eventId, part, count, prefix) => {
    const ids = await partIds(shipped, part, eventId)
    expect(ids).toHaveLength(count)
    for (const id of ids) expect(id.startsWith(prefix), id).toBe(true)
  })

  it('lists what an unpublished change of the event adds', async () => {
    const event = shipped.find((document) => document._id === 'event-pfas')!
    const draft = { ...event, _id: 'drafts.event-pfas', speakers: [...(event.speakers as object[]), { _key: 'new', _type: 'reference', _ref: 'speaker-new' }] }
    const dataset = [...shipped, draft, { _id: 'speaker-new', _type: 'speaker', name: 'New Speaker' }]
    expect(await partIds(dataset, 'speakers', 'event-pfas')).toContain('speaker-new')
    expect(await partIds(shipped, 'speakers', 'event-pfas')).not.toContain('speaker-new')
  })
})
