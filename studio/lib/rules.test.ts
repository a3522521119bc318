import { describe, expect, it } from 'vitest'
import { dateInEventTimeZone } from './dates.ts'
import { priceSummary } from './price.ts'
import {
  checkAgendaDayDates,
  checkAmountAboveZero,
  checkDocument,
  checkEarlyBirdBelowVenue,
  checkEarlyBirdDate,
  checkEnd,
  checkPriceOptionSet,
  checkRegistrationClose,
  checkSessionEnd,
  checkSessionOrder,
  checkSessionOverlaps,
  checkTabContent,
  checkTablePricePerHead,
  checkTablesOnWorkshop,
  checkTimeOfDay,
  checkOptionsComplete,
  checkOtherPresenter,
  checkSessionSpeakersListed,
  checkVatRate,
  type ContentDocument,
} from './rules.ts'

describe('priceSummary', () => {
  it.each([
    ['venue', 8490, 0.15, 'R 8 490.00 excl. VAT · R 9 763.50 incl. VAT'],
    ['table-5', 34950, 0.15, 'R 34 950.00 excl. VAT · R 40 192.50 incl. VAT'],
    ['venue', 8490, 0.16, 'R 8 490.00 excl. VAT · R 9 848.40 incl. VAT'],
    ['online', 0, 0.15, 'R 0.00 excl. VAT · R 0.00 incl. VAT'],
  ] as const)('%s at R%d with VAT %d', (key, amount, vatRate, expected) => {
    expect(priceSummary(key, amount, vatRate)).toBe(expected)
  })
})

describe('dateInEventTimeZone', () => {
  it('uses the Johannesburg calendar day', () => {
    expect(dateInEventTimeZone('2025-07-22T23:30:00Z')).toBe('2025-07-23')
    expect(dateInEventTimeZone('2025-07-23T07:30:00+02:00')).toBe('2025-07-23')
  })
})

const start = '2025-07-23T07:30:00+02:00'
const end = '2025-07-24T16:00:00+02:00'

describe('event dates', () => {
  it.each([
    [start, end, undefined],
    [start, start, 'The event must end after it starts'],
    [start, '2025-07-22T16:00:00+02:00', 'The event must end after it starts'],
    [undefined, end, undefined],
  ])('start %s, end %s', (eventStart, eventEnd, expected) => {
    expect(checkEnd(eventStart, eventEnd)).toBe(expected)
  })

  it.each([
    [end, undefined],
    ['2025-07-24T16:01:00+02:00', 'Registration must close on or before the end of the event'],
    [undefined, undefined],
  ])('registration closing at %s', (closesAt, expected) => {
    expect(checkRegistrationClose(closesAt, end)).toBe(expected)
  })

  it.each([
    [[{ label: 'Day 1', date: '2025-07-23' }, { label: 'Day 2', date: '2025-07-24' }], []],
    [[{ label: 'Day 2', date: '2030-07-24' }], ['Day 2 is dated 2030-07-24, outside the event (2025-07-23 to 2025-07-24)']],
    [[{ date: '2025-07-22' }], ['Day 1 is dated 2025-07-22, outside the event (2025-07-23 to 2025-07-24)']],
    [[{ label: 'Day 1' }], []],
  ])('agenda days %j', (days, expected) => {
    expect(checkAgendaDayDates(days, start, end)).toEqual(expected)
  })

  it('leaves the days alone while the event ends before it starts', () => {
    expect(checkAgendaDayDates([{ label: 'Day 1', date: '2025-07-23' }], start, '2025-07-20T16:00:00+02:00')).toEqual([])
  })

  it('reads the event dates in Johannesburg, whatever offset they were saved with', () => {
    expect(checkAgendaDayDates([{ label: 'Day 1', date: '2025-07-23' }], '2025-07-22T22:30:00Z', end)).toEqual([])
  })
})

describe('price options of an event', () => {
  const venue = { key: 'venue', amount: 8490 }
  it.each([
    [[venue, { key: 'early-bird', amount: 7490, earlyBirdUntil: '2025-06-13' }], []],
    [[venue, { key: 'early-bird', amount: 7490, earlyBirdUntil: '2025-07-22' }], []],
    [[venue, { key: 'early-bird', amount: 7490, earlyBirdUntil: '2025-07-23' }], ['The early-bird date 2025-07-23 must be before the event starts (2025-07-23)']],
    [[venue, { key: 'venue', amount: 1 }], ['The event has more than one "venue" option']],
  ])('set %j', (options, expected) => {
    expect(checkPriceOptionSet(options, start)).toEqual(expected)
  })

  it.each([
    [[venue, { key: 'early-bird', amount: 7490 }], undefined],
    [[venue, { key: 'early-bird', amount: 8490 }], 'The early-bird price (R 8 490.00) must be below the venue price (R 8 490.00)'],
    [[venue, { key: 'early-bird', amount: 9000 }], 'The early-bird price (R 9 000.00) must be below the venue price (R 8 490.00)'],
    [[{ key: 'early-bird', amount: 9000 }], undefined],
  ])('early-bird against venue %j', (options, expected) => {
    expect(checkEarlyBirdBelowVenue(options)).toBe(expected)
  })

  it.each([
    [[venue, { key: 'table-5', amount: 34950 }, { key: 'table-10', amount: 59900 }], []],
    [[venue, { key: 'table-5', amount: 42450 }], []],
    [[venue, { key: 'table-5', amount: 42450.05 }], ['A table-5 option costs R 8 490.01 per delegate, more than the venue price (R 8 490.00)']],
    [[venue, { key: 'table-10', amount: 100000 }], ['A table-10 option costs R 10 000.00 per delegate, more than the venue price (R 8 490.00)']],
    [[{ key: 'table-10', amount: 100000 }], []],
  ])('tables per head %j', (options, expected) => {
    expect(checkTablePricePerHead(options)).toEqual(expected)
  })

  it.each([
    [[venue, { key: 'early-bird', amount: 7490, earlyBirdUntil: '2025-06-13' }], []],
    [[{ title: 'New conference — Early-bird', key: 'early-bird', amount: 6990 }], ['New conference — Early-bird: Early-bird options need the last day to register and pay']],
    [[{ _id: 'price-x', key: 'online', amount: 0 }], ['online: The amount must be above zero']],
  ])('options complete %j', (options, expected) => {
    expect(checkOptionsComplete(options)).toEqual(expected)
  })

  it('warns about tables on workshops only', () => {
    const tables = [{ key: 'table-5' }]
    expect(checkTablesOnWorkshop('workshop', tables)).toMatch(/conferences only/)
    expect(checkTablesOnWorkshop('conference', tables)).toBeUndefined()
  })
})

describe('tabs', () => {
  const reference = [{ _ref: 'x' }]
  const full = { agendaDays: [{ label: 'Day 1' }], speakers: reference, sponsorPackages: reference, priceOptions: reference }
  it.each([
    [{ tabs: ['overview', 'agenda', 'register', 'speakers', 'sponsor'], ...full }, []],
    [{ tabs: ['overview'] }, []],
    [{ tabs: ['agenda'], agendaDays: [] }, ['The Agenda tab needs at least one agenda day']],
    [{ tabs: ['speakers'] }, ['The Speakers tab needs at least one speaker']],
    [{ tabs: ['sponsor'], sponsorPackages: [] }, ['The Sponsor tab needs at least one sponsor package']],
    [{ tabs: ['register'] }, ['The Register tab needs at least one price option']],
  ])('%j', (event, expected) => {
    expect(checkTabContent(event)).toEqual(expected)
  })
})

describe('agenda sessions', () => {
  it.each([
    ['07:30', undefined],
    ['23:59', undefined],
    [undefined, undefined],
    ['banana', '"banana" is not a time; use 24-hour HH:mm, e.g. 07:30'],
    ['7:30', '"7:30" is not a time; use 24-hour HH:mm, e.g. 07:30'],
    ['24:00', '"24:00" is not a time; use 24-hour HH:mm, e.g. 07:30'],
    ['07:30 – 08:30', '"07:30 – 08:30" is not a time; use 24-hour HH:mm, e.g. 07:30'],
  ])('time %s', (time, expected) => {
    expect(checkTimeOfDay(time)).toBe(expected)
  })

  it.each([
    [{ start: '07:30', end: '08:30' }, undefined],
    [{ start: '08:30', end: '08:30' }, 'The session must end after it starts (08:30)'],
    [{ start: '09:00', end: '08:30' }, 'The session must end after it starts (09:00)'],
    [{ start: 'banana', end: '08:30' }, undefined],
  ])('end of %j', (session, expected) => {
    expect(checkSessionEnd(session)).toBe(expected)
  })

  const registration = { title: 'Registration', start: '07:30', end: '08:30' }
  const keynote = { title: 'Keynote', start: '08:30', end: '09:15' }
  const panel = { title: 'Panel', start: '09:00', end: '10:00' }

  it.each([
    [[registration, keynote, panel], []],
    [[keynote, registration], ['Day 1: "07:30 Registration" is listed after "08:30 Keynote" but starts earlier']],
  ])('order of %j', (sessions, expected) => {
    expect(checkSessionOrder('Day 1', sessions)).toEqual(expected)
  })

  it.each([
    [[registration, keynote], []],
    [[registration, keynote, panel], ['Day 2: "09:00 Panel" starts before "08:30 Keynote" ends (09:15)']],
    [[panel, keynote], ['Day 2: "09:00 Panel" starts before "08:30 Keynote" ends (09:15)']],
  ])('overlaps of %j', (sessions, expected) => {
    expect(checkSessionOverlaps('Day 2', sessions)).toEqual(expected)
  })
})

describe('session speakers', () => {
  it.each([
    [{ speakers: [{ _ref: 'speaker-a' }] }, undefined],
    [{ speaker: 'Panel of business leaders' }, undefined],
    [{ speakers: [], speaker: 'Panel of business leaders' }, undefined],
    [{ speakers: [{ _ref: 'speaker-a' }], speaker: 'Panel' }, 'The agenda shows the listed speakers; "Panel" is not shown. Clear one of them'],
  ])('other presenter of %j', (session, expected) => {
    expect(checkOtherPresenter(session)).toBe(expected)
  })

  const keynote = { title: 'Keynote', start: '09:00', end: '09:45' }
  it.each([
    [[{ ...keynote, speakers: [{ _ref: 'speaker-a' }] }], []],
    [[{ ...keynote, speaker: 'Facilitator' }], []],
    [[{ ...keynote, speakers: [{ _ref: 'speaker-a' }, { _ref: 'speaker-z' }] }], ['Day 1: "09:00 Keynote" is presented by a speaker who is not on the event\'s Speakers list']],
  ])('listed on the event: %j', (sessions, expected) => {
    expect(checkSessionSpeakersListed('Day 1', sessions, [{ _ref: 'speaker-a' }, { _ref: 'speaker-b' }])).toEqual(expected)
  })
})

describe('price option rules', () => {
  it.each([
    [5490, undefined],
    [0.01, undefined],
    [0, 'The amount must be above zero'],
    [-1, 'The amount must be above zero'],
    [undefined, undefined],
  ])('amount %s', (amount, expected) => {
    expect(checkAmountAboveZero(amount)).toBe(expected)
  })

  it.each([
    [{ key: 'early-bird', earlyBirdUntil: '2025-06-13' }, undefined],
    [{ key: 'early-bird' }, 'Early-bird options need the last day to register and pay'],
    [{ key: 'venue', earlyBirdUntil: '2025-06-13' }, 'Only early-bird options have an early-bird date; remove it'],
    [{ key: 'venue' }, undefined],
  ])('early-bird date of %o', (option, expected) => {
    expect(checkEarlyBirdDate(option)).toBe(expected)
  })
})

describe('VAT rate', () => {
  it.each([
    [0.15, undefined],
    [0, undefined],
    [0.3, undefined],
    [undefined, undefined],
    [0.5, 'The VAT rate is a fraction from 0 to 0.3 (0.15 for 15%), not 0.5'],
    [15, 'The VAT rate is a fraction from 0 to 0.3 (0.15 for 15%), not 15'],
    [-0.01, 'The VAT rate is a fraction from 0 to 0.3 (0.15 for 15%), not -0.01'],
  ])('%s', (rate, expected) => {
    expect(checkVatRate(rate)).toBe(expected)
  })
})

describe('checkDocument', () => {
  const documents: ContentDocument[] = [
    { _id: 'venue', _type: 'priceOption', key: 'venue', amount: 8490 },
    { _id: 'early', _type: 'priceOption', key: 'early-bird', amount: 9000, earlyBirdUntil: '2025-06-13' },
    { _id: 's1', _type: 'agendaSession', title: 'Keynote', start: '09:00', end: '10:00' },
    { _id: 's2', _type: 'agendaSession', title: 'Registration', start: '07:30', end: '09:30' },
  ]
  const lookup = (id: string) => documents.find((document) => document._id === id)

  it('resolves references and names each problem by document, field and level', () => {
    const event: ContentDocument = {
      _id: 'event-x',
      _type: 'event',
      start,
      end,
      tabs: ['overview', 'agenda', 'register'],
      agendaDays: [{ _key: 'd1', label: 'Day 1', date: '2025-07-23', sessions: [{ _ref: 's1' }, { _ref: 's2' }] }],
      priceOptions: [{ _ref: 'venue' }, { _ref: 'early' }],
    }
    expect(checkDocument(event, lookup)).toEqual([
      { documentId: 'event-x', field: 'agendaDays', level: 'error', message: 'Day 1: "07:30 Registration" is listed after "09:00 Keynote" but starts earlier' },
      { documentId: 'event-x', field: 'agendaDays', level: 'warning', message: 'Day 1: "09:00 Keynote" starts before "07:30 Registration" ends (09:30)' },
      { documentId: 'event-x', field: 'priceOptions', level: 'error', message: 'The early-bird price (R 9 000.00) must be below the venue price (R 8 490.00)' },
    ])
  })

  it('checks sessions, price options and site settings by their own fields', () => {
    expect(checkDocument({ _id: 's', _type: 'agendaSession', start: 'banana', end: '08:00' }, lookup)).toEqual([
      { documentId: 's', field: 'start', level: 'error', message: '"banana" is not a time; use 24-hour HH:mm, e.g. 07:30' },
    ])
    expect(checkDocument({ _id: 'p', _type: 'priceOption', key: 'table-5', amount: 0 }, lookup)).toEqual([
      { documentId: 'p', field: 'amount', level: 'error', message: 'The amount must be above zero' },
    ])
    expect(checkDocument({ _id: 'siteSettings', _type: 'siteSettings', vatRate: 0.5 }, lookup)).toHaveLength(1)
    expect(checkDocument({ _id: 'speaker', _type: 'speaker' }, lookup)).toEqual([])
  })
})
