import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANAGER, testContext } from '../backoffice/fixtures.ts'
import type { RegistrationEvent } from '../catalog.ts'
import { cancellationProposal, cancelRegistration } from '../cancellation/cancel.ts'
import { ValidationError } from '../errors.ts'
import { storedMailOf } from '../outbox/stored-mail.ts'
import { seatsTaken } from '../seats/seats.ts'
import {
  LEGAL_OPINION,
  RESILIENCE,
  SITE_NOW,
  TEST_BACKENDS,
  fixedCatalog,
  openTestDatabase,
  pdftotext,
  registrationInput,
  testSiteLinks,
  type TestDatabase,
} from '../test-support.ts'
import { createRegistration } from './commands.ts'
import { getInvoicePdf } from './queries.ts'

const THANDI = { name: 'Thandi Nkosi', position: 'Legal Adviser', email: 'thandi@acme.example.com' }
const PIETER = { name: 'Pieter van Wyk', position: 'Paralegal', email: 'pieter@acme.example.com' }
const LERATO = { name: 'Lerato Molefe', position: 'Attorney', email: 'lerato@acme.example.com' }

/** Legal Opinion at the venue price (R8 990) for Thandi and Pieter, and online (R5 990) for Lerato. */
const mixedBooking = (overrides: Record<string, unknown> = {}) =>
  registrationInput({
    delegates: [
      { ...THANDI, attendance: 'venue' },
      { ...PIETER, attendance: 'venue' },
      { ...LERATO, attendance: 'online' },
    ],
    ...overrides,
  })

describe.each(TEST_BACKENDS)('venue and online delegates in one registration on %s', (backend) => {
  let testDb: TestDatabase

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  const context = (events: RegistrationEvent[] = [LEGAL_OPINION, RESILIENCE]) => ({
    db: testDb.db,
    catalog: fixedCatalog(events),
    links: testSiteLinks(),
    siteNow: () => SITE_NOW,
  })

  async function refusal(input: Record<string, unknown>, events?: RegistrationEvent[]): Promise<ValidationError> {
    const error = await createRegistration(context(events), input).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ValidationError)
    const stored = await testDb.db.kysely.selectFrom('registrations').select('id').execute()
    expect(stored).toEqual([])
    return error as ValidationError
  }

  it('refuses an attendance that is neither venue nor online, on that delegate, storing nothing', async () => {
    const error = await refusal(registrationInput({ delegates: [THANDI, { ...PIETER, attendance: 'hybrid' }] }))
    expect(error.code).toBe('invalid-choice')
    expect(error.issues).toEqual([{ path: 'delegates.1.attendance', code: 'invalid-choice' }])
  })

  it('refuses an online delegate at a table: a table is at the venue', async () => {
    const error = await refusal(
      registrationInput({ event: 'Resilience', code: 'ERC2025', attendanceOption: 'table-5', delegates: [THANDI, { ...LERATO, attendance: 'online' }] }),
    )
    expect(error.code).toBe('table-venue-only')
    expect(error.issues).toEqual([{ path: 'delegates.1.attendance', code: 'table-venue-only' }])
  })

  it('refuses online on an event without online, and the venue on an online-only event', async () => {
    const venueOnly = { ...LEGAL_OPINION, priceOptions: LEGAL_OPINION.priceOptions.filter((option) => option.key !== 'online') }
    const noOnline = await refusal(mixedBooking(), [venueOnly])
    expect(noOnline.code).toBe('attendance-unavailable')
    expect(noOnline.issues).toEqual([{ path: 'delegates.2.attendance', code: 'attendance-unavailable' }])

    const onlineOnly = { ...LEGAL_OPINION, priceOptions: LEGAL_OPINION.priceOptions.filter((option) => option.key === 'online') }
    const noVenue = await refusal(mixedBooking({ attendanceOption: 'online' }), [onlineOnly])
    expect(noVenue.code).toBe('attendance-unavailable')
    expect(noVenue.issues.map((issue) => issue.path)).toEqual(['delegates.0.attendance', 'delegates.1.attendance'])
  })

  it('refuses more online delegates than online places left, whatever seats the venue has', async () => {
    const event = { ...LEGAL_OPINION, venueCapacity: 50, onlineCapacity: 1 }
    await createRegistration(context([event]), registrationInput({ delegates: [{ ...THANDI, attendance: 'online' }] }))
    const error = await createRegistration(context([event]), mixedBooking()).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).issues).toEqual([{ path: 'attendanceOption', code: 'sold-out', seatsLeft: 0, seatKind: 'online', seatsWanted: 1 }])
    expect(await seatsTaken(testDb.db.kysely, event.id)).toEqual({ venue: 0, online: 1 })
  })

  it('wants the option when a delegate does not say how they attend', async () => {
    const error = await refusal(registrationInput({ attendanceOption: undefined, delegates: [{ ...THANDI, attendance: 'online' }, PIETER] }))
    expect(error.code).toBe('missing-fields')
    expect(error.issues).toEqual([{ path: 'attendanceOption', code: 'required' }])
  })

  it('prices each delegate at their own option, VAT once on the total, and takes seats of each kind', async () => {
    const event = { ...LEGAL_OPINION, venueCapacity: 10, onlineCapacity: 10 }
    const { receipt } = await createRegistration(context([event]), mixedBooking())
    // 2 × R8 990 + R5 990 = R23 970.00; VAT R3 595.50; R27 565.50.
    expect(receipt.total).toBe('27565.50')
    const row = await testDb.db.kysely.selectFrom('registrations').selectAll().executeTakeFirstOrThrow()
    expect(row).toMatchObject({ attendance_option: 'venue', unit_amount_cents: 899_000, subtotal_cents: 2_397_000, vat_cents: 359_550, delegate_count: 3 })
    const delegates = await testDb.db.kysely
      .selectFrom('registration_delegates')
      .select(['name', 'attendance', 'unit_amount_cents'])
      .orderBy('ordinal')
      .execute()
    expect(delegates).toEqual([
      { name: THANDI.name, attendance: 'venue', unit_amount_cents: 899_000 },
      { name: PIETER.name, attendance: 'venue', unit_amount_cents: 899_000 },
      { name: LERATO.name, attendance: 'online', unit_amount_cents: 599_000 },
    ])
    expect(await seatsTaken(testDb.db.kysely, event.id)).toEqual({ venue: 2, online: 1 })

    // The tax invoice: a line per kind of attendance, VAT on the total.
    const invoice = await getInvoicePdf({ db: testDb.db }, receipt.reference, receipt.secret)
    const text = pdftotext(invoice!.pdf)
    expect(text).toMatch(/Legal Opinion Writing 2025: Venue 2 R 8 990\.00 R 17 980\.00 .* Indaba Hotel, .* 2 delegates: Thandi Nkosi, Pieter van Wyk /)
    expect(text).toMatch(/Legal Opinion Writing 2025: Online 1 R 5 990\.00 R 5 990\.00 .* \(SAST\) Online Delegate: Lerato Molefe /)
    expect(text).toContain('R 3 595.50')
    expect(text).toContain('R 27 565.50')
  })

  it('prices venue delegates at the venue price in force when only the delegates say how they attend', async () => {
    const { receipt } = await createRegistration(context(), mixedBooking({ attendanceOption: undefined }))
    // Early-bird (R7 990) is offered on 1 March 2025: 2 × R7 990 + R5 990 = R21 970.00 + VAT R3 295.50.
    expect(receipt.total).toBe('25265.50')
    const row = await testDb.db.kysely.selectFrom('registrations').select(['attendance_option', 'attendance_option_label']).executeTakeFirstOrThrow()
    expect(row).toEqual({ attendance_option: 'early-bird', attendance_option_label: 'Early-bird: register and pay by 25 March 2025 + Online' })
  })

  it('gives the online delegate the join wording and no door pass, and the venue delegates their passes', async () => {
    await createRegistration(context(), mixedBooking({ email: 'office@acme.example.com' }))
    const rows = await testDb.db.kysely.selectFrom('outbox_messages').selectAll().where('topic', '=', 'registration.delegate').execute()
    const mails = await Promise.all(rows.map((row) => storedMailOf(testDb.db, row)))
    const lerato = mails.find((mail) => mail.to.includes(LERATO.email))!
    expect(lerato.text).toContain('Online: we e-mail each delegate their own joining link')
    expect(lerato.text).not.toContain('Indaba Hotel')
    expect(lerato.text).not.toContain('pass')
    expect(lerato.attachments?.map((attachment) => attachment.contentType)).toEqual(['text/calendar; charset=utf-8'])
    const thandi = mails.find((mail) => mail.to.includes(THANDI.email))!
    expect(thandi.text).toContain('Indaba Hotel')
    expect(thandi.attachments?.some((attachment) => attachment.contentType === 'image/png')).toBe(true)

    const registrant = await testDb.db.kysely.selectFrom('outbox_messages').selectAll().where('topic', '=', 'registration.registrant').executeTakeFirstOrThrow()
    const confirmation = await storedMailOf(testDb.db, registrant)
    expect(confirmation.text).toContain(`${LERATO.name}, ${LERATO.position} <${LERATO.email}> (online)`)
    expect(confirmation.attachments?.filter((attachment) => attachment.contentType === 'image/png')).toHaveLength(2)
  })

  it("credits the online delegate's own price when only they are cancelled", async () => {
    const { receipt } = await createRegistration(context(), mixedBooking())
    const staff = testContext(testDb.db)
    const proposal = await cancellationProposal(staff, receipt.reference)
    expect(proposal.delegates.map((delegate) => [delegate.attendance, delegate.unitAmountCents])).toEqual([
      ['venue', 899_000],
      ['venue', 899_000],
      ['online', 599_000],
    ])
    const online = proposal.delegates[2]!
    const outcome = await cancelRegistration(staff, { reference: receipt.reference, delegateIds: [online.id], feePercent: 0 }, MANAGER)
    // R5 990 credited; the VAT credited is R3 595.50 less the VAT on the R17 980 still charged (R2 697.00).
    expect(outcome.cancellation).toMatchObject({ creditedSubtotalCents: 599_000, creditedVatCents: 89_850, creditedTotalCents: 688_850 })
    expect(await seatsTaken(testDb.db.kysely, LEGAL_OPINION.id)).toEqual({ venue: 2, online: 0 })
  })
})
