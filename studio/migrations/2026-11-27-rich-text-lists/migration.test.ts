import { readFile } from 'node:fs/promises'
import { renderRichText } from '@events/content'
import { collectMigrationMutations, type Mutation, type Transaction } from 'sanity/migrate'
import { describe, expect, it } from 'vitest'
import { buildDataset } from '../../../packages/content/dataset/build.ts'
import migration from './index.ts'

type StoredDocument = Record<string, unknown> & { _id: string; _type: string; _rev?: string }
type Block = { _type: 'block'; _key: string; listItem?: string; children: { text: string }[] } & Record<string, unknown>

// The shipped dataset's pages that had lists, as they were before the move: each section's list a `bullets` array of
// strings beside its rich-text body.
const oldShape = (await readFile(new URL('./old-shape.ndjson', import.meta.url), 'utf8'))
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as StoredDocument)

async function mutationsFor(documents: StoredDocument[]): Promise<(Mutation | Transaction)[]> {
  async function* all() {
    yield* documents
  }
  const context = { client: {}, dryRun: true, filtered: { getDocument: async () => undefined, getDocuments: async () => [] } }
  const mutations: (Mutation | Transaction)[] = []
  for await (const batch of collectMigrationMutations(migration, all as never, context as never)) mutations.push(...([batch].flat() as never[]))
  return mutations
}

/** Applies the migration's patches as the Content Lake would (it sets and unsets top-level fields only). */
function apply(documents: StoredDocument[], mutations: (Mutation | Transaction)[]): StoredDocument[] {
  const store = new Map(documents.map((document) => [document._id, structuredClone(document)]))
  for (const mutation of mutations) {
    if (mutation.type !== 'patch') throw new Error(`Unexpected mutation ${mutation.type}`)
    const document = store.get(mutation.id)!
    if (mutation.options?.ifRevision !== document._rev) throw new Error(`${mutation.id} was patched without its revision`)
    for (const { path, op } of [mutation.patches].flat()) {
      const [field, ...deeper] = path as string[]
      if (deeper.length > 0) throw new Error(`Unexpected path ${JSON.stringify(path)}`)
      if (op.type === 'set') document[field!] = structuredClone(op.value)
      else if (op.type === 'unset') delete document[field!]
      else throw new Error(`Unexpected patch ${JSON.stringify({ path, op })}`)
    }
  }
  return [...store.values()]
}

const migrate = async (documents: StoredDocument[]) => apply(documents, await mutationsFor(documents))
const sectionsOf = (page: StoredDocument | undefined) => page?.sections as { _key: string; heading?: string; body?: Block[]; bullets?: unknown }[]

/** A list item as a plain string makes it: one unmarked span. */
function asPlainListItem(block: Block): Block {
  if (block.listItem === undefined) return block
  const text = block.children.map((child) => child.text).join('')
  return { ...block, markDefs: [], children: [{ _type: 'span', _key: `${block._key}-text`, text, marks: [] }] } as unknown as Block
}

describe('page bullet lists into rich text', () => {
  it("turns the shipped pages' old shape into the pages the generator makes now", async () => {
    const migrated = await migrate(oldShape.map((page) => ({ ...page, _rev: 'r1' })))
    const generated = buildDataset()
      .documents.filter((document) => oldShape.some((page) => page._id === document._id))
      .map((page) => ({
        ...page,
        _rev: 'r1',
        // Clauses written with bold or links since the move: the old shape could only hold their plain text.
        sections: sectionsOf(page as StoredDocument).map((section) => (section.body ? { ...section, body: section.body.map(asPlainListItem) } : section)),
      }))
    expect(migrated).toEqual(generated)
    const terms = sectionsOf(migrated.find((page) => page._id === 'page-terms'))
    expect(terms.map((section) => section.body!.filter((block) => block.listItem === 'bullet' && block.level === 1).length)).toEqual([3, 2, 1, 4, 2])
  })

  it("appends a section's items to its body as one bullet list, after its paragraphs, and drops the strings", async () => {
    const paragraph = { _type: 'block', _key: 'p1', style: 'normal', markDefs: [], children: [{ _type: 'span', _key: 's', text: 'Terms apply.', marks: [] }] }
    const [page] = await migrate([
      {
        _id: 'page-x',
        _type: 'page',
        _rev: 'r',
        sections: [
          { _key: 'a', heading: 'A', body: [paragraph], bullets: ['One', 'Two'] },
          { _key: 'b', heading: 'B' },
        ],
      },
    ])
    const [a, b] = sectionsOf(page)
    expect(a).not.toHaveProperty('bullets')
    expect(renderRichText(a!.body!).html).toBe('<p>Terms apply.</p><ul><li>One</li><li>Two</li></ul>')
    expect(a!.body!.slice(1).map((block) => [block._key, block.listItem, block.level])).toEqual([
      ['a-item-1', 'bullet', 1],
      ['a-item-2', 'bullet', 1],
    ])
    expect(b).toEqual({ _key: 'b', heading: 'B' })
  })

  it('turns a body still in plain text into paragraphs before the list (a project not yet through 2026-11-27-rich-text)', async () => {
    const [page] = await migrate([{ _id: 'page-x', _type: 'page', _rev: 'r', sections: [{ _key: 'a', body: 'First.\n\nSecond.', bullets: ['Item'] }] }])
    expect(renderRichText(sectionsOf(page)[0]!.body!).html).toBe('<p>First.</p><p>Second.</p><ul><li>Item</li></ul>')
  })

  it("makes the page's own list a last section without a heading, where the site showed it", async () => {
    const [page] = await migrate([
      { _id: 'page-x', _type: 'page', _rev: 'r', sections: [{ _key: 'section-list', heading: 'A' }], bullets: ['Topics you choose', ' '] },
    ])
    expect(page).not.toHaveProperty('bullets')
    const sections = sectionsOf(page)
    expect(sections.map((section) => [section._key, section.heading])).toEqual([
      ['section-list', 'A'],
      ['section-list-2', undefined],
    ])
    expect(renderRichText(sections[1]!.body!).html).toBe('<ul><li>Topics you choose</li></ul>')
  })

  it('creates the sections of a page that had only its own list, and removes empty lists without touching the body', async () => {
    const [onlyList, emptyLists] = await migrate([
      { _id: 'page-y', _type: 'page', _rev: 'r', bullets: ['Only item'] },
      { _id: 'page-z', _type: 'page', _rev: 'r', bullets: [], sections: [{ _key: 'a', body: 'Kept as it is.', bullets: [] }] },
    ])
    expect(renderRichText(sectionsOf(onlyList)[0]!.body!).html).toBe('<ul><li>Only item</li></ul>')
    expect(emptyLists).toEqual({ _id: 'page-z', _type: 'page', _rev: 'r', sections: [{ _key: 'a', body: 'Kept as it is.' }] })
  })

  it("keeps the items' keys apart from keys the body already uses", async () => {
    const block = (key: string) => ({
      _type: 'block',
      _key: key,
      style: 'normal',
      markDefs: [],
      children: [{ _type: 'span', _key: `${key}-s`, text: key, marks: [] }],
    })
    const [page] = await migrate([{ _id: 'page-x', _type: 'page', _rev: 'r', sections: [{ _key: 'a', body: [block('a-item-1')], bullets: ['New'] }] }])
    const keys = sectionsOf(page)[0]!.body!.map((item) => item._key)
    expect(keys).toEqual(['a-item-1', 'a-item2-1'])
  })

  it('patches each page once, guarded by its revision, and finds nothing to do the second time', async () => {
    const pages = oldShape.map((page) => ({ ...page, _rev: 'r1' }))
    const first = await mutationsFor(pages)
    expect(first.map((mutation) => mutation.type === 'patch' && [mutation.id, mutation.options?.ifRevision])).toEqual(pages.map((page) => [page._id, 'r1']))
    expect(await mutationsFor(apply(pages, first))).toEqual([])
    expect(await mutationsFor(buildDataset().documents.filter((document) => document._type === 'page') as StoredDocument[])).toEqual([])
  })
})
