import { describe, expect, it } from 'vitest'
import { MAX_DELEGATES } from '@events/core/choices'
import {
  applyIntent,
  asksAttendance,
  blankDraft,
  draftFromForm,
  parseIntent,
  priceDraft,
  registrationInput,
  type OfferedOption,
  type RegistrationDraft,
} from './registration-draft'

const delegates = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ name: `D${index}`, position: 'P', email: `d${index}@x.test`, attendance: '' }))
const draftWith = (overrides: Partial<RegistrationDraft>): RegistrationDraft => ({ ...blankDraft('ERC2025'), token: 'token', ...overrides })

const options: OfferedOption[] = [
  { key: 'venue', label: 'Venue', amount: 8490, available: true },
  { key: 'early-bird', label: 'Early-bird', amount: 7490, available: false },
  { key: 'table-5', label: 'Table of 5 delegates', amount: 34950, available: true },
]

describe('parseIntent', () => {
  it.each([
    ['add-delegate', { type: 'add-delegate' }],
    ['remove-delegate:3', { type: 'remove-delegate', index: 3 }],
    ['update', { type: 'update' }],
    ['submit', { type: 'submit' }],
    ['pay', { type: 'pay' }],
    [null, { type: 'submit' }],
    ['remove-delegate:x', { type: 'submit' }],
  ])('%s', (value, intent) => {
    expect(parseIntent(value)).toEqual(intent)
  })
})

describe('applyIntent', () => {
  it('starts with one blank delegate and the event code', () => {
    expect(blankDraft('ERC2025')).toMatchObject({
      code: 'ERC2025',
      token: '',
      delegates: [{ name: '', position: '', email: '', attendance: '' }],
      attendanceOption: '',
      paymentMethod: '',
    })
  })

  it('adds a row, but not beyond a table’s cap', () => {
    expect(applyIntent(draftWith({ delegates: delegates(2) }), { type: 'add-delegate' }).draft.delegates).toHaveLength(3)
    const full = applyIntent(draftWith({ attendanceOption: 'table-5', delegates: delegates(5) }), { type: 'add-delegate' })
    expect(full.draft.delegates).toHaveLength(5)
    expect(full.notice).toBe('You can only add up to 5 delegates for this option.')
  })

  it('removes any row, the last one too', () => {
    const one = draftWith({ delegates: delegates(1) })
    expect(applyIntent(one, { type: 'remove-delegate', index: 0 }).draft.delegates).toEqual([])
    expect(applyIntent(draftWith({ delegates: delegates(3) }), { type: 'remove-delegate', index: 1 }).draft.delegates.map((row) => row.name)).toEqual([
      'D0',
      'D2',
    ])
  })

  it('cuts the list to a table’s cap on update and says so', () => {
    const change = applyIntent(draftWith({ attendanceOption: 'table-5', delegates: delegates(7) }), { type: 'update' })
    expect(change.draft.delegates.map((row) => row.name)).toEqual(['D0', 'D1', 'D2', 'D3', 'D4'])
    expect(change.notice).toBe('You can only add up to 5 delegates for this option. The list was cut to the first 5.')
  })
})

describe('priceDraft', () => {
  it.each([
    ['no option', draftWith({ delegates: delegates(2) }), 0],
    ['venue per delegate', draftWith({ attendanceOption: 'venue', delegates: delegates(2) }), 1_952_700],
    ['table flat', draftWith({ attendanceOption: 'table-5', delegates: delegates(3) }), 4_019_250],
    ['an option that is closed', draftWith({ attendanceOption: 'early-bird', delegates: delegates(1) }), 0],
  ])('%s', (_, draft, totalCents) => {
    expect(priceDraft(draft, options, 0.15).totalCents).toBe(totalCents)
  })
})

describe('draftFromForm', () => {
  it('reads the fields and the delegate rows in order, whatever their numbers', () => {
    const form = new FormData()
    form.set('companyName', 'Acme')
    form.set('legalAgreement', 'on')
    form.set('delegates.4.name', 'Second')
    form.set('delegates.1.name', 'First')
    form.set('delegates.1.email', 'first@x.test')
    form.set('delegates.4.attendance', 'online')
    const draft = draftFromForm(form)
    expect(draft).toMatchObject({ companyName: 'Acme', legalAgreement: true, attendanceOption: '' })
    expect(draft.delegates).toEqual([
      { name: 'First', position: '', email: 'first@x.test', attendance: '' },
      { name: 'Second', position: '', email: '', attendance: 'online' },
    ])
  })
})

describe('a form posted with one delegate more than a registration takes', () => {
  it('keeps every row, so the core refuses it with the form’s message instead of the last delegate being dropped', () => {
    const form = new FormData()
    for (let row = 0; row <= MAX_DELEGATES; row++) form.set(`delegates.${row}.name`, `Delegate ${row + 1}`)
    const draft = draftFromForm(form)
    expect(draft.delegates).toHaveLength(MAX_DELEGATES + 1)
    expect(draft.delegates.at(-1)?.name).toBe(`Delegate ${MAX_DELEGATES + 1}`)
    expect(registrationInput('legal-opinion', draft).delegates).toHaveLength(MAX_DELEGATES + 1)
  })
})

describe('registrationInput', () => {
  it('answers the VAT question the visitor left unanswered from whether a VAT number was typed', () => {
    expect(registrationInput('Resilience', draftWith({ vatNumber: ' 4123456789 ' })).vatRegistered).toBe('yes')
    expect(registrationInput('Resilience', draftWith({ vatNumber: '' })).vatRegistered).toBe('no')
    expect(registrationInput('Resilience', draftWith({ vatRegistered: 'no', vatNumber: '4123456789' })).vatRegistered).toBe('no')
    expect(registrationInput('Resilience', draftWith({})).event).toBe('Resilience')
  })
})

describe('priceDraft: venue and online delegates', () => {
  const withOnline: OfferedOption[] = [...options, { key: 'online', label: 'Online', amount: 5490, available: true }]
  const mixed = (option: string, ...attendances: string[]) =>
    draftWith({ attendanceOption: option, delegates: attendances.map((attendance, index) => ({ ...delegates(index + 1)[index]!, attendance })) })

  it('prices each delegate at their own attendance, VAT once on the total', () => {
    // 2 × R8 490 + R5 490 = R22 470.00 + VAT R3 370.50.
    expect(priceDraft(mixed('venue', 'venue', '', 'online'), withOnline, 0.15).totalCents).toBe(2_584_050)
    // The online option with one delegate at the venue: the venue price in force (early-bird is closed here).
    expect(priceDraft(mixed('online', 'venue', ''), withOnline, 0.15).totalCents).toBe(1_607_700)
  })

  it('prices no online delegate at a table, and none on an event without online', () => {
    expect(priceDraft(mixed('table-5', '', 'online'), withOnline, 0.15).lines.map((line) => line.attendance)).toEqual(['venue'])
    expect(priceDraft(mixed('venue', 'venue', 'online'), options, 0.15).totalCents).toBe(976_350)
  })

  it('asks each delegate how they attend only for a per-delegate option on an event offering both', () => {
    expect(asksAttendance(draftWith({ attendanceOption: 'venue' }), withOnline)).toBe(true)
    expect(asksAttendance(draftWith({ attendanceOption: 'online' }), withOnline)).toBe(true)
    expect(asksAttendance(draftWith({ attendanceOption: 'table-5' }), withOnline)).toBe(false)
    expect(asksAttendance(draftWith({ attendanceOption: 'venue' }), options)).toBe(false)
    expect(asksAttendance(draftWith({ attendanceOption: '' }), withOnline)).toBe(false)
  })

  it('seats everyone at a table at the venue when a table is chosen', () => {
    const change = applyIntent(mixed('table-5', 'venue', 'online'), { type: 'update' })
    expect(change.draft.delegates.map((delegate) => delegate.attendance)).toEqual(['', ''])
  })
})
