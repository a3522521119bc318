import { collectMigrationMutations } from 'sanity/migrate'
import { describe, expect, it } from 'vitest'
import migration from './index.ts'

async function mutationsFor(documents: object[]) {
  async function* all() {
    yield* documents
  }
  const context = { client: {}, dryRun: true, filtered: { getDocument: async () => undefined, getDocuments: async () => [] } }
  const mutations: unknown[] = []
  for await (const batch of collectMigrationMutations(migration, all as never, context as never)) mutations.push(...[batch].flat())
  return mutations
}

describe('the listing card without a location of its own', () => {
  it('removes the card’s location and leaves an event without one alone', async () => {
    expect(await mutationsFor([{ _id: 'event-a', _type: 'event', _rev: 'r', card: { location: 'Indaba Hotel, Sandton', listed: true } }])).toEqual([
      { type: 'patch', id: 'event-a', patches: [{ path: ['card', 'location'], op: { type: 'unset' } }] },
    ])
    expect(await mutationsFor([{ _id: 'event-b', _type: 'event', _rev: 'r', card: { listed: true } }])).toEqual([])
  })
})
