import { readFile } from 'node:fs/promises'
import { sponsorBenefitLines, type SponsorPackageBenefits } from '@events/content'
import { collectMigrationMutations, type Mutation, type Transaction } from 'sanity/migrate'
import { describe, expect, it } from 'vitest'
import migration from './index.ts'

type StoredDocument = Record<string, unknown> & { _id: string; _type: string; _rev?: string }

// The shipped dataset's sponsor packages as they were before the move: their benefits as lines of text.
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

/** Applies the migration's patches as the Content Lake would (top-level sets and unsets, guarded by the revision). */
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

describe('sponsor package benefits as fields', () => {
  it('moves each tier’s benefit lines into its fields, and the Sponsor tab lists the same lines', async () => {
    const migrated = apply(oldShape, await mutationsFor(oldShape))
    expect(migrated.find((document) => document._id === 'sponsor-platinum')).toEqual({
      _id: 'sponsor-platinum',
      _type: 'sponsorPackage',
      _rev: 'r1',
      title: 'Platinum',
      rank: 1,
      complimentarySeats: 3,
      participantDiscountPercent: 50,
      promotionalTextWords: 100,
      literaturePages: 10,
      speakingSlot: '45-minute case study',
    })
    for (const [before, after] of oldShape.map((document, index) => [document, migrated[index]!] as const)) {
      expect(sponsorBenefitLines(after as SponsorPackageBenefits)).toEqual(before.benefits)
    }
  })

  it('keeps lines it cannot read as other benefits, and leaves a package already moved (or without lines) alone', async () => {
    const custom = { _id: 'sponsor-bronze', _type: 'sponsorPackage', _rev: 'r4', title: 'Bronze', benefits: ['Logo on the banner', '1 complimentary seat'] }
    expect(apply([custom], await mutationsFor([custom]))[0]).toMatchObject({ complimentarySeats: 1, benefits: ['Logo on the banner'] })

    const migrated = apply(oldShape, await mutationsFor(oldShape))
    expect(await mutationsFor(migrated)).toEqual([])
    expect(await mutationsFor([{ _id: 'sponsor-empty', _type: 'sponsorPackage', title: 'Empty' }])).toEqual([])
  })

  it('patches only the revision it read', async () => {
    const [mutation] = await mutationsFor(oldShape.slice(0, 1))
    expect(mutation).toMatchObject({ type: 'patch', id: 'sponsor-platinum', options: { ifRevision: 'r1' } })
  })
})
