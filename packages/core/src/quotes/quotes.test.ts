import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { formatRand } from '@events/pricing'
import { createRegistration } from '../registration/commands.ts'
import {
  fixedCatalog,
  LEGAL_OPINION,
  openTestDatabase,
  pdftotext,
  registrationInput,
  TEST_BACKENDS,
  testSiteLinks,
  type TestDatabase,
} from '../test-support.ts'
import type { BackOfficeContext } from '../backoffice/context.ts'
import { findQuote, quotationPrefill, quoteDownload, requestQuote } from './quotes.ts'

describe.each(TEST_BACKENDS)('quotations on %s', (backend) => {
  let testDb: TestDatabase
  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  const onDay = (isoDay: string): BackOfficeContext => ({
    db: testDb.db,
    catalog: fixedCatalog(),
    links: testSiteLinks(),
    siteNow: () => new Date(`${isoDay}T09:00:00+02:00`),
  })

  it('records the quotation a registration was made from, refusing one never issued or for another event, and shows staff it converted', async () => {
    const context = onDay('2025-03-01')
    const quote = await requestQuote(context, { event: 'legalOpinion', attendanceOption: 'venue', delegates: '2', companyName: 'Acme Legal Services' })
    expect((await findQuote(context, quote.number))!.registrations).toEqual([])

    for (const [quotationNumber, code] of [
      ['Q-000099', 'quotation-unknown'],
      ['not a number', 'quotation-unknown'],
    ] as const) {
      await expect(createRegistration(context, registrationInput({ quotationNumber }))).rejects.toMatchObject({
        code,
        issues: [{ path: 'quotationNumber', code }],
      })
    }
    const other = await requestQuote(context, { event: 'Resilience', attendanceOption: 'venue', delegates: '1' })
    await expect(createRegistration(context, registrationInput({ quotationNumber: other.number }))).rejects.toMatchObject({
      code: 'quotation-other-event',
    })
    expect(await testDb.db.kysely.selectFrom('registrations').select('id').execute()).toEqual([])

    // Typed as people type it ("q-1"), kept as printed.
    const { receipt } = await createRegistration(context, registrationInput({ quotationNumber: ' q-1 ' }))
    const stored = await testDb.db.kysely
      .selectFrom('registrations')
      .select('quotation_number')
      .where('reference', '=', receipt.reference)
      .executeTakeFirstOrThrow()
    expect(stored.quotation_number).toBe('Q-000001')
    expect((await findQuote(context, 'Q-000001'))!.registrations).toEqual([
      { reference: receipt.reference, companyName: 'Acme Legal Services', status: 'awaiting-payment', createdAt: expect.any(String) },
    ])
    // The quotation's PDF links to the Register tab with its choices, which the form starts with.
    expect(pdftotext(quote.pdf).replace(/\s+/g, '')).toContain('tab=register&quotation=Q-000001&option=venue&delegates=2')
    expect(await quotationPrefill(context, 'legalOpinion', { number: 'Q-000001', option: 'venue', delegates: '2' })).toEqual({
      quotationNumber: 'Q-000001',
      companyName: 'Acme Legal Services',
      address: '',
      attendanceOption: 'venue',
      delegateCount: 2,
      onlineCount: 0,
    })
    expect(await quotationPrefill(context, 'legalOpinion', { number: 'Q-000001', option: 'gold-bars', delegates: '9999' })).toMatchObject({
      attendanceOption: '',
      delegateCount: 1,
    })
    expect(await quotationPrefill(context, 'Resilience', { number: 'Q-000001', option: null, delegates: null })).toBeUndefined()
    expect(await quotationPrefill(context, 'legalOpinion', { number: 'Q-000099', option: null, delegates: null })).toBeUndefined()
    // A registration without one records none.
    const { receipt: plain } = await createRegistration(context, registrationInput({ companyName: 'Other Company' }))
    const none = await testDb.db.kysely
      .selectFrom('registrations')
      .select('quotation_number')
      .where('reference', '=', plain.reference)
      .executeTakeFirstOrThrow()
    expect(none.quotation_number).toBe('')
  })

  it('quotes venue and online delegates together, refusing online delegates at a table or where the event has no online', async () => {
    const context = onDay('2025-03-01')
    for (const [input, code] of [
      [{ event: 'Resilience', attendanceOption: 'table-5', delegates: '3', onlineDelegates: '1' }, 'table-venue-only'],
      [{ event: 'Resilience', attendanceOption: 'venue', delegates: '2', onlineDelegates: 'one' }, 'invalid-delegate-count'],
    ] as const) {
      await expect(requestQuote(context, input)).rejects.toMatchObject({ code, issues: [{ path: 'onlineDelegates', code }] })
    }
    const venueOnly = { ...LEGAL_OPINION, priceOptions: LEGAL_OPINION.priceOptions.filter((option) => option.key !== 'online') }
    await expect(
      requestQuote(
        { ...context, catalog: fixedCatalog([venueOnly]) },
        { event: 'legalOpinion', attendanceOption: 'venue', delegates: '1', onlineDelegates: '1' },
      ),
    ).rejects.toMatchObject({ code: 'attendance-unavailable' })
    expect(await testDb.db.kysely.selectFrom('quotes').select('id').execute()).toEqual([])

    // Resilience: 2 × R8 490 at the venue + R5 490 online = R22 470.00 + VAT R3 370.50, as the registration charges.
    const quote = await requestQuote(context, { event: 'Resilience', attendanceOption: 'venue', delegates: '2', onlineDelegates: '1' })
    expect(formatRand(quote.totalCents)).toBe('R 25 840.50')
    const text = pdftotext(quote.pdf)
    expect(text).toMatch(/2 R 8 490\.00 R 16 980\.00 .*2 delegates/)
    expect(text).toMatch(/1 R 5 490\.00 R 5 490\.00 .*Online .*1 delegate/)
    // Its link starts the form with the three delegates, the last one online.
    expect(text.replace(/\s+/g, '')).toContain('option=venue&delegates=3&online=1')
    expect(await quotationPrefill(context, 'Resilience', { number: quote.number, option: 'venue', delegates: '3', online: '1' })).toMatchObject({
      delegateCount: 3,
      onlineCount: 1,
    })
    expect(await quotationPrefill(context, 'Resilience', { number: quote.number, option: 'venue', delegates: '3', online: '3' })).toMatchObject({
      onlineCount: 0,
    })
  })

  it('quotes what the registration would charge, numbered in its own series, valid until the price stops being offered, with bank details and terms', async () => {
    const context = onDay('2025-03-01')
    const quote = await requestQuote(context, {
      event: 'legalOpinion',
      attendanceOption: 'early-bird',
      delegates: '3',
      companyName: 'Acme Legal Services',
      address: '12 Main Road\nRosebank',
    })
    expect(quote).toMatchObject({ number: 'Q-000001', filename: 'quote-Q-000001.pdf' })

    // The registration for the same option and delegates is charged exactly what was quoted.
    const { receipt } = await createRegistration(
      { ...context, siteNow: () => new Date('2025-03-02T09:00:00+02:00') },
      registrationInput({
        attendanceOption: 'early-bird',
        delegates: ['A', 'B', 'C'].map((name) => ({ name, position: 'Attorney', email: `${name.toLowerCase()}@acme.example.com` })),
      }),
    )
    expect(quote.totalCents).toBe(receipt.totalCents)

    const text = pdftotext(quote.pdf)
    for (const expected of [
      'Quotation',
      'Quotation number: Q-000001',
      'Date: 1 March 2025',
      // The early-bird price ends with 25 March 2025.
      'Valid until: 25 March 2025',
      'Prepared for Acme Legal Services 12 Main Road Rosebank',
      // The description wraps beside the figures: 3 at R 7 990.00 makes R 23 970.00 excl. VAT.
      'Legal Opinion Writing 2025: Early-bird: 3 R 7 990.00 R 23 970.00 register and pay by 25 March 2025',
      '3 delegates',
      'Total excl. VAT R 23 970.00',
      'VAT at 15% R 3 595.50',
      `Total incl. VAT ${formatRand(receipt.totalCents)}`,
      'These prices are offered until 25 March 2025. This quotation reserves no seat',
      'Payment in full within 5 days of the invoice date',
      '14 working days or less before the event carries a fee of 50%',
      '7 days or less before the event, 100%',
      'Account number: 0000000000',
      'Branch code: 000000',
    ]) {
      expect(text).toContain(expected)
    }
    expect(text).not.toContain('VAT number: 4123456789')

    // The next one, for no company and the venue price, valid until the event starts; staff find both by number.
    const second = await requestQuote(context, { event: 'legalOpinion', attendanceOption: 'venue', delegates: 1 })
    expect(second.number).toBe('Q-000002')
    expect(pdftotext(second.pdf)).toContain('Valid until: 3 July 2025')
    expect(await findQuote(context, 'q-000001')).toMatchObject({
      number: 'Q-000001',
      companyName: 'Acme Legal Services',
      totalCents: receipt.totalCents,
      eventTitle: 'Legal Opinion Writing 2025',
    })
    expect(await findQuote(context, '2')).toMatchObject({ number: 'Q-000002', companyName: '' })
    expect(await findQuote(context, 'Q-000003')).toBeUndefined()
    expect((await quoteDownload(context, 'Q-000001'))?.pdf.equals(quote.pdf)).toBe(true)
    // A quotation holds no seat and makes no registration.
    expect(await testDb.db.kysely.selectFrom('registrations').select('id').execute()).toHaveLength(1)
  })

  it('refuses an option no longer offered, too many delegates for a table, or no option, and numbers nothing', async () => {
    const context = onDay('2025-03-26')
    await expect(requestQuote(context, { event: 'legalOpinion', attendanceOption: 'early-bird', delegates: '2' })).rejects.toMatchObject({
      code: 'option-unavailable',
    })
    await expect(requestQuote(context, { event: 'Resilience', attendanceOption: 'table-5', delegates: '6' })).rejects.toMatchObject({ code: 'delegate-cap' })
    await expect(requestQuote(context, { event: 'legalOpinion', attendanceOption: '', delegates: '2' })).rejects.toMatchObject({ code: 'missing-fields' })
    await expect(requestQuote(context, { event: 'legalOpinion', attendanceOption: 'venue', delegates: '0' })).rejects.toMatchObject({
      code: 'invalid-delegate-count',
    })
    await expect(requestQuote(context, { event: 'nope', attendanceOption: 'venue', delegates: '1' })).rejects.toMatchObject({ code: 'unknown-event' })
    expect((await requestQuote(context, { event: 'Resilience', attendanceOption: 'table-5', delegates: '5' })).number).toBe('Q-000001')
  })
})
