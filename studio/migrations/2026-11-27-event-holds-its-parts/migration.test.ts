import { readFile } from 'node:fs/promises'
import { registrationEventQuery } from '@events/content'
import { evaluate, parse } from 'groq-js'
import { collectMigrationMutations, type Mutation, type Transaction } from 'sanity/migrate'
import { describe, expect, it } from 'vitest'
import { buildDataset } from '../../../packages/content/dataset/build.ts'
import { blocksOf } from '../2026-11-27-rich-text/index.ts'
import migration from './index.ts'
import { moveIntoEvents, type StoredDocument } from './moveIntoEvents.ts'

// The shipped dataset's events with their price options and agenda sessions as they were before the move: documents
// of their own, referenced from the events.
const oldShape = (await readFile(new URL('./old-shape.ndjson', import.meta.url), 'utf8'))
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as StoredDocument)

type AnyMutation = Mutation | Transaction

/** Applies the migration's mutations as the Content Lake would: patches that set fields, replacements, deletes. */
function apply(documents: StoredDocument[], mutations: AnyMutation[]): StoredDocument[] {
  const store = new Map(documents.map((document) => [document._id, structuredClone(document)]))
  const run = (mutation: AnyMutation) => {
    switch (mutation.type) {
      case 'transaction':
        return mutation.mutations.forEach(run)
      case 'patch': {
        const document = store.get(mutation.id)
        if (document === undefined) throw new Error(`No document ${mutation.id} to patch`)
        for (const { path, op } of [mutation.patches].flat()) {
          const [field, subfield, ...deeper] = path as string[]
          if (op.type === 'set' && subfield === undefined) document[field!] = structuredClone(op.value)
          else if (op.type === 'unset' && subfield !== undefined && deeper.length === 0) delete (document[field!] as Record<string, unknown>)[subfield]
          else throw new Error(`Unexpected patch ${JSON.stringify({ path, op })}`)
        }
        return
      }
      case 'createOrReplace':
        return void store.set(mutation.document._id, structuredClone(mutation.document) as StoredDocument)
      case 'delete': {
        const referencing = [...store.values()].filter((document) => JSON.stringify(document).includes(`"_ref":"${mutation.id}"`))
        if (referencing.length > 0) throw new Error(`${mutation.id} is still referenced by ${referencing.map((document) => document._id)}`)
        return void store.delete(mutation.id)
      }
      default:
        throw new Error(`Unexpected mutation ${mutation.type}`)
    }
  }
  mutations.forEach(run)
  return [...store.values()]
}

const byId = (documents: StoredDocument[], id: string) => documents.find((document) => document._id === id)
type Option = { _key: string; key: string; amount: number }

describe('moving price options and agenda sessions into their events', () => {
  it('turns the old shape into exactly the events the dataset generator makes now, deleting the moved documents', () => {
    // The overview became rich text afterwards (2026-11-27-rich-text); that migration's result is what the generator makes.
    const richOverview = (overview: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(overview).map(([field, value]) => [
          field,
          blocksOf({ theme: 'theme', keyMessages: 'key-message', objectives: 'objective' }[field] ?? field, value) ?? value,
        ]),
      )
    // The card's own location went afterwards too (2026-11-29-card-location-from-venue): cards print the venue.
    const withoutCardLocation = (card: Record<string, unknown>) => Object.fromEntries(Object.entries(card).filter(([field]) => field !== 'location'))
    // Fields the events gained afterwards, which the old shape never had: CPD accreditation, and ethics sessions.
    const withoutLaterFields = ({ cpd: _cpd, certificatesOnlyWhenPaid: _paid, ...event }: Record<string, unknown>) => ({
      ...event,
      ...(Array.isArray(event.placeholders) ? { placeholders: (event.placeholders as string[]).filter((field) => !field.startsWith('cpd.')) } : {}),
      ...(Array.isArray(event.agendaDays)
        ? {
            agendaDays: (event.agendaDays as Array<{ sessions?: Array<Record<string, unknown>> }>).map((day) => ({
              ...day,
              ...(day.sessions ? { sessions: day.sessions.map(({ isEthics: _ethics, ...session }) => session) } : {}),
            })),
          }
        : {}),
    })
    const migrated = apply(oldShape, moveIntoEvents(oldShape)).map((event) => ({
      ...event,
      ...(event.overview ? { overview: richOverview(event.overview as Record<string, unknown>) } : {}),
      ...(event.card ? { card: withoutCardLocation(event.card as Record<string, unknown>) } : {}),
    }))
    const generatedEvents = buildDataset()
      .documents.filter((document) => document._type === 'event')
      .map((event) => withoutLaterFields(event as Record<string, unknown>))
    expect(migrated).toEqual(generatedEvents)
  })

  it('runs as the sanity CLI runs it, through defineMigration', async () => {
    async function* documents() {
      yield* oldShape
    }
    const context = { client: {}, dryRun: true, filtered: { getDocument: async () => undefined, getDocuments: async () => [] } }
    const batches: AnyMutation[] = []
    for await (const batch of collectMigrationMutations(migration, documents as never, context as never)) batches.push(...[batch].flat())
    expect(batches).toEqual(moveIntoEvents(oldShape))
    expect(migration.documentTypes).toEqual(['event', 'priceOption', 'agendaSession'])
  })

  it('changes nothing the second time', () => {
    const migrated = apply(oldShape, moveIntoEvents(oldShape))
    expect(moveIntoEvents(migrated)).toEqual([])
  })

  it('keeps a price edited but not published as a draft of its event, to publish with it', () => {
    const edited = { ...byId(oldShape, 'price-resilience-online')!, _id: 'drafts.price-resilience-online', amount: 5990 }
    const migrated = apply([...oldShape, edited], moveIntoEvents([...oldShape, edited]))
    const optionAmount = (id: string) => (byId(migrated, id)!.priceOptions as Option[]).find((option) => option.key === 'online')!.amount
    expect(optionAmount('event-resilience')).toBe(5490)
    expect(optionAmount('drafts.event-resilience')).toBe(5990)
    expect(byId(migrated, 'drafts.price-resilience-online')).toBeUndefined()
    expect(byId(migrated, 'drafts.event-pfas')).toBeUndefined()
  })

  it("gives an event's existing draft the drafts of its sessions, and its published version the published ones", () => {
    const draftEvent = { ...byId(oldShape, 'event-pfas')!, _id: 'drafts.event-pfas', title: 'PFAS Conference 2025 (edited)' }
    const draftSession = { ...byId(oldShape, 'session-pfas-d1-01')!, _id: 'drafts.session-pfas-d1-01', title: 'Registration and coffee' }
    const documents = [...oldShape, draftEvent, draftSession]
    const migrated = apply(documents, moveIntoEvents(documents))
    const firstSession = (id: string) => (byId(migrated, id)!.agendaDays as { sessions: { _key: string; title: string }[] }[])[0]!.sessions[0]
    expect(firstSession('drafts.event-pfas')).toMatchObject({ _key: 'session-pfas-d1-01', _type: 'agendaSession', title: 'Registration and coffee' })
    expect(firstSession('event-pfas')).toMatchObject({ _key: 'session-pfas-d1-01', title: 'Registration and welcome coffee' })
    expect(byId(migrated, 'drafts.event-pfas')!.title).toBe('PFAS Conference 2025 (edited)')
  })

  it('lets every event take registrations while the move is half done', async () => {
    const [first, ...rest] = moveIntoEvents(oldShape)
    const halfway = apply(oldShape, [first!])
    const moved = (first as Transaction).mutations.find((mutation) => mutation.type === 'patch')!.id
    const notYet = byId(halfway, 'event-pfas')!
    expect(rest.length).toBeGreaterThan(0)
    expect(moved).toBe('event-resilience')
    expect(JSON.stringify(notYet.priceOptions)).toContain('_ref')
    const pricesOf = async (dataset: StoredDocument[], slug: string) => {
      const params = { slug }
      const event = (await (await evaluate(parse(registrationEventQuery, { params }), { dataset, params })).get()) as { priceOptions: object[] }
      return event.priceOptions
    }
    for (const slug of ['Resilience', 'pfas']) {
      const before = await pricesOf(oldShape, slug)
      expect(before.length, slug).toBeGreaterThan(0)
      expect(await pricesOf(halfway, slug), slug).toEqual(before)
    }
  })
})
