import { renderRichText } from '@events/content'
import { collectMigrationMutations } from 'sanity/migrate'
import { describe, expect, it } from 'vitest'
import migration from './index.ts'

async function mutationsFor(documents: object[]) {
  async function* all() {
    yield* documents
  }
  const context = { client: {}, dryRun: true, filtered: { getDocument: async () => undefined, getDocuments: async () => [] } }
  const mutations: { id: string; patches: { path: unknown[]; op: { type: string; value: unknown } }[] }[] = []
  for await (const batch of collectMigrationMutations(migration, all as never, context as never)) mutations.push(...([batch].flat() as never[]))
  return mutations
}

const valueAt = (mutations: Awaited<ReturnType<typeof mutationsFor>>, path: unknown[]) =>
  mutations.flatMap((mutation) => mutation.patches).find((patch) => JSON.stringify(patch.path) === JSON.stringify(path))?.op.value as
    Parameters<typeof renderRichText>[0] | undefined

describe('prose as rich text', () => {
  it('turns a speaker bio into paragraphs the site renders', async () => {
    const mutations = await mutationsFor([{ _id: 's', _type: 'speaker', _rev: 'r', bio: 'Economist.\n\nAdvises the treasury.' }])
    const bio = valueAt(mutations, ['bio'])!
    expect(renderRichText(bio)).toEqual({ html: '<p>Economist.</p><p>Advises the treasury.</p>', text: 'Economist.\n\nAdvises the treasury.' })
  })

  it('turns an event overview into a paragraph and bullet lists', async () => {
    const mutations = await mutationsFor([
      { _id: 'e', _type: 'event', _rev: 'r', overview: { theme: 'Resilience', keyMessages: ['Growth', 'Jobs'], objectives: ['Learn'] } },
    ])
    expect(renderRichText(valueAt(mutations, ['overview', 'theme'])!).html).toBe('<p>Resilience</p>')
    expect(renderRichText(valueAt(mutations, ['overview', 'keyMessages'])!).html).toBe('<ul><li>Growth</li><li>Jobs</li></ul>')
    expect(renderRichText(valueAt(mutations, ['overview', 'objectives'])!).html).toBe('<ul><li>Learn</li></ul>')
  })

  it('turns a page introduction and each section body into paragraphs', async () => {
    const mutations = await mutationsFor([
      {
        _id: 'p',
        _type: 'page',
        _rev: 'r',
        intro: 'Hello.',
        sections: [
          { _key: 'a', heading: 'A', body: 'Body A' },
          { _key: 'b', heading: 'B' },
        ],
      },
    ])
    expect(renderRichText(valueAt(mutations, ['intro'])!).html).toBe('<p>Hello.</p>')
    expect(renderRichText(valueAt(mutations, ['sections', { _key: 'a' }, 'body'])!).html).toBe('<p>Body A</p>')
    expect(mutations.flatMap((mutation) => mutation.patches)).toHaveLength(2)
  })

  it('leaves documents already holding blocks alone', async () => {
    const block = { _type: 'block', _key: 'k', style: 'normal', markDefs: [], children: [{ _type: 'span', _key: 's', text: 'x', marks: [] }] }
    expect(
      await mutationsFor([
        { _id: 's', _type: 'speaker', _rev: 'r', bio: [block] },
        { _id: 'e', _type: 'event', _rev: 'r', overview: { theme: [block], keyMessages: [block] } },
        { _id: 'p', _type: 'page', _rev: 'r', intro: [block], sections: [{ _key: 'a', body: [block] }] },
      ]),
    ).toEqual([])
  })
})
