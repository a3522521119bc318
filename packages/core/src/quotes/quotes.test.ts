import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { formatRand } from '@events/pricing'
import { createRegistration } from '../registration/commands.ts'
import { fixedCatalog, openTestDatabase, pdftotext, registrationInput, TEST_BACKENDS, testSiteLinks, type TestDatabase } from '../test-support.ts'
import type { BackOfficeContext } from '../backoffice/context.ts'
import { findQuote, quoteDownload, requestQuote } from './quotes.ts'

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
