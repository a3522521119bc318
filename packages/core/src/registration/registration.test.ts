import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import type { CoreDatabase } from '../db/database.ts'
import { ValidationError } from '../errors.ts'
import { SITE_NOW, TEST_BACKENDS, fixedCatalog, openTestDatabase, registrationInput, testSiteLinks, type TestDatabase } from '../test-support.ts'
import { createRegistration } from './commands.ts'
import { registrationStatusJson, type RegistrationContext } from './model.ts'
import { getRegistrationByReferenceAndSecret } from './queries.ts'

const links = testSiteLinks()

async function count(db: CoreDatabase, table: 'registrations' | 'registration_delegates' | 'outbox_messages' | 'submission_keys') {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

describe.each(TEST_BACKENDS)('registration service on %s', (backend) => {
  let testDb: TestDatabase
  let wallClock: Date

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    wallClock = new Date('2025-03-01T10:00:00Z')
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  function context(overrides: Partial<RegistrationContext> = {}): RegistrationContext {
    return {
      db: testDb.db,
      catalog: fixedCatalog(),
      links,
      organiserEmail: 'organiser@example.com',
      siteNow: () => SITE_NOW,
      now: () => wallClock,
      ...overrides,
    }
  }

  it('prices Legal Opinion venue for two delegates at R 20 677.00 incl. VAT and answers the 201 body', async () => {
    const { receipt, replayed } = await createRegistration(context(), registrationInput({ totalPrice: '1.00', sub: 'Cheap' }))
    expect(replayed).toBe(false)
    expect(receipt).toEqual({
      reference: expect.stringMatching(/^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{8}$/),
      secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      total: '20677.00',
      totalCents: 2067700,
      currency: 'ZAR',
      status: 'awaiting-payment',
    })
    const row = await testDb.db.kysely.selectFrom('registrations').selectAll().executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      subtotal_cents: 1798000,
      vat_cents: 269700,
      total_cents: 2067700,
      delegate_count: 2,
      vat_rate: 0.15,
    })
    expect(await count(testDb.db, 'registration_delegates')).toBe(2)
    // Organiser, registrant and one notice per delegate.
    expect(await count(testDb.db, 'outbox_messages')).toBe(4)
  })

  it("links the e-mails to the status page, and a card registration's also to its payment page", async () => {
    const mailLinks = async (paymentMethod: string) => {
      const { receipt } = await createRegistration(context(), registrationInput({ paymentMethod }))
      const row = await testDb.db.kysely
        .selectFrom('registration_mail_data')
        .innerJoin('registrations', 'registrations.id', 'registration_mail_data.registration_id')
        .select('context_json')
        .where('registrations.reference', '=', receipt.reference)
        .executeTakeFirstOrThrow()
      const { statusUrl, paymentUrl, privacyUrl } = JSON.parse(row.context_json) as Record<string, string | undefined>
      return { receipt, statusUrl, paymentUrl, privacyUrl }
    }
    const card = await mailLinks('Credit/Debit Card')
    expect(card).toMatchObject({
      statusUrl: links.registrationStatus(card.receipt),
      paymentUrl: links.registrationPayment(card.receipt),
      privacyUrl: links.privacyNotice(),
    })
    const transfer = await mailLinks('Bank Transfer')
    expect(transfer).toMatchObject({ statusUrl: links.registrationStatus(transfer.receipt), paymentUrl: undefined })
  })

  it('prices a table of 5 flat, whatever the number of delegates', async () => {
    const input = registrationInput({
      event: 'Resilience',
      attendanceOption: 'table-5',
      delegates: [{ name: 'A', position: 'B', email: 'a@example.com' }],
    })
    expect((await createRegistration(context(), input)).receipt.total).toBe('40192.50')
  })

  it('stores nothing for an invalid registration', async () => {
    await expect(createRegistration(context(), registrationInput({ email: 'nope' }))).rejects.toBeInstanceOf(ValidationError)
    await expect(createRegistration(context(), registrationInput({ event: 'nope' }))).rejects.toMatchObject({
      code: 'unknown-event',
      issues: [{ path: 'event', code: 'unknown-event' }],
    })
    expect(await count(testDb.db, 'registrations')).toBe(0)
    expect(await count(testDb.db, 'outbox_messages')).toBe(0)
    expect(await count(testDb.db, 'submission_keys')).toBe(0)
  })

  it('answers any malformed body with a ValidationError and stores nothing', async () => {
    const bodies: unknown[] = [
      null,
      'registration',
      [registrationInput()],
      {},
      registrationInput({ event: 42 }),
      registrationInput({ event: { slug: 'legalOpinion' } }),
      registrationInput({ event: 'x'.repeat(10_000) }),
      registrationInput({ delegates: Array.from({ length: 100_000 }, () => ({})) }),
      registrationInput({ delegates: [null, 'x', 3] }),
      registrationInput({ attendanceOption: ['venue'] }),
      registrationInput({ email: { address: 'a@example.com' } }),
      JSON.parse('{"event":"legalOpinion","__proto__":{"legalAgreement":true}}'),
    ]
    for (const body of bodies) {
      await expect(createRegistration(context(), body)).rejects.toBeInstanceOf(ValidationError)
    }
    await expect(createRegistration(context(), registrationInput(), { idempotencyKey: 'k'.repeat(1000) })).rejects.toMatchObject({ code: 'invalid-request' })
    expect(await count(testDb.db, 'registrations')).toBe(0)
  })

  describe('idempotency', () => {
    it('creates one registration for the same key twice, answering the same body', async () => {
      const first = await createRegistration(context(), registrationInput(), { idempotencyKey: 'form-token-1' })
      const second = await createRegistration(context(), registrationInput(), { idempotencyKey: 'form-token-1' })
      expect(second).toEqual({ receipt: first.receipt, replayed: true, paymentMethod: 'bank-transfer' })
      expect(await count(testDb.db, 'registrations')).toBe(1)
      expect(await count(testDb.db, 'outbox_messages')).toBe(4)
    })

    it('refuses the same key with different details', async () => {
      await createRegistration(context(), registrationInput(), { idempotencyKey: 'form-token-2' })
      await expect(createRegistration(context(), registrationInput({ companyName: 'Other' }), { idempotencyKey: 'form-token-2' })).rejects.toMatchObject({
        code: 'idempotency-conflict',
      })
      expect(await count(testDb.db, 'registrations')).toBe(1)
    })

    it('creates one registration for a concurrent double submit', async () => {
      const results = await Promise.all(Array.from({ length: 5 }, () => createRegistration(context(), registrationInput(), { idempotencyKey: 'double-click' })))
      expect(new Set(results.map((result) => result.receipt.reference)).size).toBe(1)
      expect(results.filter((result) => !result.replayed)).toHaveLength(1)
      expect(await count(testDb.db, 'registrations')).toBe(1)
    })

    it('treats an identical payload without a key as a resubmission for 10 minutes', async () => {
      const results = await Promise.all([createRegistration(context(), registrationInput()), createRegistration(context(), registrationInput())])
      expect(results[0].receipt).toEqual(results[1].receipt)
      wallClock = new Date(wallClock.getTime() + 9 * 60_000)
      expect((await createRegistration(context(), registrationInput({ email: 'BOOKINGS@acme.example.com' }))).replayed).toBe(true)
      expect(await count(testDb.db, 'registrations')).toBe(1)

      wallClock = new Date(wallClock.getTime() + 2 * 60_000)
      const later = await createRegistration(context(), registrationInput())
      expect(later.replayed).toBe(false)
      expect(later.receipt.reference).not.toBe(results[0].receipt.reference)
      expect(await count(testDb.db, 'registrations')).toBe(2)
    })

    it('keeps different payloads and different keys apart', async () => {
      await createRegistration(context(), registrationInput())
      await createRegistration(context(), registrationInput({ attendanceOption: 'online' }))
      await createRegistration(context(), registrationInput(), { idempotencyKey: 'a' })
      await createRegistration(context(), registrationInput(), { idempotencyKey: 'b' })
      expect(await count(testDb.db, 'registrations')).toBe(4)
    })
  })

  it('retries the reference on a collision', async () => {
    const references = ['AAAA2222', 'AAAA2222', 'BBBB3333']
    const generateReference = () => references.shift() ?? 'CCCC4444'
    const first = await createRegistration(context({ generateReference }), registrationInput(), { idempotencyKey: '1' })
    const second = await createRegistration(context({ generateReference }), registrationInput(), { idempotencyKey: '2' })
    expect([first.receipt.reference, second.receipt.reference]).toEqual(['AAAA2222', 'BBBB3333'])
  })

  it('rolls the registration back when its e-mails cannot be written', async () => {
    await sql`alter table outbox_messages rename to outbox_messages_away`.execute(testDb.db.kysely)
    await expect(createRegistration(context(), registrationInput())).rejects.toThrow()
    await sql`alter table outbox_messages_away rename to outbox_messages`.execute(testDb.db.kysely)
    expect(await count(testDb.db, 'registrations')).toBe(0)
    expect(await count(testDb.db, 'registration_delegates')).toBe(0)
    expect(await count(testDb.db, 'submission_keys')).toBe(0)
    // The failed attempt does not block the visitor's next try.
    expect((await createRegistration(context(), registrationInput())).replayed).toBe(false)
  })

  describe('getRegistrationByReferenceAndSecret', () => {
    it('finds a registration by reference and secret only', async () => {
      const { receipt } = await createRegistration(context(), registrationInput({ paymentMethod: 'Credit/Debit Card' }))
      const { reference, secret } = receipt
      const details = await getRegistrationByReferenceAndSecret(context(), reference.toLowerCase(), secret)
      expect(details).toBeDefined()
      expect(registrationStatusJson(details!)).toEqual({
        reference,
        status: 'awaiting-payment',
        event: {
          slug: 'legalOpinion',
          kind: 'workshop',
          title: 'Legal Opinion Writing 2025',
          start: '2025-07-03T06:30:00Z',
          end: '2025-07-04T14:00:00Z',
          venue: { name: 'Indaba Hotel', address: 'William Nicol Drive, Fourways, Sandton, Johannesburg' },
        },
        total: '20677.00',
        totalCents: 2067700,
        paidCents: 0,
        outstandingCents: 2067700,
        currency: 'ZAR',
        paymentMethod: 'card',
        delegates: [
          { name: 'Thandi Nkosi', position: 'Legal Adviser', email: 'thandi@acme.example.com', attendance: 'venue' },
          { name: 'Pieter van Wyk', position: 'Paralegal', email: 'pieter@acme.example.com', attendance: 'venue' },
        ],
      })
      expect(details).toMatchObject({ reference, secret })

      const lastCharacterChanged = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`
      expect(await getRegistrationByReferenceAndSecret(context(), reference, lastCharacterChanged)).toBeUndefined()
      expect(await getRegistrationByReferenceAndSecret(context(), reference, '')).toBeUndefined()
      expect(await getRegistrationByReferenceAndSecret(context(), 'ZZZZ9999', secret)).toBeUndefined()
      expect(await getRegistrationByReferenceAndSecret(context(), "' or 1=1 --", secret)).toBeUndefined()
    })
  })
})
