import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createContentClient, createLocalContentSource } from '@events/content'
import { openTestDatabase, type TestDatabase } from '@events/core/test-support'
import { createRequestListener } from '@remix-run/node-fetch-server'
import { afterEach, describe, expect, it } from 'vitest'
import { createContentRevision } from './content-revision'
import { SEAT_EPOCH_MS, seatEpoch } from './seat-epoch'

const shippedDataset = path.resolve(__dirname, '../../../packages/content/dataset/production.ndjson')

let directory: string | undefined
let server: Server | undefined
let testDb: TestDatabase | undefined
afterEach(async () => {
  server?.close()
  await testDb?.dispose()
  if (directory) rmSync(directory, { recursive: true, force: true })
  directory = undefined
})

/** The shipped dataset with Legal Opinion's room holding `venueCapacity`, served by the real local content endpoint. */
async function contentWithCapacity(venueCapacity: number | undefined) {
  directory = mkdtempSync(path.join(tmpdir(), 'seat-epoch-'))
  cpSync(path.dirname(shippedDataset), directory, { recursive: true })
  const datasetPath = path.join(directory, 'production.ndjson')
  const lines = readFileSync(datasetPath, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  for (const document of lines) if (document._id === 'event-legal-opinion' && venueCapacity !== undefined) document.venueCapacity = venueCapacity
  writeFileSync(datasetPath, lines.map((document) => JSON.stringify(document)).join('\n') + '\n')
  const source = createLocalContentSource({ datasetPath })
  server = createServer(createRequestListener(async (request) => (await source.handleContentRequest(request)) ?? new Response(null, { status: 404 })))
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return createContentClient({}, { localApiHost: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
}

/** Stores a registration of `delegates` venue delegates for Legal Opinion, as the registration command would. */
async function seatDelegates(db: TestDatabase['db'], delegates: number) {
  const id = `registration-${Math.random().toString(36).slice(2)}`
  await db.kysely
    .insertInto('registrations')
    .values({
      id,
      reference: id.slice(-8),
      secret: 's',
      status: 'awaiting-payment',
      event_id: 'event-legal-opinion',
      event_slug: 'legalOpinion',
      event_kind: 'workshop',
      event_title: 'Legal Opinion Writing 2025',
      event_start: '2025-07-03T06:30:00Z',
      event_end: '2025-07-04T14:00:00Z',
      venue_name: 'Indaba Hotel',
      venue_address: '',
      submitted_code: 'LOW2025',
      company_name: 'Acme',
      address: '1 Main Road',
      email: 'a@acme.test',
      tel: '+27 11 555 0100',
      vat_number: '',
      attendance_option: 'venue',
      attendance_option_label: 'Venue',
      payment_method: 'bank-transfer',
      delegate_count: delegates,
      unit_amount_cents: 1,
      subtotal_cents: 1,
      vat_cents: 0,
      total_cents: 1,
      vat_rate: 0.15,
      currency: 'ZAR',
      payload_hash: id,
      legal_agreement_accepted_at: '2025-03-01T00:00:00Z',
      created_at: '2025-03-01T00:00:00Z',
      updated_at: '2025-03-01T00:00:00Z',
      paid_at: null,
      cancelled_at: null,
      purchase_order_number: '',
    })
    .execute()
  await db.kysely
    .insertInto('registration_delegates')
    .values(
      Array.from({ length: delegates }, (_, ordinal) => ({
        id: `${id}-${ordinal}`,
        registration_id: id,
        ordinal,
        name: 'D',
        position: 'P',
        email: 'd@acme.test',
        attendance: 'venue' as const,
        unit_amount_cents: 0,
        cancellation_id: null,
      })),
    )
    .execute()
}

describe('seatEpoch', () => {
  it('changes when the seats cross what pages say, at most SEAT_EPOCH_MS late, and at once when told', async () => {
    testDb = await openTestDatabase('sqlite')
    let clock = 0
    const epoch = seatEpoch({ content: await contentWithCapacity(15), revision: createContentRevision(), db: testDb.db, now: () => clock })
    const plenty = await epoch.current()
    expect(plenty).toBe('event-legal-opinion=many/-')

    // 4 taken leave 11: still "many", the same pages.
    await seatDelegates(testDb.db, 4)
    clock += SEAT_EPOCH_MS
    expect(await epoch.current()).toBe(plenty)

    // 10 left: counted down from now on, seen once the count is SEAT_EPOCH_MS old.
    await seatDelegates(testDb.db, 1)
    expect(await epoch.current()).toBe(plenty)
    clock += SEAT_EPOCH_MS
    expect(await epoch.current()).toBe('event-legal-opinion=10/-')

    // A registration of this instance ends the count at once.
    await seatDelegates(testDb.db, 10)
    epoch.changed()
    expect(await epoch.current()).toBe('event-legal-opinion=0/-')
  })

  it('reads nothing from the database while no event limits its seats, as in the shipped dataset', async () => {
    testDb = await openTestDatabase('sqlite')
    // A database that throws on any read: the shipped events set no capacity, so it is never asked.
    const unreadable = {
      ...testDb.db,
      kysely: new Proxy(
        {},
        {
          get: () => {
            throw new Error('read')
          },
        },
      ) as typeof testDb.db.kysely,
    }
    const epoch = seatEpoch({ content: await contentWithCapacity(undefined), revision: createContentRevision(), db: unreadable })
    expect(await epoch.current()).toBe('')
  })
})
