// `sanity migration run 2026-11-27-event-holds-its-parts` (from studio/, dry run unless --no-dry-run): moves each
// event's price options and agenda sessions, documents of their own before, into the event, so that one Publish puts
// an event, its prices and its programme live together. See moveIntoEvents.ts for what it does with drafts.
import { defineMigration } from 'sanity/migrate'
import { MOVED_TYPES, moveIntoEvents, type StoredDocument } from './moveIntoEvents.ts'

export default defineMigration({
  title: 'Move price options and agenda sessions into their events',
  documentTypes: ['event', ...MOVED_TYPES],
  async *migrate(documents) {
    const all: StoredDocument[] = []
    for await (const document of documents()) all.push(document as StoredDocument)
    yield moveIntoEvents(all)
  },
})
