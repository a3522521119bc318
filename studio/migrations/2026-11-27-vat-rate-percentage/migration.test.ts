import { siteSettingsQuery } from '@events/content'
import { evaluate, parse } from 'groq-js'
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

const siteVatRate = async (vatRate: number) =>
  ((await (await evaluate(parse(siteSettingsQuery), { dataset: [{ _id: 'siteSettings', _type: 'siteSettings', vatRate }] })).get()) as { vatRate: number })
    .vatRate

describe('the VAT rate as a percentage', () => {
  it('turns a fraction into a percentage and leaves a percentage alone', async () => {
    expect(await mutationsFor([{ _id: 'siteSettings', _type: 'siteSettings', _rev: 'r', vatRate: 0.15 }])).toEqual([
      { type: 'patch', id: 'siteSettings', patches: [{ path: ['vatRate'], op: { type: 'set', value: 15 } }] },
    ])
    expect(await mutationsFor([{ _id: 'siteSettings', _type: 'siteSettings', _rev: 'r', vatRate: 15 }])).toEqual([])
    expect(await mutationsFor([{ _id: 'siteSettings', _type: 'siteSettings', _rev: 'r', vatRate: 0 }])).toEqual([])
  })

  it('is read by the site as the same fraction before and after', async () => {
    expect(await siteVatRate(0.15)).toBe(0.15)
    expect(await siteVatRate(15)).toBe(0.15)
    expect(await siteVatRate(0)).toBe(0)
  })
})
