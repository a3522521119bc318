import { Migrator } from 'kysely/migration'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { dashboard } from '../backoffice/dashboard.ts'
import { delegateList, delegateListEvents } from '../backoffice/delegate-list.ts'
import { listRegistrations } from '../backoffice/registrations-list.ts'
import type { EventCatalog } from '../catalog.ts'
import { migrationProvider } from '../db/migrations/index.ts'
import {
  LEGAL_OPINION,
  RESILIENCE,
  SITE_NOW,
  TEST_BACKENDS,
  fixedCatalog,
  openTestDatabase,
  registrationInput,
  testSiteLinks,
  type TestDatabase,
} from '../test-support.ts'
import { createRegistration } from './commands.ts'
import { fillRegistrationEventIds, startEventIdFiller } from './event-ids.ts'

/** Legal Opinion after an editor renamed its slug: the same document, a new address. */
const RENAMED = { ...LEGAL_OPINION, slug: 'legal-opinion-writing', url: 'https://events.example.com/workshop/legal-opinion-writing' }
const RESILIENCE_INPUT = { event: 'Resilience', code: 'ERC2025' }

describe.each(TEST_BACKENDS)('registrations and their event ids on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  // Each registration a minute after the one before, so which is newest is plain.
  let minutes = 0
  const now = () => new Date(Date.UTC(2025, 2, 2, 8, minutes++))
  const context = (catalog: EventCatalog) => ({ db: testDb.db, catalog, links: testSiteLinks(), siteNow: () => SITE_NOW, now })
  const register = async (catalog: EventCatalog, overrides: Record<string, unknown> = {}) =>
    (await createRegistration(context(catalog), registrationInput(overrides))).receipt.reference
  const stored = (reference: string) =>
    testDb.db.kysely.selectFrom('registrations').select(['event_id', 'event_slug']).where('reference', '=', reference).executeTakeFirstOrThrow()

  it("stores the event's document id beside the slug it has when registered", async () => {
    const reference = await register(fixedCatalog())
    expect(await stored(reference)).toEqual({ event_id: 'event-legal-opinion', event_slug: 'legalOpinion' })
  })

  it("registers a form posted to a renamed event's old slug for the event it has become", async () => {
    const reference = await register(fixedCatalog([RENAMED, RESILIENCE], { legalOpinion: RENAMED.slug }), { event: 'legalOpinion' })
    expect(await stored(reference)).toEqual({ event_id: 'event-legal-opinion', event_slug: 'legal-opinion-writing' })
  })

  it('keeps the registrations made before and after a rename together in the dashboard, the list and the delegate lists', async () => {
    const before = await register(fixedCatalog())
    const after = await register(fixedCatalog([RENAMED, RESILIENCE]), { event: RENAMED.slug, companyName: 'After The Rename Ltd' })
    await register(fixedCatalog(), RESILIENCE_INPUT)
    const backOffice = context(fixedCatalog([RENAMED, RESILIENCE]))

    const [legalOpinion, resilience] = (await dashboard(backOffice)).events
    // Shown as the newest registration has the event: under its new slug.
    expect(legalOpinion).toMatchObject({ eventId: 'event-legal-opinion', eventSlug: 'legal-opinion-writing', registrations: 2, delegates: 4 })
    expect(resilience).toMatchObject({ eventId: 'event-resilience', registrations: 1 })
    const listed = await listRegistrations(backOffice, { eventId: 'event-legal-opinion' })
    expect(listed.rows.map((row) => [row.reference, row.eventSlug])).toEqual([
      [after, 'legal-opinion-writing'],
      [before, 'legalOpinion'],
    ])
    expect((await delegateListEvents(backOffice)).map((event) => [event.id, event.slug, event.registrations, event.delegates])).toEqual([
      ['event-legal-opinion', 'legal-opinion-writing', 2, 4],
      ['event-resilience', 'Resilience', 1, 2],
    ])
    const delegates = await delegateList(backOffice, 'event-legal-opinion')
    expect(delegates?.event).toMatchObject({ id: 'event-legal-opinion', slug: 'legal-opinion-writing' })
    expect(new Set(delegates?.rows.map((row) => row.reference))).toEqual(new Set([before, after]))
  })

  it('fills in the ids of registrations stored before the column, by slug or through a rename, and groups the rest by slug', async () => {
    const current = await register(fixedCatalog())
    const renamedSince = await register(fixedCatalog(), { companyName: 'Registered Under The Old Slug' })
    const deleted = await register(fixedCatalog(), RESILIENCE_INPUT)
    const kysely = testDb.db.kysely
    const schema = testDb.openOptions.schema
    const migrator = new Migrator({ db: kysely, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) })
    // The database as the migration finds it: rows that know their event by slug only, one under a slug since renamed.
    expect((await migrator.migrateTo('2026-11-24-registrations-without-subject')).error).toBeUndefined()
    await kysely.updateTable('registrations').set({ event_slug: 'LegalOpinion2024' }).where('reference', '=', renamedSince).execute()
    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    expect(await stored(current)).toEqual({ event_id: null, event_slug: 'legalOpinion' })

    // Resilience has since been deleted from the content: no event answers to its slug.
    const catalog = fixedCatalog([LEGAL_OPINION], { LegalOpinion2024: 'legalOpinion' })
    expect(await fillRegistrationEventIds({ db: testDb.db, catalog })).toEqual({ filled: 2, unresolved: ['Resilience'] })
    expect(await stored(current)).toEqual({ event_id: 'event-legal-opinion', event_slug: 'legalOpinion' })
    expect(await stored(renamedSince)).toEqual({ event_id: 'event-legal-opinion', event_slug: 'LegalOpinion2024' })
    expect(await stored(deleted)).toEqual({ event_id: null, event_slug: 'Resilience' })
    expect(await fillRegistrationEventIds({ db: testDb.db, catalog })).toEqual({ filled: 0, unresolved: ['Resilience'] })

    const backOffice = context(catalog)
    expect((await delegateListEvents(backOffice)).map((event) => [event.id, event.registrations])).toEqual([
      ['event-legal-opinion', 2],
      ['slug:Resilience', 1],
    ])
    expect((await listRegistrations(backOffice, { eventId: 'slug:Resilience' })).rows.map((row) => row.reference)).toEqual([deleted])
    expect((await delegateList(backOffice, 'slug:Resilience'))?.rows).toHaveLength(2)
  })

  it('tries the fill again after the content source failed, and logs what it did', async () => {
    await register(fixedCatalog())
    await testDb.db.kysely.updateTable('registrations').set({ event_id: null }).execute()
    const working = fixedCatalog()
    const getEvent = vi.fn(working.getEvent).mockRejectedValueOnce(new Error('content source down'))
    const lines: string[] = []
    const problems: string[] = []
    const filler = startEventIdFiller({
      db: testDb.db,
      catalog: { ...working, getEvent },
      log: (line) => lines.push(line),
      logProblem: (line) => problems.push(line),
      retryMs: 10,
    })
    try {
      await vi.waitFor(() => expect(lines).toEqual(["Registrations: gave 1 registration(s) their event's document id"]))
      expect(problems).toEqual(['Registrations: could not fill in event ids (content source down); trying again later'])
    } finally {
      await filler.stop()
    }
  })
})
