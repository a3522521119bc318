import { describe, expect, it } from 'vitest'
import { dateInEventTimeZone } from './dates.ts'
import { priceSummary } from './price.ts'
import {
  checkAgendaDayDates,
  checkAmountAboveZero,
  checkDocument,
  checkEarlyBirdDate,
  checkEnd,
  checkImplausiblePrices,
  checkInternalLinks,
  checkListedCopy,
  checkPriceMoves,
  checkPriceOptions,
  checkRegistrationClose,
  checkSessionEnd,
  checkSessionOrder,
  checkSessionOverlaps,
  checkSessionTimes,
  checkSessionsWithinEvent,
  checkTabContent,
  checkTablesOnWorkshop,
  checkTimeOfDay,
  checkOtherPresenter,
  checkSessionSpeakersListed,
  checkVatInclusiveLooking,
  checkVatRate,
  formatPath,
  placeInWords,
  type ContentDocument,
  type Finding,
  type PathSegment,
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

  const dayPath = (key: string) => ['agendaDays', { _key: key }, 'date']
  it.each([
    [
      [
        { _key: 'a', label: 'Day 1', date: '2025-07-23' },
        { _key: 'b', label: 'Day 2', date: '2025-07-24' },
      ],
      [],
    ],
    [
      [{ _key: 'a', label: 'Day 2', date: '2030-07-24' }],
      [{ message: 'Day 2 is dated 2030-07-24, outside the event (2025-07-23 to 2025-07-24)', path: dayPath('a') }],
    ],
    [[{ _key: 'a', date: '2025-07-22' }], [{ message: 'Day 1 is dated 2025-07-22, outside the event (2025-07-23 to 2025-07-24)', path: dayPath('a') }]],
    [[{ _key: 'a', label: 'Day 1' }], []],
    [
      [
        { _key: 'a', label: 'Day 1', date: '2025-07-24' },
        { _key: 'b', label: 'Day 2', date: '2025-07-23' },
      ],
      [{ message: 'Day 2 (2025-07-23) is listed after Day 1 (2025-07-24)', path: dayPath('b') }],
    ],
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
  const venue = { _key: 'v', key: 'venue', amount: 8490 }
  const amountOf = (key: string) => ['priceOptions', { _key: key }, 'amount']
  const earlyBird = (fields: object) => ({ _key: 'e', key: 'early-bird', amount: 7490, earlyBirdUntil: '2025-06-13', ...fields })
  it.each<[object[], Finding[]]>([
    [[venue, earlyBird({})], []],
    [[venue, earlyBird({ earlyBirdUntil: '2025-07-22' })], []],
    [
      [venue, earlyBird({ earlyBirdUntil: '2025-07-23' })],
      [{ message: 'The early-bird date 2025-07-23 must be before the event starts (2025-07-23)', path: ['priceOptions', { _key: 'e' }, 'earlyBirdUntil'] }],
    ],
    [
      [venue, { _key: 'w', key: 'venue', amount: 1 }],
      [{ message: 'The event has more than one "venue" option', path: ['priceOptions', { _key: 'w' }, 'key'] }],
    ],
    [[venue, earlyBird({ amount: 8490 })], [{ message: 'The early-bird price (R 8 490.00) must be below the venue price (R 8 490.00)', path: amountOf('e') }]],
    [[venue, earlyBird({ amount: 9500 })], [{ message: 'The early-bird price (R 9 500.00) must be below the venue price (R 8 490.00)', path: amountOf('e') }]],
    [[earlyBird({ amount: 9500 })], []],
    [[venue, { _key: 't5', key: 'table-5', amount: 34950 }, { _key: 't10', key: 'table-10', amount: 59900 }], []],
    [[venue, { _key: 't5', key: 'table-5', amount: 42449.95 }], []],
    [[venue, { _key: 't5', key: 'table-5', amount: 21225 }], []],
    [
      [venue, { _key: 't5', key: 'table-5', amount: 42450 }],
      [{ message: 'A table of 5 at R 42 450.00 is R 8 490.00 a seat; it must be below the venue price (R 8 490.00)', path: amountOf('t5') }],
    ],
    [
      [venue, { _key: 't10', key: 'table-10', amount: 1 }],
      [{ message: 'A table of 10 at R 1.00 is R 0.10 a seat; it must be at least half the venue price (R 4 245.00)', path: amountOf('t10') }],
    ],
    [[{ _key: 't10', key: 'table-10', amount: 100000 }], []],
    [[{ _key: 'o', key: 'online', amount: 0 }], [{ message: 'The amount must be above zero', path: amountOf('o') }]],
    [
      [{ _key: 'e', key: 'early-bird', amount: 6990 }],
      [{ message: 'Early-bird options need the last day to register and pay', path: ['priceOptions', { _key: 'e' }, 'earlyBirdUntil'] }],
    ],
  ])('%j', (options, expected) => {
    expect(checkPriceOptions(options, start)).toEqual(expected)
  })

  it('warns about tables on workshops only', () => {
    const tables = [{ key: 'table-5' }]
    expect(checkTablesOnWorkshop('workshop', tables)).toMatch(/conferences only/)
    expect(checkTablesOnWorkshop('conference', tables)).toBeUndefined()
  })
})

describe('tabs', () => {
  const reference = [{ _ref: 'x' }]
  const full = { agendaDays: [{ label: 'Day 1' }], speakers: reference, sponsorPackages: reference, priceOptions: [{ key: 'venue', amount: 1 }] }
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

  const registration = { _key: 'r', title: 'Registration', start: '07:30', end: '08:30' }
  const keynote = { _key: 'k', title: 'Keynote', start: '08:30', end: '09:15' }
  const panel = { _key: 'p', title: 'Panel', start: '09:00', end: '10:00' }
  const day = (label: string, sessions: object[]) => [{ _key: 'd', label, sessions }]
  const startOf = (key: string) => ['agendaDays', { _key: 'd' }, 'sessions', { _key: key }, 'start']

  it('marks each session time on its own field', () => {
    expect(checkSessionTimes(day('Day 1', [registration, { _key: 'x', title: 'Lunch', start: '7.30am', end: '07:00' }]))).toEqual([
      { message: '"7.30am" is not a time; use 24-hour HH:mm, e.g. 07:30', path: startOf('x') },
    ])
    expect(checkSessionTimes(day('Day 1', [{ _key: 'x', start: '09:00', end: '08:00' }]))).toEqual([
      { message: 'The session must end after it starts (09:00)', path: ['agendaDays', { _key: 'd' }, 'sessions', { _key: 'x' }, 'end'] },
    ])
  })

  it("keeps the sessions of the first and last day within the event's hours", () => {
    const days = [
      { _key: 'd', label: 'Day 1', date: '2025-07-23', sessions: [{ _key: 'early', title: 'Breakfast', start: '07:00', end: '07:30' }, registration] },
      { _key: 'd2', label: 'Day 2', date: '2025-07-24', sessions: [{ _key: 'late', title: 'Drinks', start: '15:30', end: '17:00' }] },
    ]
    expect(checkSessionsWithinEvent(days, start, end)).toEqual([
      { message: 'Day 1: "07:00 Breakfast" starts before the event does (07:30)', path: startOf('early') },
      { message: 'Day 2: "15:30 Drinks" ends after the event does (16:00)', path: ['agendaDays', { _key: 'd2' }, 'sessions', { _key: 'late' }, 'end'] },
    ])
    expect(checkSessionsWithinEvent([{ ...days[0]!, sessions: [registration] }], start, end)).toEqual([])
  })

  it.each([
    [[registration, keynote, panel], []],
    [[keynote, registration], [{ message: 'Day 1: "07:30 Registration" is listed after "08:30 Keynote" but starts earlier', path: startOf('r') }]],
  ])('order of %j', (sessions, expected) => {
    expect(checkSessionOrder(day('Day 1', sessions))).toEqual(expected)
  })

  const inParallel = ' sessions that run in parallel need different rooms'
  it.each([
    [[registration, keynote], []],
    [[registration, keynote, panel], [{ message: `Day 2: "09:00 Panel" starts before "08:30 Keynote" ends (09:15);${inParallel}`, path: startOf('p') }]],
    [[panel, keynote], [{ message: `Day 2: "09:00 Panel" starts before "08:30 Keynote" ends (09:15);${inParallel}`, path: startOf('p') }]],
    // Parallel on purpose: two rooms.
    [[registration, { ...keynote, room: 'Hall A' }, { ...panel, room: 'Boardroom' }], []],
    [
      [registration, { ...keynote, room: 'Hall A' }, { ...panel, room: 'hall a ' }],
      [{ message: `Day 2: "09:00 Panel" starts before "08:30 Keynote" ends (09:15) in hall a;${inParallel}`, path: startOf('p') }],
    ],
    // A session without a room is for everyone: it clashes with any.
    [
      [registration, keynote, { ...panel, room: 'Boardroom' }],
      [{ message: `Day 2: "09:00 Panel" starts before "08:30 Keynote" ends (09:15);${inParallel}`, path: startOf('p') }],
    ],
  ])('overlaps of %j', (sessions, expected) => {
    expect(checkSessionOverlaps(day('Day 2', sessions))).toEqual(expected)
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

  const keynote = { _key: 'k', title: 'Keynote', start: '09:00', end: '09:45' }
  it.each([
    [[{ ...keynote, speakers: [{ _ref: 'speaker-a' }] }], []],
    [[{ ...keynote, speaker: 'Facilitator' }], []],
    [
      [{ ...keynote, speakers: [{ _ref: 'speaker-a' }, { _ref: 'speaker-z' }] }],
      [
        {
          message: 'Day 1: "09:00 Keynote" is presented by a speaker who is not on the event\'s Speakers list',
          path: ['agendaDays', { _key: 'd' }, 'sessions', { _key: 'k' }, 'speakers'],
        },
      ],
    ],
  ])('listed on the event: %j', (sessions, expected) => {
    expect(checkSessionSpeakersListed([{ _key: 'd', label: 'Day 1', sessions }], [{ _ref: 'speaker-a' }, { _ref: 'speaker-b' }])).toEqual(expected)
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
    [15, undefined],
    [0, undefined],
    [30, undefined],
    [14.5, undefined],
    [undefined, undefined],
    [0.15, 'Enter the VAT rate as a percentage: 15 for 15%, not 0.15'],
    [50, 'The VAT rate is a percentage from 0 to 30 (15 for 15%), not 50'],
    [-1, 'The VAT rate is a percentage from 0 to 30 (15 for 15%), not -1'],
  ])('%s', (rate, expected) => {
    expect(checkVatRate(rate)).toBe(expected)
  })
})

describe('checkDocument', () => {
  it('checks an event with the price options and sessions it holds, naming each problem by document, place and level', () => {
    const event: ContentDocument = {
      _id: 'event-x',
      _type: 'event',
      start,
      end,
      tabs: ['overview', 'agenda', 'register'],
      agendaDays: [
        {
          _key: 'd1',
          label: 'Day 1',
          date: '2025-07-23',
          sessions: [
            { _key: 's1', title: 'Keynote', start: '09:00', end: '10:00' },
            { _key: 's2', title: 'Registration', start: '07:30', end: '09:30' },
          ],
        },
      ],
      priceOptions: [
        { _key: 'venue', key: 'venue', amount: 8490 },
        { _key: 'early', key: 'early-bird', amount: 9500, earlyBirdUntil: '2025-06-13' },
      ],
    }
    const session = (key: string) => ['agendaDays', { _key: 'd1' }, 'sessions', { _key: key }, 'start']
    expect(checkDocument(event, () => undefined)).toEqual([
      { documentId: 'event-x', path: session('s2'), level: 'error', message: 'Day 1: "07:30 Registration" is listed after "09:00 Keynote" but starts earlier' },
      {
        documentId: 'event-x',
        path: session('s1'),
        level: 'error',
        message: 'Day 1: "09:00 Keynote" starts before "07:30 Registration" ends (09:30); sessions that run in parallel need different rooms',
      },
      {
        documentId: 'event-x',
        path: ['priceOptions', { _key: 'early' }, 'amount'],
        level: 'error',
        message: 'The early-bird price (R 9 500.00) must be below the venue price (R 8 490.00)',
      },
    ])
  })

  it('checks site settings by their own fields', () => {
    expect(checkDocument({ _id: 'siteSettings', _type: 'siteSettings', vatRate: 0.15 }, () => undefined)).toEqual([
      { documentId: 'siteSettings', path: ['vatRate'], level: 'error', message: 'Enter the VAT rate as a percentage: 15 for 15%, not 0.15' },
    ])
    expect(checkDocument({ _id: 'speaker', _type: 'speaker' }, () => undefined)).toEqual([])
  })

  it('writes paths as GROQ does', () => {
    expect(formatPath(['priceOptions', { _key: 'early' }, 'amount'])).toBe('priceOptions[_key=="early"].amount')
    expect(formatPath(['vatRate'])).toBe('vatRate')
  })
})

describe('listing a copy for next year', () => {
  const copy = {
    _id: 'e2026',
    _type: 'event',
    start: '2026-07-22T07:30:00+02:00',
    previousEdition: { _ref: 'e2025', _weak: true },
    card: { listed: true },
    summary: 'The outlook for 2025',
  }
  it('is refused while its checklist still has items', () => {
    expect(checkListedCopy(copy)).toEqual([{ message: 'List this event once its checklist is clear: 1 field still mentions 2025', path: ['card', 'listed'] }])
  })
  it.each([
    { case: 'the checklist is clear', event: { ...copy, summary: 'The outlook for 2026' } },
    { case: 'it is not listed', event: { ...copy, card: { listed: false } } },
    { case: 'it is not a copy', event: { ...copy, previousEdition: undefined } },
  ])('is accepted when $case', ({ event }) => {
    expect(checkListedCopy(event)).toEqual([])
  })
  it('is an error of the event, on the listing switch', () => {
    expect(checkDocument(copy, () => undefined)).toContainEqual(expect.objectContaining({ level: 'error', path: ['card', 'listed'] }))
  })
})

describe('placeInWords', () => {
  const event = {
    _id: 'e',
    _type: 'event',
    agendaDays: [{ _key: 'd2', label: 'Day 2', sessions: [{ _key: 's4', title: 'Keynote' }] }],
    priceOptions: [{ _key: 'v', key: 'venue', label: 'Venue' }],
    overview: { objectives: [{ _key: 'o1', children: [{ _key: 'c1', text: 'For 2025' }] }] },
  }
  it.each([
    { path: ['agendaDays', { _key: 'd2' }, 'sessions', { _key: 's4' }, 'title'], words: "Day 2, session 'Keynote', title" },
    { path: ['priceOptions', { _key: 'v' }, 'amount'], words: "Price option 'Venue', amount" },
    { path: ['overview', 'objectives', { _key: 'o1' }, 'children', { _key: 'c1' }, 'text'], words: 'Overview, objectives' },
    { path: ['registrationClosesAt'], words: 'Registration closes at' },
    { path: ['agendaDays', { _key: 'gone' }, 'sessions', 0], words: 'Session 1' },
  ])('$words', ({ path, words }) => {
    expect(placeInWords(event, path as PathSegment[])).toBe(words)
  })
})

describe('price moves from the previous edition', () => {
  const previous = {
    title: 'Resilience 2025',
    priceOptions: [
      { _key: 'v', key: 'venue', amount: 8490 },
      { _key: 'o', key: 'online', amount: 5490 },
    ],
  }
  it.each([
    {
      case: 'a venue price up more than 25%',
      option: { _key: 'v', key: 'venue', amount: 10_700 },
      message: 'The venue price moved from R 8 490.00 in "Resilience 2025" to R 10 700.00, up 26%: check it is meant',
    },
    {
      case: 'an online price down more than 25%',
      option: { _key: 'o', key: 'online', amount: 3990 },
      message: 'The online price moved from R 5 490.00 in "Resilience 2025" to R 3 990.00, down 27%: check it is meant',
    },
  ])('warns of $case, naming both figures', ({ option, message }) => {
    expect(checkPriceMoves([option], previous)).toEqual([{ message, path: ['priceOptions', { _key: option._key }, 'amount'] }])
  })

  it.each([
    { case: 'a move of exactly 25%', options: [{ _key: 'v', key: 'venue', amount: 10_612.5 }] },
    { case: 'a small rise', options: [{ _key: 'v', key: 'venue', amount: 8990 }] },
    { case: 'an option the previous edition did not have', options: [{ _key: 't', key: 'table-5', amount: 99_000 }] },
    { case: 'an amount not yet entered', options: [{ _key: 'v', key: 'venue' }] },
  ])('accepts $case', ({ options }) => {
    expect(checkPriceMoves(options, previous)).toEqual([])
  })

  it('says nothing without a previous edition, or when it has been deleted', () => {
    expect(checkPriceMoves([{ _key: 'v', key: 'venue', amount: 99_000 }], undefined)).toEqual([])
  })

  it('is checked on an event that names its previous edition, as a warning', () => {
    const event = {
      _id: 'event-2026',
      _type: 'event',
      previousEdition: { _ref: 'event-2025', _weak: true },
      priceOptions: [{ _key: 'v', key: 'venue', amount: 12_000 }],
    }
    const lookup = (id: string) => (id === 'event-2025' ? ({ _id: 'event-2025', _type: 'event', ...previous } as ContentDocument) : undefined)
    expect(checkDocument(event, lookup)).toContainEqual({
      documentId: 'event-2026',
      path: ['priceOptions', { _key: 'v' }, 'amount'],
      level: 'warning',
      message: 'The venue price moved from R 8 490.00 in "Resilience 2025" to R 12 000.00, up 41%: check it is meant',
    })
  })
})

describe('price plausibility', () => {
  const venue = { _key: 'v', key: 'venue', amount: 8490 }
  it.each([
    {
      case: 'an online price above the venue price',
      option: { _key: 'o', key: 'online', amount: 9990 },
      message: 'The online price (R 9 990.00) is above the venue price (R 8 490.00)',
    },
    {
      case: 'a price typed in cents',
      option: { _key: 'e', key: 'early-bird', amount: 849_000 },
      message: 'R 849 000.00 a delegate, above the ceiling of R 50 000.00 set in the site settings: was it typed in cents?',
    },
    {
      case: 'a table typed in cents, judged per seat',
      option: { _key: 't', key: 'table-5', amount: 3_495_000 },
      message: 'A table of 5 at R 3 495 000.00 is R 699 000.00 a delegate, above the ceiling of R 50 000.00 set in the site settings: was it typed in cents?',
    },
  ])('refuses $case', ({ option, message }) => {
    expect(checkImplausiblePrices([venue, option], 50_000)).toContainEqual({ message, path: ['priceOptions', { _key: option._key }, 'amount'] })
  })

  it.each([
    { case: 'an online price at the venue price', option: { key: 'online', amount: 8490 } },
    { case: 'a table of 10 whose seats cost less than the ceiling', option: { key: 'table-10', amount: 59_900 } },
    { case: 'a price at the ceiling', option: { key: 'early-bird', amount: 50_000 } },
  ])('accepts $case', ({ option }) => {
    expect(checkImplausiblePrices([venue, option], 50_000)).toEqual([])
  })

  it('takes the ceiling the settings set', () => {
    expect(checkImplausiblePrices([venue], 5_000)).toHaveLength(1)
  })

  it.each([
    { amount: 9763.5, rate: 15, warns: true },
    { amount: 6313.5, rate: 15, warns: true },
    { amount: 8490, rate: 15, warns: false },
    { amount: 5750, rate: 15, warns: false },
    { amount: 9763.49, rate: 15, warns: false },
    { amount: 9763.5, rate: 0, warns: false },
  ])('warns that R $amount looks VAT-inclusive at $rate%: $warns', ({ amount, rate, warns }) => {
    expect(checkVatInclusiveLooking([{ key: 'venue', amount }], rate)).toHaveLength(warns ? 1 : 0)
  })
})

describe('links to the site in rich text', () => {
  const linkIn = (href: string) => ({
    _id: 'page-x',
    _type: 'page',
    intro: [{ _key: 'b', _type: 'block', markDefs: [{ _key: 'l', _type: 'link', href }], children: [] }],
  })
  const site: Record<string, ContentDocument[]> = {
    event: [{ _id: 'event-resilience', _type: 'event', kind: 'conference', slug: { current: 'Resilience' } }],
    page: [{ _id: 'page-terms', _type: 'page', slug: { current: 'terms' } }],
    redirect: [{ _id: 'redirect-old', _type: 'redirect', from: '/conference/OldName', to: '/conference/Resilience' }],
  }
  const ofType = (type: string) => site[type] ?? []
  it.each(['/terms', '/conference/resilience?tab=register', '/#contact', '/conference/OldName', 'https://example.com/termz', 'mailto:info@example.com'])(
    'accepts %s',
    (href) => {
      expect(checkInternalLinks(linkIn(href), ofType)).toEqual([])
    },
  )
  it.each(['/termz', '/conference/Missing', '/workshop/Resilience'])('refuses %s, naming the link', (href) => {
    expect(checkInternalLinks(linkIn(href), ofType)).toEqual([
      { message: expect.stringContaining(`The link to ${href} leads nowhere`), path: ['intro', { _key: 'b' }, 'markDefs', { _key: 'l' }, 'href'] },
    ])
  })
})
