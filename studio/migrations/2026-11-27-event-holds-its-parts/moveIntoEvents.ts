// The plain part of the migration: from the documents of the old shape (events referencing price option and agenda
// session documents), the mutations that put each event's options and sessions into it and then delete those
// documents. Kept apart from index.ts so a test can run it over a dataset without the Content Lake.
import { at, createOrReplace, delete_, patch, set, transaction, unset, type Mutation, type Transaction } from 'sanity/migrate'

/** A stored document, as the migration reads it. */
export type StoredDocument = { _id: string; _type: string; _rev?: string; [field: string]: unknown }

type Reference = { _key?: string; _ref?: string }
type AgendaDay = { sessions?: Reference[]; [field: string]: unknown }

/** The document types the event now holds. */
export const MOVED_TYPES = ['priceOption', 'agendaSession']

const DRAFT_PREFIX = 'drafts.'

// Fields of a stored document that an item of an array does not have: system fields, the studio-list title of a
// price option (the option's label names it now) and the placeholder list (the event keeps its own).
function asItem(document: StoredDocument, key: string): Record<string, unknown> {
  const { _id, _rev, _createdAt, _updatedAt, ...fields } = document
  delete fields.placeholders
  if (document._type === 'priceOption') delete fields.title
  return { _key: key, ...fields }
}

/**
 * The price options and agenda days an event holds once its references are replaced by the documents they point
 * at; `preferDrafts` reads a part's unpublished change when it has one (for the event's draft). A reference to a
 * document that does not exist is dropped, as the site never showed it.
 */
function inlineParts(event: StoredDocument, parts: Map<string, StoredDocument>, preferDrafts: boolean) {
  const resolve = (reference: Reference) => {
    if (typeof reference._ref !== 'string') return [reference]
    const part = (preferDrafts ? parts.get(DRAFT_PREFIX + reference._ref) : undefined) ?? parts.get(reference._ref)
    return part === undefined ? [] : [asItem(part, reference._key ?? reference._ref)]
  }
  const priceOptions = Array.isArray(event.priceOptions) ? (event.priceOptions as Reference[]).flatMap(resolve) : undefined
  const agendaDays = Array.isArray(event.agendaDays)
    ? (event.agendaDays as AgendaDay[]).map((day) => (Array.isArray(day.sessions) ? { ...day, sessions: day.sessions.flatMap(resolve) } : day))
    : undefined
  return { priceOptions, agendaDays }
}

const referencedIds = (event: StoredDocument) =>
  [
    ...((event.priceOptions as Reference[] | undefined) ?? []),
    ...((event.agendaDays as AgendaDay[] | undefined) ?? []).flatMap((day) => day.sessions ?? []),
  ].flatMap((item) => (typeof item._ref === 'string' ? [item._ref] : []))

// The card's date used to be typed; it is made from the event's dates now.
const hasTypedDate = (event: StoredDocument) => (event.card as { dateLabel?: unknown } | undefined)?.dateLabel !== undefined

function withoutTypedDate(event: StoredDocument): StoredDocument {
  if (!hasTypedDate(event)) return event
  const { dateLabel: _dateLabel, ...card } = event.card as Record<string, unknown>
  return { ...event, card }
}

/** The mutations that move the parts into one event document (published or draft). */
function moveInto(event: StoredDocument, parts: Map<string, StoredDocument>, hasDraft: boolean): Mutation[] {
  const isDraft = event._id.startsWith(DRAFT_PREFIX)
  const moved = inlineParts(event, parts, isDraft)
  const operations = [
    ...(moved.priceOptions === undefined ? [] : [at('priceOptions', set(moved.priceOptions))]),
    ...(moved.agendaDays === undefined ? [] : [at('agendaDays', set(moved.agendaDays))]),
    ...(hasTypedDate(event) ? [at('card.dateLabel', unset())] : []),
  ]
  const updated = [patch(event._id, operations, event._rev === undefined ? undefined : { ifRevision: event._rev })]
  if (isDraft || hasDraft) return updated
  // Parts edited but not published: the event gets a draft holding those edits, to publish with it.
  const withDrafts = inlineParts(event, parts, true)
  if (JSON.stringify(withDrafts) === JSON.stringify(moved)) return updated
  const { _rev, _createdAt, _updatedAt, ...fields } = withoutTypedDate(event)
  return [...updated, createOrReplace({ ...fields, _id: DRAFT_PREFIX + event._id, ...definedOnly(withDrafts) })]
}

/**
 * The move, one transaction per event: its published document and its draft get their parts in the same transaction
 * that deletes the price option and agenda session documents (and their drafts) only it referenced, so the site reads
 * an event either wholly as before or wholly moved, and nothing references a deleted document. A published event
 * whose parts have unpublished changes gets a draft holding them, so no edit waiting for Publish is lost. The
 * documents no event references, or several do, are deleted last. The card's typed date (`card.dateLabel`) is removed,
 * since the card's date is made from the event's dates. Running it again changes nothing.
 */
export function moveIntoEvents(documents: StoredDocument[]): (Mutation | Transaction)[] {
  const parts = new Map(documents.filter((document) => MOVED_TYPES.includes(document._type)).map((document) => [document._id, document]))
  const events = documents.filter((document) => document._type === 'event')
  const eventIds = new Set(events.map((event) => event._id))
  const publishedIdOf = (id: string) => (id.startsWith(DRAFT_PREFIX) ? id.slice(DRAFT_PREFIX.length) : id)
  const groups = new Map<string, StoredDocument[]>()
  for (const event of events.filter((candidate) => referencedIds(candidate).length > 0 || hasTypedDate(candidate))) {
    const group = publishedIdOf(event._id)
    groups.set(group, [...(groups.get(group) ?? []), event])
  }
  const referencingGroups = new Map<string, Set<string>>()
  for (const [group, members] of groups) {
    for (const id of members.flatMap(referencedIds)) referencingGroups.set(id, (referencingGroups.get(id) ?? new Set()).add(group))
  }
  const ownedBy = (group: string) => (id: string) =>
    referencingGroups.get(publishedIdOf(id))?.size === 1 && referencingGroups.get(publishedIdOf(id))?.has(group)
  const deleted = new Set<string>()
  const perEvent = [...groups].map(([group, members]) => {
    const owned = [...parts.keys()].filter(ownedBy(group))
    owned.forEach((id) => deleted.add(id))
    return transaction([...members.flatMap((event) => moveInto(event, parts, eventIds.has(DRAFT_PREFIX + group))), ...owned.map((id) => delete_(id))])
  })
  const rest = [...parts.keys()].filter((id) => !deleted.has(id))
  return [...perEvent, ...(rest.length === 0 ? [] : [transaction(rest.map((id) => delete_(id)))])]
}

function definedOnly(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
}
